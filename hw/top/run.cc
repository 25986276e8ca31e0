#include "hw/top/run.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "hw/mem/sim_kernel.h"
#include "hw/top/chip_top.h"
#include "hw/top/stats_report.h"
#include "hw/top/trace_session.h"
#include "isa/error.h"
#include "isa/run_limits.h"

namespace npu::hw {

namespace {

void register_regions(MemSystem& mem, const sem::GlobalMemory& gm, const HwConfig& hw, const RunOptions& opt) {
  for (const sem::GmRegion& r : gm.regions()) {
    std::optional<isa::CacheHint> hint;
    auto it = opt.cache_policy.find(r.name);
    if (it != opt.cache_policy.end()) hint = it->second;
    mem.regions().add(r.name, r.base, r.size, hint);
  }
  for (const auto& [name, hint] : opt.cache_policy)
    if (!gm.region_named(name)) throw Error("cache policy for unknown tensor '" + name + "'");
  if (!hw.l2.warm) return;
  std::vector<GmRange> warm;
  if (opt.warm_regions.empty()) {
    for (const sem::GmRegion& r : gm.regions()) warm.push_back(GmRange{r.base, r.size});
  } else {
    for (const std::string& name : opt.warm_regions) {
      const sem::GmRegion* r = gm.region_named(name);
      if (!r) throw Error("warm L2: unknown tensor '" + name + "'");
      warm.push_back(GmRange{r->base, r->size});
    }
  }
  mem.preload(warm);
}

// Runs until every core has ended, a fault or the instruction limit stopped the simulation,
// nothing is left to happen (deadlock), nothing progressed for the watchdog period, or the cycle
// limit is reached.
void drive(ChipTop& top, const RunOptions& opt) {
  LaunchState& L = top.launch();
  const uint64_t watchdog = L.ticks(L.hw.sim.watchdog_cycles);
  const uint64_t limit = L.ticks(L.hw.sim.max_cycles);
  bool started = false;
  for (;;) {
    if (L.error || L.cores_ended == L.cores_total) return;
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED) return;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (started && !sc_core::sc_pending_activity())
      throw Error("deadlock at cycle " + std::to_string(now / L.clock.period) +
                  ": no event is pending, yet " + std::to_string(L.cores_total - L.cores_ended) +
                  " core(s) have not ended. Who waits on what:\n" + top.blocked_report());
    // sc_start with SC_EXIT_ON_STARVATION leaves time at the last event, so also trip when the
    // next pending event lies beyond a deadline.
    const uint64_t next = started ? now + sc_core::sc_time_to_pending_activity().value() : now;
    if (next > limit)
      throw Error(isa::max_cycles_exceeded(L.hw.sim.max_cycles) + " (cycle " + std::to_string(now / L.clock.period) +
                  "). Where each core was:\n" + top.blocked_report());
    uint64_t deadline = L.last_progress + watchdog;
    // A pipe still executing (a slow transfer, a long mmad) is progress, not a hang: it retires at
    // a pending event, so run at least up to the next one.
    if (started && next > deadline && top.pipe_executing()) {
      L.last_progress = now;
      deadline = std::max(now + watchdog, next);
    }
    if (started && next > deadline)
      throw Error("watchdog: no instruction retired for " + std::to_string(L.hw.sim.watchdog_cycles) +
                  " cycles (cycle " + std::to_string(deadline / L.clock.period) +
                  ") and no pipe is executing one (sim.watchdog_cycles; raise it with --set "
                  "sim.watchdog_cycles=N). Who waits on what:\n" +
                  top.blocked_report());
    // +1 tick: events at exactly the deadline run too, so every call moves time or ends the loop.
    uint64_t until = std::min(deadline, limit);
    if (opt.progress) {
      opt.progress(RunProgress{now / L.clock.period, L.issued, L.cores_ended, L.cores_total});
      until = std::min(until, now + L.ticks(kProgressSliceCycles));
    }
    sc_core::sc_start(sc_core::sc_time::from_value(until - now + 1), sc_core::SC_EXIT_ON_STARVATION);
    resync_sanitizer_stack();
    started = true;
  }
}

}  // namespace

