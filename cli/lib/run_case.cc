// The `npusim run` job (run_case.h): case -> GM -> simulation -> comparison -> stats/report.
#include "cli/lib/run_case.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <optional>

#include "cli/lib/case_budget.h"
#include "cli/lib/case_data.h"
#include "cli/lib/case_spec.h"
#include "cli/lib/run_backend.h"
#include "cli/lib/run_output.h"
#include "cli/lib/run_report.h"
#include "hw/config/loader.h"
#include "hw/top/trace_options.h"
#include "isa/error.h"
#include "isa/types.h"
#include "testbench/golden/registry.h"

namespace npu::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultConfig = "configs/ascend910b.yaml";

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string find_upwards(fs::path dir) {
  std::error_code ec;
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    fs::path cand = dir / kDefaultConfig;
    if (fs::is_regular_file(cand, ec)) return cand.string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return "";
}

// Runs the golden on the initial tensors: golden output name -> reference tensor. Shapes of the
// bound outputs are checked here, before any simulation.
golden::TensorMap run_reference(const CaseSpec& spec, const std::vector<golden::Tensor>& initial) {
  if (!spec.golden.present) return {};
  golden::TensorMap inputs;
  for (const auto& [gname, tname] : spec.golden.inputs)
    for (size_t i = 0; i < spec.tensors.size(); ++i)
      if (spec.tensors[i].name == tname) inputs[gname] = initial[i];
  golden::TensorMap refs;
  try {
    refs = golden::run_golden(spec.golden.name, spec.golden.attrs, inputs);
  } catch (const Error& e) {
    throw Error(spec.golden.loc.str() + ": error: golden: " + e.what());
  }
  std::vector<std::string> errors;
  for (const auto& [gname, tname] : spec.golden.outputs) {
    auto it = refs.find(gname);
    const CaseTensor& t = *spec.tensor(tname);
    if (it == refs.end()) {
      errors.push_back(spec.golden.output_locs.at(gname).str() + ": error: golden.outputs." + gname +
                       ": golden '" + spec.golden.name + "' did not produce '" + gname + "'");
    } else if (it->second.shape() != t.shape) {
      errors.push_back(spec.golden.output_locs.at(gname).str() + ": error: golden.outputs." + gname +
                       ": the golden gives " + it->second.describe() + " but tensor '" + tname + "' is " +
                       std::string(isa::dtype_name(t.dtype)) + golden::shape_str(t.shape));
    }
  }
  if (!errors.empty()) {
    std::string all;
    for (size_t i = 0; i < errors.size(); ++i) all += (i ? "\n" : "") + errors[i];
    throw Error(all);
  }
  return refs;
}

nlohmann::json tensor_json(const CaseTensor& t, const TensorPlacement& p) {
  nlohmann::json j = {{"dtype", std::string(isa::dtype_name(t.dtype))},
                      {"shape", t.shape},
                      {"role", role_name(t.role)},
                      {"base", p.base},
                      {"bytes", p.bytes},
                      {"cache", t.cache ? nlohmann::json(std::string(isa::keyword(isa::EnumType::CacheHint,
                                                                                  static_cast<int>(*t.cache))))
                                        : nlohmann::json(nullptr)}};
  if (t.role == TensorRole::Input || t.init.kind != InitSpec::Kind::Zeros) j["init"] = t.init.describe();
  return j;
}

nlohmann::json verdict_json(const OutputVerdict& v) {
  if (!v.compared) return {{"compared", false}};
  const golden::CompareResult& r = v.result;
  return {{"compared", true},
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

}  // namespace

std::string default_config_path() {
  if (const char* e = std::getenv("NPUSIM_CONFIG"); e && *e) return e;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::string p = find_upwards(exe.parent_path());
    if (!p.empty()) return p;
  }
  std::string p = find_upwards(fs::current_path(ec));
  if (!p.empty()) return p;
  throw Error(std::string("no hardware config: pass --config HW.yaml or set NPUSIM_CONFIG (") + kDefaultConfig +
              " was not found above the npusim executable or the current directory)");
}

