#include "hw/core/core_model.h"

#include <cctype>

#include "hw/core/pipe_unit.h"
#include "hw/core/scalar_unit.h"
#include "hw/core/trace_observer.h"
#include "isa/check/race.h"
#include "isa/sem/fault.h"
#include "isa/sem/scalar.h"
#include "isa/sem/sync.h"

namespace npu::hw {

using isa::Op;
using isa::Pipe;

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  for (char& ch : r) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return r;
}
}  // namespace

CoreModel::CoreModel(sc_core::sc_module_name name, const sem::CoreId& id, LaunchState& launch,
                     const isa::CodeSection& code, std::vector<int64_t> params,
                     std::array<GmPort*, isa::kNumPipes> gm_ports, const uint64_t* total_cycles)
    : sc_module(name), launch(launch), state(id, launch.hw.machine(), std::move(params), launch.block_dim),
      code(code), gm_ports_(gm_ports), stats_(id.name()) {
  exec.core = &state;
  exec.gm = &launch.gm;
  for (int p = 0; p < isa::kNumPipes; ++p) {
    const Pipe pipe = static_cast<Pipe>(p);
    if (!has_pipe(pipe)) continue;
    uint32_t depth = launch.hw.scalar.queue_depth[p];
    queues_[p].depth = depth == 0 ? 1 : depth;
    unit_stats_[p] = std::make_unique<UnitStats>(std::string(isa::pipe_name(pipe)), total_cycles,
                                                 pipe == Pipe::Cube);
    stats_.add_child(&unit_stats_[p]->group());
  }
  stats_.add("end_cycle", &end_cycle, "cycle", "cycle at which the core ended");
  scalar_ = std::make_unique<ScalarUnit>("scalar", *this);
  for (int p = 1; p < isa::kNumPipes; ++p) {
    const Pipe pipe = static_cast<Pipe>(p);
    if (has_pipe(pipe)) pipes_.push_back(std::make_unique<PipeUnit>(lower(isa::pipe_name(pipe)).c_str(), *this, pipe));
  }
}

CoreModel::~CoreModel() = default;

bool CoreModel::drained(isa::PipeSel sel) const {
  if (sel == isa::PipeSel::All) {
    for (int p = 1; p < isa::kNumPipes; ++p)
      if (!queues_[p].drained()) return false;
    return true;
  }
  return queues_[static_cast<int>(sel)].drained();  // SCALAR and absent pipes: always drained
}

void CoreModel::run_sync(const sem::DispatchedInstr& di, UnitCounters& c, UnitStatus& status) {
  uint64_t waited = 0;  // cycles blocked (for the trace)
  auto blocked = [&](UnitWait why, sc_core::sc_event& ev, auto&& ready) {
    if (ready()) return;
    status.what = why;
    const uint64_t t0 = CycleClock::now();
    do {
      sc_core::wait(ev);
    } while (!ready());
    waited = (CycleClock::now() - t0) / launch.clock.period;
    c.stall_flag_wait += waited;
    status.what = UnitWait::Busy;
  };
  const uint32_t cost = launch.hw.scalar.sync;
  auto trace = [&](uint64_t start, uint64_t end, uint64_t stall, StallReason reason) {
    TraceObserver* obs = launch.observer;
    if (!obs) return;
    InstrRecord rec;
    rec.core = &state.id;
    rec.unit = di.pipe;
    rec.pc = di.pc;
    rec.in = &di.in;
    rec.di = &di;
    rec.start = start;
    rec.end = end;
    rec.stall = stall;
    rec.reason = reason;
    obs->on_instr(rec);
  };
  // Posted writes of this pipe must be acknowledged before it signals anyone: a memory stall
  // inside the instruction's busy span, as a DMA's is (traced before the wait, as a DMA is).
  uint64_t ack_stall = 0;
  if (di.op() == Op::SET_FLAG || di.op() == Op::CC_SET) {
    const uint64_t acked = queues_[static_cast<int>(di.pipe)].writes_acked, now = CycleClock::now();
    if (acked > now) {
      ack_stall = (acked - now) / launch.clock.period;
      const uint64_t start = now / launch.clock.period;
      trace(start, start + ack_stall + cost, ack_stall, StallReason::Memory);
      sc_core::wait(sc_core::sc_time::from_value(acked - now));
      c.busy_cycles += ack_stall;
      c.stall_memory += ack_stall;
    }
  }
  switch (di.op()) {
    case Op::SET_FLAG:
      sem::fire_flag(state, di);
      flag_fired_.notify(sc_core::SC_ZERO_TIME);
      break;
    case Op::WAIT_FLAG:
      blocked(UnitWait::Flag, flag_fired_, [&] { return sem::try_consume_flag(state, di); });
      break;
    case Op::CC_SET:
      launch.hub.set(state, di);
      launch.cc_changed.notify(sc_core::SC_ZERO_TIME);
      break;
    case Op::CC_WAIT:
      blocked(UnitWait::CrossCore, launch.cc_changed, [&] { return launch.hub.try_wait(state, di); });
      break;
    default: sem::fault(state.id, di, "internal: not a sync instruction");
  }
  if (launch.race) launch.race->synced(state.id, di);
  if (!ack_stall) {
    const uint64_t start = CycleClock::now() / launch.clock.period;
    trace(start, start + cost, waited,
          waited == 0 ? StallReason::None : di.op() == Op::CC_WAIT ? StallReason::CrossCore : StallReason::FlagWait);
  }
  if (cost > 0) sc_core::wait(sc_core::sc_time::from_value(launch.ticks(cost)));
  c.busy_cycles += cost;
}