RunResult run_systemc(const HwConfig& hw, const isa::Program& program, sem::GlobalMemory& gm,
                      const std::vector<int64_t>& params, int block_dim, const RunOptions& opt) {
  mark_phase(opt.host_phases, "elaboration");
  auto ctx = std::make_unique<SimContext>();  // first: the modules below die before it
  auto top_owner = std::make_unique<ChipTop>("top", hw, program, gm, params, block_dim, opt.timing_only);
  ChipTop& top = *top_owner;
  register_regions(top.mem(), gm, hw, opt);
  if (opt.l2_carry && !opt.l2_carry->slices.empty()) {
    if (opt.l2_carry->slices.size() != top.mem().slices()) throw Error("L2 carry: the slice count changed");
    for (uint32_t s = 0; s < top.mem().slices(); ++s) top.mem().slice(s).adopt_tags(std::move(opt.l2_carry->slices[s]));
  }
  std::unique_ptr<check::RaceChecker> race;
  if (opt.race != check::RaceMode::Off) {
    if (opt.timing_only) throw Error("race checking needs the data effects: not with a timing-only run");
    std::vector<sem::CoreId> ids;
    for (const auto& c : top.cores()) ids.push_back(c->state.id);
    race = std::make_unique<check::RaceChecker>(program, ids, opt.race, &gm);
    top.launch().race = race.get();
    top.launch().hub.set_observer(race.get());
    for (const auto& c : top.cores()) c->exec.accesses = &c->accesses;
  }
  std::unique_ptr<TraceSession> trace;  // dies before top
  if (opt.trace.any()) {
    trace = std::make_unique<TraceSession>(opt.trace, top, program);  // before sc_start
    top.launch().observer = trace.get();
  }
  auto finish_trace_quietly = [&] {
    try {
      if (trace) trace->finish();
    } catch (const std::exception&) {  // the run's own error matters more
    }
  };
  mark_phase(opt.host_phases, "simulation");
  try {
    drive(top, opt);
  } catch (...) {
    finish_trace_quietly();
    throw;
  }
  LaunchState& L = top.launch();
  if (opt.progress) opt.progress(RunProgress{L.end_tick / L.clock.period, L.issued, L.cores_ended, L.cores_total});
  if (L.error) {
    finish_trace_quietly();
    throw Error(*L.error + (L.error_wants_report ? ". Where each core was:\n" + top.blocked_report() : ""));
  }

  mark_phase(opt.host_phases, "statistics");
  top.total_cycles = L.end_tick / L.clock.period;
  RunResult r;
  if (race) {
    std::vector<const sem::CoreState*> states;
    for (const auto& c : top.cores()) states.push_back(&c->state);
    race->finish(states, L.hub);  // Error mode: throws for leftovers
    r.race_findings = race->findings();
  }
  r.stats = collect_stats(top);
  r.total_cycles = top.total_cycles;
  if (trace) {
    trace->finish();
    r.stats.labels = trace->label_records();
  }
  if (opt.l2_carry) {
    opt.l2_carry->slices.clear();
    for (uint32_t s = 0; s < top.mem().slices(); ++s) opt.l2_carry->slices.push_back(top.mem().slice(s).release_tags());
  }
  mark_phase(opt.host_phases, "teardown");  // the modules and the context, destroyed on return
  if (opt.keep_model_at_exit) {
    top.launch().race = nullptr;  // both die on return; the kept model never runs again
    top.launch().observer = nullptr;
    top.launch().hub.set_observer(nullptr);
    static auto* kept = new std::vector<std::pair<std::unique_ptr<ChipTop>, std::unique_ptr<SimContext>>>;
    kept->emplace_back(std::move(top_owner), std::move(ctx));
  }
  return r;
}

}  // namespace npu::hw