// --cache TENSOR=POLICY: replaces the case's policy for that tensor ("kernel" removes it).
void apply_cache_overrides(CaseSpec& spec, const std::vector<std::string>& overrides) {
  for (const std::string& ov : overrides) {
    const size_t eq = ov.find('=');
    const std::string name = ov.substr(0, eq), policy = eq == std::string::npos ? "" : ov.substr(eq + 1);
    const std::string where = "--cache " + ov + ": error: ";
    if (eq == std::string::npos || name.empty() || policy.empty())
      throw Error(where + "expected TENSOR=POLICY");
    auto it = std::find_if(spec.tensors.begin(), spec.tensors.end(),
                           [&](const CaseTensor& t) { return t.name == name; });
    if (it == spec.tensors.end()) {
      std::string names;
      for (const CaseTensor& t : spec.tensors) names += (names.empty() ? "" : ", ") + t.name;
      throw Error(where + "no tensor '" + name + "' in the case (tensors: " + names + ")");
    }
    if (policy == "kernel") {
      it->cache.reset();
      continue;
    }
    std::optional<int> hint = isa::parse_keyword(isa::EnumType::CacheHint, policy);
    if (!hint) throw Error(where + "unknown policy '" + policy + "' (normal, none_cacheable, prefetch, kernel)");
    it->cache = static_cast<isa::CacheHint>(*hint);
  }
}

