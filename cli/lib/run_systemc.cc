// `npusim run` on the SystemC model (run_backend.h): hw::run_systemc with the case's per-tensor
// cache policies, its statistics reshaped into the layout the report reads.
#include "cli/lib/run_backend.h"
#include "hw/top/run.h"

namespace npu::cli {

SimOutcome run_on_systemc(const SimRequest& req) {
  hw::RunOptions ho;
  for (const RegionSpec& r : req.regions)
    if (r.cache) ho.cache_policy[r.name] = *r.cache;
  ho.trace = req.trace;
  ho.race = req.race;
  ho.timing_only = req.timing_only;
  hw::RunResult r = hw::run_systemc(*req.hw, *req.program, *req.gm, req.params, req.block_dim, ho);

  SimOutcome out;
  out.race_findings = r.race_findings;
  out.mode = "systemc";
  out.total_cycles = r.total_cycles;
  out.extra = nlohmann::json::object();
  for (auto it = r.stats.begin(); it != r.stats.end(); ++it) {
    const std::string& k = it.key();
    if (k == "cores") {
      for (nlohmann::json c : it.value()) {
        // "cluster3.aiv1" -> "aiv" (the report groups cores by type).
        std::string name = c.value("name", std::string());
        size_t dot = name.rfind('.');
        c["type"] = dot == std::string::npos ? "core" : name.substr(dot + 1, 3);
        out.cores.push_back(std::move(c));
      }
    } else if (k == "l2") {
      out.l2 = it.value();
    } else if (k == "hbm") {
      out.hbm = it.value();
    } else if (k != "total_cycles" && k != "time_us" && k != "clock_ghz") {
      out.extra[k] = it.value();
    }
  }
  return out;
}

}  // namespace npu::cli
