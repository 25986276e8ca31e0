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
#include <regex>
#include <utility>

#include "base/file_io.h"
#include "cli/lib/case_budget.h"
#include "cli/lib/case_data.h"
#include "cli/lib/case_spec.h"
#include "cli/lib/run_backend.h"
#include "cli/lib/progress.h"
#include "cli/lib/run_output.h"
#include "cli/lib/run_launches.h"
#include "cli/lib/run_report.h"
#include "hw/config/loader.h"
#include "hw/top/trace_options.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/object.h"
#include "isa/sem/nz_layout.h"
#include "isa/types.h"
#include "golden/registry.h"

namespace npu::cli {
namespace fs = std::filesystem;

namespace {

// Adds the kernel source line (and the macro invocations) to every "cluster0.aiv1 pc 12 (" of a
// fault or hang message: "cluster0.aiv1 pc 12 at kernels/lib/m.inc:63 (via kernels/x.s:70) (".
std::string with_source_lines(const std::string& msg, const isa::Program& prog) {
  static const std::regex at_pc(R"((cluster\d+\.(aic|aiv)\d*) pc (\d+) \()");
  std::string out;
  auto last = msg.cbegin();
  for (std::sregex_iterator it(msg.begin(), msg.end(), at_pc), end; it != end; ++it) {
    const std::smatch& m = *it;
    const isa::CoreType type = m[2] == "aic" ? isa::CoreType::Aic : isa::CoreType::Aiv;
    const std::string src = prog.where(type, static_cast<uint32_t>(std::stoul(m[3])));
    out.append(last, m[0].first);
    out += m[1].str() + " pc " + m[3].str() + (src.empty() ? "" : " at " + src) + " (";
    last = m[0].second;
  }
  out.append(last, msg.cend());
  return out;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Runs the golden on the initial tensors and reads the golden files: output tensor -> its
// reference. Shapes of the bound outputs are checked here, before any simulation.
// The golden's inputs are the initial tensors themselves, moved in and moved back when it ends
// (no copy of a large weight): the main thread leaves `initial` alone until the golden is done.
golden::TensorMap run_reference(const CaseSpec& spec, std::vector<golden::Tensor>* initial) {
  golden::TensorMap refs;
  for (const CaseTensor& t : spec.tensors)
    if (!t.golden_file.empty()) refs[t.name] = read_golden_file(t);
  if (!spec.golden.present) return refs;
  golden::TensorMap inputs;
  std::vector<std::pair<size_t, std::string>> moved;  // index in `initial` -> the input holding it
  for (const auto& [gname, tname] : spec.golden.inputs)
    for (size_t i = 0; i < spec.tensors.size(); ++i) {
      if (spec.tensors[i].name != tname) continue;
      auto held = std::find_if(moved.begin(), moved.end(), [&](const auto& m) { return m.first == i; });
      if (held != moved.end()) {
        inputs[gname] = inputs.at(held->second);  // a second golden input of the same tensor
      } else {
        inputs[gname] = std::move((*initial)[i]);
        moved.emplace_back(i, gname);
      }
    }
  struct GiveBack {  // runs before `inputs` dies, also when the golden throws
    std::vector<golden::Tensor>* initial;
    golden::TensorMap* inputs;
    const std::vector<std::pair<size_t, std::string>>* moved;
    ~GiveBack() {
      for (const auto& [i, gname] : *moved) (*initial)[i] = std::move(inputs->at(gname));
    }
  } give_back{initial, &inputs, &moved};
  golden::TensorMap produced;
  try {
    produced = golden::run_golden(spec.golden.name, spec.golden.attrs, inputs);
  } catch (const Error& e) {
    throw Error(spec.golden.loc.str() + ": error: golden: " + e.what());
  }
  std::vector<std::string> errors;
  for (const auto& [gname, tname] : spec.golden.outputs) {
    auto it = produced.find(gname);
    const CaseTensor& t = *spec.tensor(tname);
    if (it == produced.end()) {
      errors.push_back(spec.golden.output_locs.at(gname).str() + ": error: golden.outputs." + gname +
                       ": golden '" + spec.golden.name + "' did not produce '" + gname + "'");
    } else if (it->second.shape() != t.shape) {
      errors.push_back(spec.golden.output_locs.at(gname).str() + ": error: golden.outputs." + gname +
                       ": the golden gives " + it->second.describe() + " but tensor '" + tname + "' is " +
                       std::string(isa::dtype_name(t.dtype)) + golden::shape_str(t.shape));
    } else {
      refs[tname] = it->second;
    }
  }
  if (!errors.empty()) {
    std::string all;
    for (size_t i = 0; i < errors.size(); ++i) all += (i ? "\n" : "") + errors[i];
    throw Error(all);
  }
  return refs;
}

TensorRecord tensor_record(const CaseTensor& t, const TensorPlacement& p) {
  TensorRecord r{t.name, t.dtype, t.shape, role_name(t.role), p.base, p.bytes, t.cache, ""};
  if (has_initial_contents(t)) r.init = t.init.describe();
  return r;
}

}  // namespace

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

// --kernel / --block-dim: the launch of the case with another kernel file or grid.
void apply_launch_overrides(CaseSpec& spec, const RunOptions& o) {
  if (!o.kernel_path.empty()) {
    try {
      check_input_file(o.kernel_path, std::max(isa::kMaxSourceFileBytes, isa::kMaxObjectFileBytes));
    } catch (const InputFileError& e) {
      throw Error("--kernel " + o.kernel_path + ": error: cannot read it: " + e.reason);
    }
    spec.kernel_path = o.kernel_path;
  }
  if (o.block_dim < 0 || o.block_dim > 1000000)
    throw Error("--block-dim " + std::to_string(o.block_dim) + ": error: expected 1..1000000");
  if (o.block_dim > 0) spec.block_dim = o.block_dim;
}

namespace {

// The options that contradict each other, and usable output directories, before any work.
void check_run_options(const RunOptions& o) {
  if (o.timing_only && o.iss) throw Error("--timing-only needs the SystemC model (not --iss)");
  if (o.timing_only && !o.race.empty() && o.race != "off")
    throw Error("--timing-only runs without data effects, so the race checker cannot run (--race " + o.race + ")");
  if (!o.out_dir.empty()) check_output_dir(o.out_dir);
  if (!o.dump_inputs_dir.empty()) {
    if (o.timing_only) throw Error("--dump-inputs: --timing-only generates no inputs");
    check_output_dir(o.dump_inputs_dir, kInputsIndex);
  }
}

}  // namespace

RunResult run_case(const RunOptions& o) { return run_case_spec(parse_case_file(o.case_path, o.vars), o); }

RunResult run_case_spec(CaseSpec spec, const RunOptions& o) {
  // 1. Case, options, config (the kernel in run_parsed_case).
  mark_phase(o.host_phases, "config");
  apply_cache_overrides(spec, o.caches);
  apply_launch_overrides(spec, o);
  check_run_options(o);
  const std::string cfg_path = resolve_config_path(o.config_path);
  return run_parsed_case(std::move(spec), hw::load_config(cfg_path, o.sets), cfg_path, o);
}

namespace {

// A tensor's logical (ND) values into GM in its layout there (CaseTensor::format). NZ: in the
// pieces of sem::nd_to_nz_pieces, so no copy of the whole tensor is made and the ND rows are read
// in order (block by block, a block's gather strode over every row of the tensor).
void write_tensor(sem::GlobalMemory& gm, const TensorPlacement& p, const CaseTensor& t, const golden::Tensor& v) {
  if (t.format == isa::GmFormat::Nd) return gm.write(p.base, v.bytes().data(), p.bytes);
  sem::nd_to_nz_pieces(v.bytes().data(), t.rows(), t.row_bytes(),
                       [&](uint64_t off, const uint8_t* piece, uint64_t n) { gm.write(p.base + off, piece, n); });
}

golden::Tensor read_tensor(const sem::GlobalMemory& gm, const TensorPlacement& p, const CaseTensor& t) {
  golden::Tensor out(t.dtype, t.shape);
  if (t.format == isa::GmFormat::Nd) {
    gm.read(p.base, out.bytes().data(), p.bytes);
  } else {
    std::vector<uint8_t> nz(p.bytes);
    gm.read(p.base, nz.data(), p.bytes);
    sem::nz_to_nd(nz.data(), t.rows(), t.row_bytes(), out.bytes().data());
  }
  return out;
}

}  // namespace

RunResult run_parsed_case(CaseSpec spec, const hw::HwConfig& hw, const std::string& cfg_path,
                          const RunOptions& o) {
  check_run_options(o);  // again for callers that come here directly
  if (spec.block_dim > hw.chip.clusters)
    throw Error(spec.block_dim_loc.str() + ": error: block_dim: " + std::to_string(spec.block_dim) +
                " exceeds chip.clusters = " + std::to_string(hw.chip.clusters) + " of " + cfg_path);
  mark_phase(o.host_phases, "kernel");
  isa::Program prog = load_case_kernel(spec, hw);

  // 2. GM layout (checked against the GM and the host before anything is allocated), inputs, golden.
  std::vector<TensorPlacement> placement = place_tensors(spec, hw.l2.line);
  check_case_fits(spec, placement, hw, cfg_path);
  // The note is about generating the tensors and running the golden: a timing-only run does neither.
  if (const std::string note = o.timing_only ? "" : expensive_case_note(spec); !note.empty())
    std::cerr << note << std::endl;
  auto phase = [&](const char* name) {
    if (o.progress) o.progress->phase(name);
    mark_phase(o.host_phases, name);
  };
  phase("inputs");
  std::vector<golden::Tensor> initial;  // none with --timing-only: GM contents do not matter
  if (!o.timing_only) initial = make_initial_tensors(spec);
  std::vector<int64_t> params = kernel_param_values(spec, prog, placement);
  mark_phase(o.host_phases, "inputs into GM");
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
    if (!o.timing_only) write_tensor(gm, p, t, initial[i]);
    req.regions.push_back(RegionSpec{t.name, p.base, p.bytes, t.cache});
  }
  // The golden runs beside the simulation on the initial tensors (moved to its thread and back:
  // `initial` is not touched again before wait_golden).
  std::future<golden::TensorMap> golden_run;
  if (!o.timing_only) golden_run = std::async(std::launch::async, run_reference, std::cref(spec), &initial);
  req.hw = &hw;
  req.program = &prog;
  req.gm = &gm;
  req.params = params;
  req.block_dim = spec.block_dim;
  req.trace = o.trace;
  req.timing_only = o.timing_only;
  req.host_phases = o.host_phases;
  req.keep_model_at_exit = o.process_ends_after;
  if (o.progress) {
    req.progress = [p = o.progress](const hw::RunProgress& r) { p->simulated(r); };
    req.launch_started = [p = o.progress](size_t k, size_t n) { p->launch(k, n); };
  }
  req.race = o.race.empty() ? (o.iss ? check::RaceMode::Error : check::RaceMode::Off) : check::parse_race_mode(o.race);
  if (o.iss && o.trace.writes_files()) throw Error("--vcd, --trace and --instr-csv need the SystemC model (not --iss)");
  // Per-label statistics whenever the kernel has semantic labels (stats.json "labels").
  req.trace.label_stats = !prog.aic.labels.empty() || !prog.aiv.labels.empty();

