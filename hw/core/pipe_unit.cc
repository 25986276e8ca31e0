#include "hw/core/pipe_unit.h"

#include <algorithm>

#include "hw/core/core_model.h"
#include "hw/core/timing.h"
#include "hw/core/trace_observer.h"
#include "isa/check/race.h"
#include "isa/error.h"
#include "isa/sem/execute.h"
#include "isa/sem/scalar.h"
#include "isa/sem/shape.h"

namespace npu::hw {

PipeUnit::PipeUnit(sc_core::sc_module_name name, CoreModel& core, isa::Pipe pipe)
    : sc_module(name), core_(core), pipe_(pipe) {
  SC_HAS_PROCESS(PipeUnit);
  SC_THREAD(run);
  set_stack_size(256 * 1024);
}

void PipeUnit::execute_data(const sem::DispatchedInstr& di, UnitCounters& c) {
  LaunchState& L = core_.launch;
  const sem::InstrShape shape = sem::shape_of(di);
  const isa::TimingClass tc = di.in.d().timing;
  const uint64_t t0 = CycleClock::now();
  const uint64_t own = own_cycles(L.hw, di, shape);
  uint64_t end = t0 + L.ticks(own);
  uint64_t mem_stall = 0;
  TraceObserver* const obs = L.observer;
  InstrRecord rec;
  if (is_gm_path(tc)) {
    GmPort* port = core_.gm_port(pipe_);
    const std::vector<sem::GmRange> ranges = sem::gm_ranges(di);
    if (port && !ranges.empty()) {
      std::vector<GmRange> lines;
      lines.reserve(ranges.size());
      for (const sem::GmRange& r : ranges) lines.push_back(GmRange{r.addr, r.bytes});
      const PathConfig* path = path_of(L.hw.mte, tc);
      GmPort::Options opt;
      opt.issue_bytes_per_cycle = path->bytes_per_cycle;
      // Bounded look-ahead so DMAs that overlap in time share the memory system fairly
      // (mte.quantum_cycles); issue() may then wait, so time can pass before it returns.
      opt.quantum = sc_core::sc_time::from_value(L.ticks(L.hw.mte.quantum_cycles));
      if (obs) obs->before_gm_issue(core_.state.id, pipe_);
      GmPort::Result r = port->issue(lines, ranges.front().is_write, ranges.front().hint,
                                     sc_core::sc_time::from_value(t0 + L.ticks(path->startup)), opt);
      // Posted writes: the pipe is free once the data is handed off; the acknowledgement is
      // waited for by set_flag / cc_set on this pipe, barriers and `end` (CoreModel::Queue).
      const bool posted = ranges.front().is_write;
      const uint64_t gm_end = L.ceil_cycle((posted ? r.handed_off : r.end).value());
      if (posted) {
        uint64_t& acked = core_.queue(pipe_).writes_acked;
        acked = std::max(acked, L.ceil_cycle(r.end.value()));
      }
      rec.has_gm = true;
      rec.gm_start = r.start.value() / L.clock.period;
      rec.gm_end = gm_end / L.clock.period;
      if (gm_end > end) {
        mem_stall = gm_end - end;
        end = gm_end;
      }
    }
  }
  if (obs) {
    rec.core = &core_.state.id;
    rec.unit = pipe_;
    rec.pc = di.pc;
    rec.in = &di.in;
    rec.di = &di;
    rec.start = t0 / L.clock.period;
    rec.end = end / L.clock.period;
    rec.stall = mem_stall / L.clock.period;
    rec.reason = mem_stall ? StallReason::Memory : StallReason::None;
    obs->on_instr(rec);
  }
  // Not end - t0: with a quantum, issue() above may already have advanced time.
  const uint64_t now = CycleClock::now();
  if (end > now) sc_core::wait(sc_core::sc_time::from_value(end - now));
  if (!L.timing_only) {
    core_.accesses.clear();
    sem::execute(di, core_.exec);
    if (L.race) L.race->executed(core_.state.id, di, core_.accesses);
  }
  c.busy_cycles += (end - t0) / L.clock.period;
  c.stall_memory += mem_stall / L.clock.period;
  c.macs += macs_of(di, shape);
}

void PipeUnit::run() {
  CoreModel::Queue& q = core_.queue(pipe_);
  UnitCounters& c = core_.unit_stats(pipe_).c;
  UnitStatus& st = core_.status_[static_cast<int>(pipe_)];
  LaunchState& L = core_.launch;
  try {
    for (;;) {
      while (q.q.empty()) {
        st.what = UnitWait::Idle;
        st.has_cur = false;
        const uint64_t now = CycleClock::now();
        if (q.writes_acked > now) {  // wake barrier / `end` waiters when the posted writes are acked
          sc_core::wait(sc_core::sc_time::from_value(q.writes_acked - now), q.work);
          if (q.drained()) core_.changed_.notify(sc_core::SC_ZERO_TIME);
        } else {
          sc_core::wait(q.work);
        }
      }
      st.cur = std::move(q.q.front());
      q.q.pop_front();
      st.has_cur = true;
      st.what = UnitWait::Busy;
      q.busy = true;
      core_.changed_.notify(sc_core::SC_ZERO_TIME);  // room in the queue
      if (sem::is_sync_op(st.cur.op()))
        core_.run_sync(st.cur, c, st);
      else
        execute_data(st.cur, c);
      ++c.instructions;
      q.busy = false;
      L.progress();
      core_.changed_.notify(sc_core::SC_ZERO_TIME);  // maybe drained
    }
  } catch (const sc_core::sc_unwind_exception&) {
    throw;
  } catch (const std::exception& e) {
    L.fail(e.what());
  }
}

}  // namespace npu::hw
