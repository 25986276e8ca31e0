// stats.json from the typed RunResult (run_stats_json.h, docs/stats.md).
#include "cli/lib/run_stats_json.h"

#include "base/build_info.h"
#include "cli/lib/sim_stats_json.h"

namespace npu::cli {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json verdict_json(const OutputVerdict& v) {
  if (!v.compared) return {{"tensor", v.tensor}, {"compared", false}};
  const golden::CompareResult& r = v.result;
  return {{"tensor", v.tensor},
          {"compared", true},
          {"golden_output", v.golden_output},
          {"pass", r.pass},
          {"max_abs_err", r.max_abs_err},
          {"max_rel_err", r.max_rel_err},
          {"bad_count", r.bad_count},
          {"allowed_bad", r.allowed_bad},
          {"nonfinite_count", r.nonfinite_count},
          {"first_bad", r.first_bad},
          {"numel", r.numel},
          {"bad_ratio", r.bad_ratio},
          {"tolerance", {{"atol", r.tol.atol}, {"rtol", r.tol.rtol}, {"max_error_ratio", r.tol.max_error_ratio}}}};
}

json tensor_json(const TensorRecord& t) {
  json j = {{"name", t.name},
            {"dtype", std::string(isa::dtype_name(t.dtype))},
            {"shape", t.shape},
            {"role", t.role},
            {"base", t.base},
            {"bytes", t.bytes},
            {"cache", t.cache ? json(std::string(isa::keyword(isa::EnumType::CacheHint, static_cast<int>(*t.cache))))
                              : json(nullptr)}};
  if (!t.init.empty()) j["init"] = t.init;
  return j;
}

json unit_json(const UnitUse& u) { return {{"unit", u.unit}, {"utilization", u.utilization}}; }

json roofline_json(const Roofline& r) {
  json j = {{"peak_tflops", r.peak_tflops},
            {"flops", optional_json(r.flops)},
            {"flops_source", r.flops_source == FlopsSource::Case       ? json("case")
                             : r.flops_source == FlopsSource::CubeMacs ? json("cube_macs")
                                                                       : json(nullptr)},
            {"achieved_tflops", optional_json(r.achieved_tflops)},
            {"fraction_of_peak", optional_json(r.fraction_of_peak)}};
  json units = json::array();
  for (const UnitUse& u : r.units) units.push_back(unit_json(u));
  j["units"] = units;
  j["bound"] = r.bound() ? unit_json(*r.bound()) : json(nullptr);
  return j;
}

}  // namespace

json stats_json(const RunResult& r) {
  const RunInfo& i = r.info;
  json s;
  s["schema_version"] = kStatsSchemaVersion;
  s["npusim"] = {{"version", build_version()}, {"git", build_git_hash()}};
  s["npusim_run"] = {{"command_line", i.command_line},
                     {"case", i.case_path},
                     {"kernel", i.kernel_path},
                     {"kernel_name", i.kernel_name},
                     {"config", i.config_path},
                     {"config_overrides", i.config_overrides},
                     {"var_overrides", i.var_overrides},
                     {"cache_overrides", i.cache_overrides},
                     {"mode", backend_name(i.backend)},
                     {"timing_only", r.sim.timing_only},
                     {"race_check", i.race_check},
                     {"race_findings", r.warnings.size()},
                     {"block_dim", i.block_dim},
                     {"description", i.description}};
  json sim = sim_stats_json(r.sim);
  for (auto it = sim.begin(); it != sim.end(); ++it) s[it.key()] = it.value();
  if (s["hbm"].is_object()) s["hbm"]["peak_gbps"] = r.hbm_peak_gbps;
  s["roofline"] = roofline_json(r.roofline);
  json outputs = json::array();
  for (const OutputVerdict& v : r.verdicts) outputs.push_back(verdict_json(v));
  // --timing-only judges nothing: verdict "TIMING ONLY", all_pass null (neither pass nor failure).
  if (r.sim.timing_only)
    s["numerics"] = {{"verdict", "TIMING ONLY"}, {"all_pass", nullptr}, {"outputs", outputs}};
  else
    s["numerics"] = {{"verdict", verdict_name(r.verdict())}, {"all_pass", r.all_pass()}, {"outputs", outputs}};
  json tensors = json::array();
  for (const TensorRecord& t : r.tensors) tensors.push_back(tensor_json(t));
  s["tensors"] = tensors;
  if (!r.launches.empty()) {
    s["npusim_run"]["l2_between_launches"] = r.l2_cold_between_launches ? "cold" : "warm";
    json launches = json::array();
    for (const LaunchRecord& l : r.launches) {
      json lj = {{"launch", l.launch}, {"entry", l.entry},         {"repeat", l.repeat},
                 {"kernel", l.kernel_path}, {"kernel_name", l.kernel_name}, {"block_dim", l.block_dim}};
      json ls = sim_stats_json(l.sim);
      for (auto it = ls.begin(); it != ls.end(); ++it)
        if (it.key() != "block_dim") lj[it.key()] = it.value();
      launches.push_back(std::move(lj));
    }
    s["launches"] = std::move(launches);
  }
  return s;
}

}  // namespace npu::cli
