// `npusim run` on the SystemC model (run_backend.h): hw::run_systemc with the case's per-tensor
// cache policies.
#include "cli/lib/run_backend.h"
#include "hw/top/run.h"

namespace npu::cli {

SimOutcome run_on_systemc(const SimRequest& req) {
  hw::RunOptions ho;
  for (const RegionSpec& r : req.regions)
    if (r.cache) ho.cache_policy[r.name] = *r.cache;
  ho.trace = req.trace;
  ho.race = req.race;
  ho.l2_carry = req.l2_carry;
  ho.timing_only = req.timing_only;
  ho.progress = req.progress;
  ho.host_phases = req.host_phases;
  ho.keep_model_at_exit = req.keep_model_at_exit;
  hw::RunResult r = hw::run_systemc(*req.hw, *req.program, *req.gm, req.params, req.block_dim, ho);
  return SimOutcome{std::move(r.stats), std::move(r.race_findings), {}};
}

}  // namespace npu::cli
