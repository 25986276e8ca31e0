#include "testbench/support/kernel_cases.h"

#include <fmt/format.h>

#include "cli/lib/case_data.h"
#include "cli/lib/case_spec.h"
#include "cli/lib/run_case.h"
#include "golden/golden.h"
#include "testbench/support/paths.h"

namespace npu::test {

using golden::Tensor;
using num::Dtype;

bool KernelOutcome::pass() const {
  for (const auto& o : outputs)
    if (o.compared && o.gating && !o.cmp.pass) return false;
  return true;
}

std::string KernelOutcome::report() const {
  std::string s;
  for (const auto& o : outputs)
    s += o.compared ? golden::format_result(o.name, o.cmp) + (o.gating ? "\n" : " (not gating)\n")
                    : o.name + ": not compared\n";
  return s;
}

bool same_outputs(const KernelOutcome& a, const KernelOutcome& b, std::string* why) {
  if (a.outputs.size() != b.outputs.size()) {
    *why = "different number of outputs";
    return false;
  }
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const auto& x = a.outputs[i].got;
    const auto& y = b.outputs[i].got;
    if (a.outputs[i].name != b.outputs[i].name || x.bytes().size() != y.bytes().size()) {
      *why = "output " + a.outputs[i].name + ": different name or size";
      return false;
    }
    for (int64_t e = 0; e < x.numel(); ++e) {
      if (x.bits(e) != y.bits(e)) {
        *why = "output " + a.outputs[i].name + ": element " + std::to_string(e) + " differs (" +
               std::to_string(x.get(e)) + " vs " + std::to_string(y.get(e)) + ")";
        return false;
      }
    }
  }
  return true;
}

void add_output(KernelOutcome& out, const std::string& name, const Tensor& got, const Tensor* ref) {
  OutputCheck o;
  o.name = name;
  o.got = got;
  if (ref) {
    o.cmp = golden::compare(got, *ref);
    o.compared = true;
  }
  out.outputs.push_back(std::move(o));
}

namespace {

// A float parameter as a case writes it: a float literal (9 significant digits read back as
// the same fp32).
std::string float_text(float f) { return fmt::format("{:.8e}", f); }

}  // namespace

std::string RmsNormCase::name() const {
  std::string s = "rows" + std::to_string(rows) + "_D" + std::to_string(D) +
                  (variant == 0 ? "_rsqrt" : "_sqrtdiv");
  if (has_gamma) s += "_gamma";
  if (has_beta) s += "_beta";
  if (out_rstd) s += "_rstd";
  if (f16) s += "_f16";
  return s + "_bd" + std::to_string(block_dim);
}

std::string LinearCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) + "_bd" +
         std::to_string(block_dim);
}

std::string RmsNormLinearCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) +
         (variant == 0 ? "_rsqrt" : "_sqrtdiv") + "_bd" + std::to_string(block_dim);
}

namespace {

// The exact cycle baselines (testbench/kernels/cycle_baseline.yaml) were taken with the tensors
// at 64 KiB boundaries from 0x10000, back to back (docs/case-format.md "GM layout").
constexpr const char* kTestLayout = "gm_layout: {first: 65536, align: 65536, guard: 0}\n";

// A case file (kernels/cases/*.yaml style) for kernels/<kernel>.s, through the strict case parser.
cli::CaseSpec parse_test_case(const std::string& kernel, int block_dim, const std::string& body) {
  return test_case(source_path("kernels/" + kernel + ".s"), block_dim, body);
}

// Every output of the run in case order, with its verdict; the run's figures.
KernelOutcome outcome_of(const cli::RunResult& r) {
  KernelOutcome out;
  for (const cli::OutputVerdict& v : r.verdicts) {
    OutputCheck o;
    o.name = v.tensor;
    o.got = r.outputs.at(v.tensor);
    o.cmp = v.result;
    o.compared = v.compared;
    out.outputs.push_back(std::move(o));
  }
  KernelRunInfo& info = out.info;
  info.cycles = r.sim.total_cycles.value_or(0);
  info.instructions = r.sim.iss_steps ? *r.sim.iss_steps : r.sim.instructions();
  info.macs = r.sim.macs();
  info.stats = r.sim;
  return out;
}

}  // namespace

const char* engine_name(Engine e) { return e == Engine::Iss ? "iss" : "systemc"; }

cli::CaseSpec test_case(const std::string& kernel_path, int block_dim, const std::string& body) {
  const std::string text = fmt::format("kernel: {}\nblock_dim: {}\n{}{}", kernel_path, block_dim, kTestLayout, body);
  return cli::parse_case_string(text, kernel_path + " test case", source_dir());
}

// The case pipeline users run (cli::run_parsed_case) on cfg. timing_only: no inputs, no golden
// (the SystemC model without data effects).
cli::RunResult run_test_case(Engine e, const hw::HwConfig& cfg, const cli::CaseSpec& spec, bool timing_only,
                             const hw::TraceOptions& trace, const std::string& race) {
  cli::RunOptions o;
  o.iss = e == Engine::Iss;
  o.timing_only = timing_only;
  o.trace = trace;
  o.race = race;
  return cli::run_parsed_case(spec, cfg, cfg.chip.name + " (test config)", o);
}

std::string tensor_yaml(const char* dtype, std::vector<int64_t> shape, const std::string& rest) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  return fmt::format("{{dtype: {}, shape: [{}], {}}}", dtype, dims, rest);
}

std::string uniform(double lo, double hi, uint64_t seed, const std::string& plants) {
  return fmt::format("init: {{uniform: [{}, {}], seed: {}{}}}", lo, hi, seed,
                     plants.empty() ? "" : ", plant: [" + plants + "]");
}