RunResult run_case(const RunOptions& o) {
  // 1. Case, config, kernel (and a usable output directory, before any work).
  CaseSpec spec = parse_case_file(o.case_path, o.vars);
  apply_cache_overrides(spec, o.caches);
  if (!o.out_dir.empty()) check_output_dir(o.out_dir);
  const std::string cfg_path = o.config_path.empty() ? default_config_path() : o.config_path;
  hw::HwConfig hw = hw::load_config(cfg_path, o.sets);
  if (spec.block_dim > hw.chip.clusters)
    throw Error(spec.block_dim_loc.str() + ": error: block_dim: " + std::to_string(spec.block_dim) +
                " exceeds chip.clusters = " + std::to_string(hw.chip.clusters) + " of " + cfg_path);
  isa::Program prog = load_case_kernel(spec, hw.chip.arch);

  // 2. GM layout (checked against the GM and the host before anything is allocated), inputs, golden.
  std::vector<TensorPlacement> placement = place_tensors(spec, hw.l2.line);
  check_case_fits(spec, placement, hw, cfg_path);
  if (const std::string note = expensive_case_note(spec); !note.empty()) std::cerr << note << std::endl;
  std::vector<golden::Tensor> initial;
  for (const CaseTensor& t : spec.tensors) initial.push_back(make_initial_tensor(t));
  std::vector<int64_t> params = kernel_param_values(spec, prog, placement);
  if (o.timing_only && o.iss) throw Error("--timing-only needs the SystemC model (not --iss)");
  // The golden reads only `initial` (not changed below), so it runs beside the simulation.
  std::future<golden::TensorMap> golden_run;
  if (!o.timing_only) golden_run = std::async(std::launch::async, run_reference, std::cref(spec), std::cref(initial));

  sem::GlobalMemory gm(hw.hbm.size);
  SimRequest req;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const CaseTensor& t = spec.tensors[i];
    const TensorPlacement& p = placement[i];
    try {
      gm.add_region(t.name, p.base, p.bytes);
    } catch (const Error& e) {
      throw Error(t.loc.str() + ": error: tensors." + t.name + ": cannot place it in GM (" + e.what() + ")");
    }
    gm.write(p.base, initial[i].bytes().data(), p.bytes);
    req.regions.push_back(RegionSpec{t.name, p.base, p.bytes, t.cache});
  }
  req.hw = &hw;
  req.program = &prog;
  req.gm = &gm;
  req.params = params;
  req.block_dim = spec.block_dim;
  req.trace = o.trace;
  req.race = o.race.empty() ? (o.iss ? check::RaceMode::Error : check::RaceMode::Off) : check::parse_race_mode(o.race);
  req.timing_only = o.timing_only;
  if (o.iss && o.trace.writes_files()) throw Error("--vcd, --trace and --instr-csv need the SystemC model (not --iss)");
  // Per-label statistics whenever the kernel has semantic labels (stats.json "labels").
  req.trace.label_stats = !prog.aic.labels.empty() || !prog.aiv.labels.empty();

  // 3. Simulate, read back, compare.
  SimOutcome sim;
  // A golden error comes first, as when the golden ran before the simulation.
  auto wait_golden = [&] { return golden_run.valid() ? golden_run.get() : golden::TensorMap{}; };
  try {
    sim = o.iss ? run_on_iss(req) : run_on_systemc(req);
  } catch (const hw::TraceSelectError&) {
    wait_golden();
    throw;  // about the options, not the kernel: no GM map
  } catch (const Error& e) {
    wait_golden();
    // Faults give GM addresses; the case's map turns them into tensors.
    std::string map;
    for (const RegionSpec& r : req.regions)
      map += "\n  " + r.name + " [" + hex(r.base) + ", " + hex(r.base + r.bytes) + ")";
    throw Error(std::string(e.what()) + "\nGM tensors of the case:" + map);
  }
  const golden::TensorMap refs = wait_golden();
  RunResult res;
  res.warnings = sim.race_findings;
  std::map<std::string, std::string> golden_of;  // tensor -> golden output
  for (const auto& [gname, tname] : spec.golden.outputs) golden_of[tname] = gname;
  bool all_pass = true;
  nlohmann::json numerics = nlohmann::json::object();
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const CaseTensor& t = spec.tensors[i];
    if (t.role != TensorRole::Output) continue;
    golden::Tensor out(t.dtype, t.shape);
    gm.read(placement[i].base, out.bytes().data(), placement[i].bytes);
    OutputVerdict v;
    v.tensor = t.name;
    auto g = golden_of.find(t.name);
    if (g != golden_of.end() && !o.timing_only) {
      v.golden_output = g->second;
      v.compared = true;
      v.result = golden::compare(out, refs.at(g->second), spec.tolerance_for(t));
      res.references.emplace(t.name, refs.at(g->second));
      all_pass &= v.result.pass;
    }
    numerics[t.name] = verdict_json(v);
    res.verdicts.push_back(v);
    res.outputs.emplace(t.name, std::move(out));
  }
  res.exit_code = all_pass ? kExitPass : kExitCompareFail;

  // 4. Stats and report.
  nlohmann::json& s = res.stats;
  s["npusim_run"] = {{"case", o.case_path},
                     {"kernel", spec.kernel_path},
                     {"kernel_name", prog.name},
                     {"config", cfg_path},
                     {"config_overrides", o.sets},
                     {"var_overrides", o.vars},
                     {"mode", sim.mode},
                     {"race_check", check::race_mode_name(req.race)},
                     {"race_findings", sim.race_findings.size()},
                     {"block_dim", spec.block_dim},
                     {"description", spec.description}};
  s["clock_ghz"] = hw.chip.clock_ghz;
  if (sim.total_cycles) {
    s["total_cycles"] = *sim.total_cycles;
    s["time_us"] = static_cast<double>(*sim.total_cycles) / (hw.chip.clock_ghz * 1e3);
  } else {
    s["total_cycles"] = nullptr;
    s["time_us"] = nullptr;
  }
  s["cores"] = sim.cores;
  s["l2"] = sim.l2;
  s["hbm"] = sim.hbm;
  if (s["hbm"].is_object()) s["hbm"]["peak_gbps"] = hw.hbm.bandwidth_gbps;
  s["roofline"] = roofline_json(hw, spec.flops, sim);
  s["numerics"] = {{"all_pass", all_pass}, {"outputs", numerics}};
  nlohmann::json tensors = nlohmann::json::object();
  for (size_t i = 0; i < spec.tensors.size(); ++i) tensors[spec.tensors[i].name] = tensor_json(spec.tensors[i], placement[i]);
  s["tensors"] = tensors;
  if (sim.extra.is_object())  // the backend's other figures (noc, gm_ports, iss, ...) as they come
    for (auto it = sim.extra.begin(); it != sim.extra.end(); ++it)
      if (!s.contains(it.key())) s[it.key()] = it.value();
  res.report = format_report(s);

  // 5. Files.
  if (!o.out_dir.empty()) write_run_outputs(o.out_dir, res, hw::dump_resolved_yaml(hw));
  return res;
}

}  // namespace npu::cli