bool CoreModel::pipe_executing() const {
  for (int p = 1; p < isa::kNumPipes; ++p)
    if (status_[p].what == UnitWait::Busy) return true;
  return false;
}

std::string CoreModel::blocked_report() const {
  std::string s;
  for (int p = 0; p < isa::kNumPipes; ++p) {
    const Pipe pipe = static_cast<Pipe>(p);
    if (!has_pipe(pipe)) continue;
    const UnitStatus& st = status_[p];
    const Queue& q = queues_[p];
    std::string line = "  " + std::string(isa::pipe_name(pipe)) + ": ";
    std::string at = st.has_cur ? "pc " + std::to_string(st.cur.pc) + " (" + sem::describe(st.cur.in) + ")" : "";
    switch (st.what) {
      case UnitWait::Idle: line += "idle"; break;
      case UnitWait::Busy:
        line += pipe == Pipe::Scalar && !st.has_cur ? "running scalar code at pc " + std::to_string(state.pc)
                                                    : "executing " + at;
        break;
      case UnitWait::Flag: {
        auto src = static_cast<Pipe>(st.cur["src"]), dst = static_cast<Pipe>(st.cur["dst"]);
        line += "waits at " + at + " for flag " + sem::flag_name(src, dst, static_cast<int>(st.cur["id"])) +
                " (not fired)";
        break;
      }
      case UnitWait::CrossCore:
        line += "waits at " + at + ": " + launch.hub.explain_wait(state.id, static_cast<int>(st.cur["id"]));
        break;
      case UnitWait::QueueFull: {
        const Queue& tq = queues_[static_cast<int>(st.cur.pipe)];
        line += "waits at " + at + " for room in the " + std::string(isa::pipe_name(st.cur.pipe)) + " queue (" +
                std::to_string(tq.q.size()) + "/" + std::to_string(tq.depth) + ")";
        break;
      }
      case UnitWait::Barrier: line += "waits at " + at + " for pipes to drain"; break;
      case UnitWait::Drain: line += "waits at end (pc " + std::to_string(state.pc) + ") for every pipe to drain"; break;
      case UnitWait::Ended: line += "ended"; break;
    }
    if (pipe != Pipe::Scalar && !q.q.empty()) {
      line += "; " + std::to_string(q.q.size()) + " queued, next pc " + std::to_string(q.q.front().pc) + " (" +
              sem::describe(q.q.front().in) + ")";
    }
    s += line + "\n";
  }
  std::string fired;
  for (int src = 0; src < isa::kNumPipes; ++src)
    for (int dst = 0; dst < isa::kNumPipes; ++dst)
      for (int id = 0; id < sem::kFlagIds; ++id)
        if (state.flags[sem::flag_index(static_cast<Pipe>(src), static_cast<Pipe>(dst), id)])
          fired += (fired.empty() ? "" : ", ") + sem::flag_name(static_cast<Pipe>(src), static_cast<Pipe>(dst), id);
  s += "  fired, not consumed flags: " + (fired.empty() ? std::string("none") : fired) + "\n";
  std::string cc;
  for (int id = 0; id < sem::kCrossCoreIds; ++id) {
    int v = launch.hub.counter(state.id, id);
    if (v != 0) cc += (cc.empty() ? "" : ", ") + std::to_string(id) + "=" + std::to_string(v);
  }
  s += "  cross-core counters: " + (cc.empty() ? std::string("all 0") : cc) + "\n";
  return s;
}

}  // namespace npu::hw
