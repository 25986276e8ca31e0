#pragma once
// The flagship kernels as test cases: each shape becomes a case file (docs/case-format.md) with
// inputs as pypto-gym draws them (x ~ U(-1, 1), weights ~ U(-0.1, 0.1), gamma/beta ~ U(-1, 1),
// all bf16 unless stated, one seed per tensor from `seed` up; eps 1e-6), run through the case
// pipeline users run (cli::run_parsed_case: placement, golden, comparison under the
// docs/numerics.md rule) on the ISS or the SystemC model. Outputs are kept so that two engines
// can be compared bit for bit (co-simulation).
#include <cstdint>
#include <string>
#include <vector>

#include "cli/lib/case_spec.h"
#include "cli/lib/run_result.h"
#include "hw/config/hw_config.h"
#include "hw/top/sim_stats.h"
#include "hw/top/trace_options.h"
#include "golden/compare.h"
#include "golden/tensor.h"
#include "testbench/support/repo_config.h"

namespace npu::test {

enum class Engine { Iss, SystemC };
const char* engine_name(Engine e);

struct KernelRunInfo {
  uint64_t cycles = 0;        // SystemC: total cycles; ISS: 0 (no time)
  uint64_t instructions = 0;  // ISS: steps; SystemC: retired instructions
  uint64_t macs = 0;          // SystemC only
  hw::SimStats stats;         // SystemC statistics
};

struct OutputCheck {
  std::string name;
  golden::Tensor got;                 // what the kernel wrote
  golden::CompareResult cmp;          // against the golden (when compared)
  bool compared = false;
  bool gating = true;                 // false: reported only, does not decide pass()
};

struct KernelOutcome {
  std::vector<OutputCheck> outputs;
  KernelRunInfo info;
  bool pass() const;                  // every compared output passes
  std::string report() const;         // one line per output (golden::format_result)
};

// True when the two runs wrote bit-identical outputs (same names, same bytes); otherwise
// *why names the first difference.
bool same_outputs(const KernelOutcome& a, const KernelOutcome& b, std::string* why);

// Appends output `name` (what the kernel wrote); compared with *ref under the default tolerance
// of its dtype when ref is given.
void add_output(KernelOutcome& out, const std::string& name, const golden::Tensor& got,
                const golden::Tensor* ref);

// The pieces the case texts are made of (also for quant_cases.cc): a tensor entry
// "{dtype: bf16, shape: [M, K], <rest>}", a uniform init (plants: the entries of its `plant`
// list, docs/case-format.md), and a run of kernels/<kernel>.s on a case body (params, tensors,
// golden) through the case pipeline (cli::run_parsed_case; timing_only: no inputs, no golden).
std::string tensor_yaml(const char* dtype, std::vector<int64_t> shape, const std::string& rest);
std::string uniform(double lo, double hi, uint64_t seed, const std::string& plants = "");
KernelOutcome run_case_text(Engine e, const hw::HwConfig& cfg, const std::string& kernel, int block_dim,
                            const std::string& body, bool timing_only);

// The same pieces for any kernel: a case of the kernel at `kernel_path` (a .s file; or set
// spec.program to a program built or changed in the test, kernel_path then only names it) with
// the GM layout of the baselines, run through the case pipeline (cli::run_parsed_case) with
// `trace` (SystemC) and the race mode `race` (cli::RunOptions::race; "" = its default).
cli::CaseSpec test_case(const std::string& kernel_path, int block_dim, const std::string& body);
cli::RunResult run_test_case(Engine e, const hw::HwConfig& cfg, const cli::CaseSpec& spec, bool timing_only,
                             const hw::TraceOptions& trace = {}, const std::string& race = "");

struct RmsNormCase {
  int64_t rows = 1, D = 512;
  int variant = 0;               // 0: rsqrt (A), 1: sqrt + div (B)
  bool has_gamma = true, has_beta = false, out_rstd = false;
  bool f16 = false;              // x / gamma / beta / y in fp16 instead of bf16
  float eps = 1e-6f;
  int block_dim = 1;
  uint64_t seed = 1;
  std::string name() const;      // "rows7_D512_rsqrt_gamma_bd2"
};
KernelOutcome run_rmsnorm(Engine e, const hw::HwConfig& cfg, const RmsNormCase& c);

struct LinearCase {
  int64_t M = 1, K = 512, N = 256;
  int block_dim = 1;
  uint64_t seed = 1;
  std::string name() const;      // "M7_K512_N256_bd2"
};
// With compare = false no golden is computed (big shapes); with timing_only the SystemC run
// skips the data effects (cycles only; outputs are then meaningless and not compared).
KernelOutcome run_linear(Engine e, const hw::HwConfig& cfg, const LinearCase& c, bool compare = true,
                         bool timing_only = false);

struct RmsNormLinearCase {
  int64_t M = 1, K = 512, N = 256;
  int variant = 0;
  float eps = 1e-6f;
  int block_dim = 1;
  uint64_t seed = 1;
  std::string name() const;
};
// A LinearCase or RmsNormLinearCase of shape M x K x N on block_dim cores (the rest as declared).
template <class GemmCase>
GemmCase gemm_case(int64_t M, int64_t K, int64_t N, int block_dim) {
  GemmCase c;
  c.M = M;
  c.K = K;
  c.N = N;
  c.block_dim = block_dim;
  return c;
}

// Outputs, all gating: "xn" (the bf16 workspace) against the golden's normed activations; "y"
// against golden::linear of the kernel's OWN xn (isolates the Linear stage); and "y_e2e" = y
// against the end-to-end golden (AT-10: out = Linear(bf16_rne(RMSNorm(x)))). The kernel's blocked
// fp32 sum of squares (kernels/rmsnorm_linear.s) keeps rstd within an ulp of the golden's, so
// bf16 flips in xn (which move near-zero outputs of y by more than rtol * |y|) stay rare.
KernelOutcome run_rmsnorm_linear(Engine e, const hw::HwConfig& cfg, const RmsNormLinearCase& c,
                                 bool compare = true, bool timing_only = false);

}  // namespace npu::test
