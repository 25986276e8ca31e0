// Long tier: seed sweeps of rmsnorm_linear (AT-10) at widths K that are not multiples of 128,
// where the RMSNorm sum of squares needs a padded row pitch and a tail (docs/kernels.md section
// 2). The end-to-end check (y against Linear(bf16(RMSNorm(x)))) is the sensitive one: one bf16
// element of xn rounded the other way moves ~1 % of y out of tolerance, so it fails whenever the
// kernel's rstd strays from the golden's by more than an ulp or so on an unlucky element.
// M = 1, N = 1536 as in the issue that added the sweep; functional ISS (SystemC is bit-identical,
// cosim_test.cc), configs/tiny.yaml, block_dim 2.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

// K, variant (0 rsqrt, 1 sqrt + div), seeds 1..n
using Sweep = std::tuple<int64_t, int, int>;

// The seeds whose end-to-end check fails for the reason given below INSTANTIATE (variant A's
// rstd an ulp from the golden's on an unlucky element), by K and variant; every other seed must
// pass, and these must still fail (so the list is updated when the kernel changes).
std::string known_e2e_failures(int64_t k, int variant) {
  if (k == 4080 && variant == 0) return " 57";  // 9 bad of 8 allowed in y_e2e; y and xn pass
  return "";
}

class RmsNormWidthSweep : public ::testing::TestWithParam<Sweep> {};

TEST_P(RmsNormWidthSweep, EndToEndPassesForEverySeed) {
  const auto [k, variant, seeds] = GetParam();
  int failed = 0;
  std::string which, failed_seeds;
  for (int s = 1; s <= seeds; ++s) {
    RmsNormLinearCase c;
    c.M = 1;
    c.K = k;
    c.N = 1536;
    c.variant = variant;
    c.block_dim = 2;
    c.seed = uint64_t(s);
    KernelOutcome r = run_rmsnorm_linear(Engine::Iss, tiny_config(), c);
    if (!r.pass()) {
      ++failed;
      failed_seeds += " " + std::to_string(s);
      which += "\nseed " + std::to_string(s) + ":\n" + r.report();
    }
  }
  std::printf("[sweep] K=%lld variant %d: %d of %d seeds fail\n", static_cast<long long>(k),
              variant, failed, seeds);
  EXPECT_EQ(failed_seeds, known_e2e_failures(k, variant)) << which;
}

// Every sweep must pass on every seed but the known ones above. Variant B (vsqrt + vdiv) computes rstd from the sum
// operation for operation as the golden does, so only the summation order differs. Variant A
// also differs in rstd itself (the golden's rsqrt is correctly rounded, the ISA's vrsqrt is
// 1 / sqrt with two fp32 roundings, an ulp apart on about a third of rows), which alone can fail
// an unlucky seed: rmsnorm_linear.yaml --var K=4080 --var M=1 --var SEED=57 does (9 bad of 8
// allowed), as does K=4096 SEED=88 where the summation never changed. Since the kernel tests
// generate their inputs as the case files do (one seed per tensor), seed 57 of the K = 4080
// variant A sweep is that very input.
// Widths: tails only (16, 48), padded pitch with b = 32 (1040) and b = 64 (2064, 4080), and
// chunked rows with a short last chunk (4112 = 4096 + 16, 8208 = 2 x 4096 + 16).
INSTANTIATE_TEST_SUITE_P(
    Long, RmsNormWidthSweep,
    ::testing::Values(Sweep{4080, 1, 100}, Sweep{2064, 1, 25}, Sweep{1040, 1, 25},
                      Sweep{16, 1, 25}, Sweep{48, 1, 25}, Sweep{4112, 1, 10},
                      Sweep{8208, 1, 5}, Sweep{4080, 0, 100}, Sweep{2064, 0, 25}),
    [](const auto& info) {
      return "K" + std::to_string(std::get<0>(info.param)) +
             (std::get<1>(info.param) == 0 ? "_rsqrt" : "_sqrtdiv");
    });

}  // namespace
}  // namespace npu::test
