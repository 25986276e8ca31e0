#include "hw/core/scalar_unit.h"

#include "hw/core/core_model.h"
#include "hw/core/timing.h"
#include "hw/core/trace_observer.h"
#include "isa/check/race.h"
#include "isa/error.h"
#include "isa/run_limits.h"
#include "isa/sem/scalar.h"

namespace npu::hw {

using Kind = sem::ScalarOutcome::Kind;

namespace {
// One scalar-unit record for the observer: busy [start, start + cycles).
void observe(TraceObserver* obs, const CoreModel& core, const isa::Instr& in, const sem::DispatchedInstr* di,
           uint32_t pc, uint64_t start, uint64_t cycles, uint64_t stall, StallReason why, bool dispatch) {
  InstrRecord rec;
  rec.core = &core.state.id;
  rec.unit = isa::Pipe::Scalar;
  rec.pc = pc;
  rec.in = &in;
  rec.di = di;
  rec.dispatch = dispatch;
  rec.start = start;
  rec.end = start + cycles;
  rec.stall = stall;
  rec.reason = stall ? why : StallReason::None;
  obs->on_instr(rec);
}
}  // namespace

ScalarUnit::ScalarUnit(sc_core::sc_module_name name, CoreModel& core) : sc_module(name), core_(core) {
  SC_HAS_PROCESS(ScalarUnit);
  SC_THREAD(run);
  set_stack_size(256 * 1024);
}

void ScalarUnit::flush() {
  if (local_ticks_ == 0) return;
  sc_core::wait(sc_core::sc_time::from_value(local_ticks_));
  local_ticks_ = 0;
}

void ScalarUnit::wait_drained(isa::PipeSel sel, UnitWait why) {
  if (core_.drained(sel)) return;
  UnitStatus& st = core_.status_[0];
  st.what = why;
  const uint64_t t0 = CycleClock::now();
  while (!core_.drained(sel)) sc_core::wait(core_.changed_);
  core_.unit_stats(isa::Pipe::Scalar).c.stall_barrier += (CycleClock::now() - t0) / core_.launch.clock.period;
  st.what = UnitWait::Busy;
}

void ScalarUnit::run() {
  LaunchState& L = core_.launch;
  sem::CoreState& cs = core_.state;
  const ScalarConfig& cfg = L.hw.scalar;
  const uint64_t max_issued = L.hw.sim.max_instructions;
  UnitCounters& c = core_.unit_stats(isa::Pipe::Scalar).c;
  UnitStatus& st = core_.status_[0];
  st.what = UnitWait::Busy;
  try {
    // Launch overhead and per-cluster start skew (launch.*): the core sleeps until its start.
    if (const uint64_t start = L.hw.launch.start_cycle(cs.id.cluster))
      sc_core::wait(sc_core::sc_time::from_value(L.ticks(start)));
    for (;;) {
      if (L.issued++ >= max_issued) {  // stop before the instruction: the report shows its pc
        flush();
        L.fail(isa::max_instructions_exceeded(max_issued), true);
        return;
      }
      const isa::Instr& in = sem::fetch(cs, core_.code);
      sem::ScalarOutcome o = sem::step_scalar(cs, in);
      switch (o.kind) {
        case Kind::Next: {
          const uint32_t cyc = scalar_cycles(cfg, in.d().timing);
          if (TraceObserver* obs = L.observer)
            observe(obs, core_, in, nullptr, cs.pc, (CycleClock::now() + local_ticks_) / L.clock.period, cyc, 0,
                  StallReason::None, false);
          local_ticks_ += L.ticks(cyc);
          c.busy_cycles += cyc;
          ++c.instructions;
          cs.pc = o.next_pc;
          if (local_ticks_ >= L.ticks(kMaxLocalCycles)) flush();
          continue;
        }
        case Kind::Dispatch: {
          CoreModel::Queue& q = core_.queue(o.pipe);
          st.cur = o.di;
          st.has_cur = true;
          const uint64_t cost = L.ticks(cfg.dispatch);
          if (q.q.size() < q.depth) {
            // Room now means room after the dispatch cycles too (only this unit pushes).
            if (TraceObserver* obs = L.observer)
              observe(obs, core_, in, &o.di, cs.pc, (CycleClock::now() + local_ticks_) / L.clock.period, cfg.dispatch,
                    0, StallReason::None, true);
            local_ticks_ += cost;
            flush();
          } else {
            flush();
            st.what = UnitWait::QueueFull;
            const uint64_t t0 = CycleClock::now();
            while (q.q.size() >= q.depth) sc_core::wait(core_.changed_);
            const uint64_t stalled = (CycleClock::now() - t0) / L.clock.period;
            c.stall_queue_full += stalled;
            st.what = UnitWait::Busy;
            if (TraceObserver* obs = L.observer)
              observe(obs, core_, in, &o.di, cs.pc, CycleClock::now() / L.clock.period, cfg.dispatch, stalled,
                    StallReason::QueueFull, true);
            if (cost) sc_core::wait(sc_core::sc_time::from_value(cost));
          }
          if (L.race) L.race->dispatched(cs.id, o.di);
          q.q.push_back(std::move(o.di));
          q.work.notify(sc_core::SC_ZERO_TIME);
          c.busy_cycles += cfg.dispatch;
          ++c.instructions;
          L.progress();
          break;
        }
        case Kind::SyncScalar:
          flush();
          st.cur = o.di;
          st.has_cur = true;
          core_.run_sync(o.di, c, st);
          ++c.instructions;
          break;
        case Kind::Barrier: {
          flush();
          st.cur = sem::resolve(cs, in, cs.pc);
          st.has_cur = true;
          const uint64_t t0 = CycleClock::now();
          wait_drained(o.barrier, UnitWait::Barrier);
          if (L.race) L.race->barrier(cs.id, o.barrier);
          if (TraceObserver* obs = L.observer)
            observe(obs, core_, in, &st.cur, cs.pc, CycleClock::now() / L.clock.period, cfg.sync,
                  (CycleClock::now() - t0) / L.clock.period, StallReason::Barrier, false);
          if (cfg.sync) sc_core::wait(sc_core::sc_time::from_value(L.ticks(cfg.sync)));
          c.busy_cycles += cfg.sync;
          ++c.instructions;
          break;
        }
        case Kind::End: {
          flush();
          st.has_cur = false;
          const uint64_t t0 = CycleClock::now();
          wait_drained(isa::PipeSel::All, UnitWait::Drain);
          ++c.instructions;
          cs.ended = true;
          st.what = UnitWait::Ended;
          core_.end_tick = CycleClock::now();
          core_.end_cycle = core_.end_tick / L.clock.period;
          L.end_tick = std::max(L.end_tick, core_.end_tick);
          ++L.cores_ended;
          if (TraceObserver* obs = L.observer)
            observe(obs, core_, in, nullptr, cs.pc, core_.end_cycle, 0, (core_.end_tick - t0) / L.clock.period,
                  StallReason::Barrier, false);
          L.progress();
          return;
        }
      }
      st.has_cur = false;
      cs.pc = o.next_pc;
    }
  } catch (const sc_core::sc_unwind_exception&) {
    throw;
  } catch (const std::exception& e) {
    L.fail(e.what());
  }
}

}  // namespace npu::hw