  // 3. Simulate, read back, compare.
  SimOutcome sim;
  phase("simulation");
  // A golden error comes first, as when the golden ran before the simulation.
  auto wait_golden = [&] { return golden_run.valid() ? golden_run.get() : golden::TensorMap{}; };
  try {
    sim = !spec.launches.empty() ? run_launches(spec, req, placement, o.iss)
          : o.iss                ? run_on_iss(req)
                                 : run_on_systemc(req);
  } catch (const hw::TraceSelectError&) {
    wait_golden();
    throw;  // about the options, not the kernel: no GM map
  } catch (const Error& e) {
    wait_golden();
    // Faults give GM addresses; the case's map turns them into tensors.
    std::string map;
    for (const RegionSpec& r : req.regions)
      map += "\n  " + r.name + " [" + hex(r.base) + ", " + hex(r.base + r.bytes) + ")";
    throw Error(with_source_lines(e.what(), prog) + "\nGM tensors of the case:" + map);
  }
  phase("golden");
  const golden::TensorMap refs = wait_golden();
  phase("compare");
  RunResult res;
  res.warnings = sim.race_findings;
  std::map<std::string, std::string> golden_of;  // tensor -> what its reference is
  for (const auto& [gname, tname] : spec.golden.outputs) golden_of[tname] = gname;
  for (const CaseTensor& t : spec.tensors)
    if (!t.golden_file.empty()) golden_of[t.name] = "file " + t.golden_file;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const CaseTensor& t = spec.tensors[i];
    res.tensors.push_back(tensor_record(t, placement[i]));
    if (!o.timing_only && has_initial_contents(t)) res.inputs.emplace(t.name, std::move(initial[i]));
    if (t.role != TensorRole::Output || o.timing_only) continue;  // --timing-only: nothing to judge
    golden::Tensor out = read_tensor(gm, placement[i], t);
    OutputVerdict v;
    v.tensor = t.name;
    auto g = golden_of.find(t.name);
    if (g != golden_of.end()) {
      v.golden_output = g->second;
      v.compared = true;
      v.result = golden::compare(out, refs.at(t.name), spec.tolerance_for(t));
      res.references.emplace(t.name, refs.at(t.name));
    }
    res.verdicts.push_back(v);
    res.outputs.emplace(t.name, std::move(out));
  }
  res.exit_code = o.timing_only ? kExitPass : verdict_exit_code(res.verdict());

  // 4. What was run, the roofline.
  res.info = RunInfo{spec.path, spec.kernel_path, prog.name, spec.description, cfg_path, o.sets, o.vars, o.caches,
                     o.command_line, o.iss ? Backend::Iss : Backend::SystemC, check::race_mode_name(req.race),
                     spec.block_dim};
  res.hbm_peak_gbps = hw.hbm.bandwidth_gbps;
  res.roofline = compute_roofline(hw, spec.flops, sim.stats);
  res.sim = std::move(sim.stats);
  res.launches = std::move(sim.launches);
  res.l2_cold_between_launches = spec.l2_cold_between_launches;

  // 5. Files.
  phase("writing outputs");
  if (!o.out_dir.empty()) write_run_outputs(o.out_dir, res, hw::dump_resolved_yaml(hw));
  if (!o.dump_inputs_dir.empty()) write_run_inputs(o.dump_inputs_dir, res);
  return res;
}

}  // namespace npu::cli