KernelOutcome run_case_text(Engine e, const hw::HwConfig& cfg, const std::string& kernel, int block_dim,
                            const std::string& body, bool timing_only) {
  return outcome_of(run_test_case(e, cfg, parse_test_case(kernel, block_dim, body), timing_only));
}

KernelOutcome run_rmsnorm(Engine e, const hw::HwConfig& cfg, const RmsNormCase& c) {
  const char* dt = c.f16 ? "f16" : "bf16";
  std::string body = fmt::format(
      "params: {{rows: {}, D: {}, eps: {}, variant: {}, has_gamma: {}, has_beta: {}, out_rstd: {}, is_f16: {}{}{}{}}}\n",
      c.rows, c.D, float_text(c.eps), c.variant, int(c.has_gamma), int(c.has_beta), int(c.out_rstd), int(c.f16),
      c.has_gamma ? "" : ", gamma: 0", c.has_beta ? "" : ", beta: 0", c.out_rstd ? "" : ", rstd: 0");
  body += "tensors:\n  x: " + tensor_yaml(dt, {c.rows, c.D}, uniform(-1, 1, c.seed)) + "\n";
  if (c.has_gamma) body += "  gamma: " + tensor_yaml(dt, {c.D}, uniform(-1, 1, c.seed + 1)) + "\n";
  if (c.has_beta) body += "  beta: " + tensor_yaml(dt, {c.D}, uniform(-1, 1, c.seed + 2)) + "\n";
  body += "  y: " + tensor_yaml(dt, {c.rows, c.D}, "role: output") + "\n";
  if (c.out_rstd) body += "  rstd: " + tensor_yaml("f32", {c.rows, 1}, "role: output") + "\n";
  body += fmt::format("golden: {{name: rmsnorm, eps: {}, has_gamma: {}, has_bias: {}, output_rstd: {}, variant: {},\n",
                      float_text(c.eps), c.has_gamma, c.has_beta, c.out_rstd, c.variant == 0 ? "rsqrt" : "sqrt_div");
  body += std::string("         inputs: {x: x") + (c.has_gamma ? ", gamma: gamma" : "") + (c.has_beta ? ", beta: beta" : "") +
          "}, outputs: {out: y" + (c.out_rstd ? ", rstd: rstd" : "") + "}}\n";
  return run_case_text(e, cfg, "rmsnorm", c.block_dim, body, false);
}

KernelOutcome run_linear(Engine e, const hw::HwConfig& cfg, const LinearCase& c, bool compare,
                         bool timing_only) {
  std::string body = fmt::format("params: {{M: {}, K: {}, N: {}}}\ntensors:\n", c.M, c.K, c.N);
  body += "  x: " + tensor_yaml("bf16", {c.M, c.K}, uniform(-1, 1, c.seed)) + "\n";
  body += "  w: " + tensor_yaml("bf16", {c.N, c.K}, uniform(-0.1, 0.1, c.seed + 1)) + "\n";
  body += "  y: " + tensor_yaml("bf16", {c.M, c.N}, "role: output") + "\n";
  if (compare) body += "golden: {name: linear, inputs: {x: x, w: w}, outputs: {out: y}}\n";
  return run_case_text(e, cfg, "linear", c.block_dim, body, timing_only);
}

KernelOutcome run_rmsnorm_linear(Engine e, const hw::HwConfig& cfg, const RmsNormLinearCase& c,
                                 bool compare, bool timing_only) {
  std::string body = fmt::format("params: {{M: {}, K: {}, N: {}, eps: {}, variant: {}}}\ntensors:\n", c.M, c.K,
                                 c.N, float_text(c.eps), c.variant);
  body += "  x: " + tensor_yaml("bf16", {c.M, c.K}, uniform(-1, 1, c.seed)) + "\n";
  body += "  gamma: " + tensor_yaml("bf16", {c.K}, uniform(-1, 1, c.seed + 1)) + "\n";
  body += "  w: " + tensor_yaml("bf16", {c.N, c.K}, uniform(-0.1, 0.1, c.seed + 2)) + "\n";
  body += "  y: " + tensor_yaml("bf16", {c.M, c.N}, "role: output") + "\n";
  body += "  xn: " + tensor_yaml("bf16", {c.M, c.K}, "role: output") + "\n";
  if (compare)
    body += fmt::format("golden: {{name: rmsnorm_linear, eps: {}, has_gamma: true, variant: {},\n"
                        "         inputs: {{x: x, gamma: gamma, w: w}}, outputs: {{out: y, normed: xn}}}}\n",
                        float_text(c.eps), c.variant == 0 ? "rsqrt" : "sqrt_div");
  const cli::CaseSpec spec = parse_test_case("rmsnorm_linear", c.block_dim, body);
  const cli::RunResult r = run_test_case(e, cfg, spec, timing_only);
  KernelOutcome out = outcome_of(r);
  if (timing_only || !compare) return out;
  // y is judged against the end-to-end golden ("y_e2e") and, to isolate the Linear stage,
  // against golden::linear of the kernel's OWN xn ("y"), with the case's own w.
  OutputCheck& e2e = out.outputs[0];
  e2e.name = "y_e2e";
  const Tensor y_of_xn = golden::linear(r.outputs.at("xn"), cli::make_initial_tensor(*spec.tensor("w")), nullptr);
  KernelOutcome first;
  add_output(first, "y", r.outputs.at("y"), &y_of_xn);
  out.outputs.insert(out.outputs.begin(), std::move(first.outputs[0]));
  std::swap(out.outputs[1], out.outputs[2]);  // y, xn, y_e2e
  return out;
}

}  // namespace npu::test
