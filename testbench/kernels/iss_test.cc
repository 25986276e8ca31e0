// Quick tier: the flagship kernels (kernels/*.s) on the functional ISS against the goldens,
// on configs/tiny.yaml (2 clusters) with block_dim 2 so that rows / blocks are split over
// several cores with tails. The full shape grid is in grid_long_test.cc.
#include <gtest/gtest.h>

#include "hw/config/hw_config.h"
#include "isa/error.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

// ---------------------------------------------------------------- rmsnorm
class RmsNormIss : public ::testing::TestWithParam<RmsNormCase> {};

TEST_P(RmsNormIss, MatchesGolden) {
  const RmsNormCase& c = GetParam();
  KernelOutcome r = run_rmsnorm(Engine::Iss, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}

RmsNormCase rms(int64_t rows, int64_t d, int variant, bool gamma, bool beta, bool rstd, int bd,
                bool f16 = false) {
  RmsNormCase c;
  c.rows = rows;
  c.D = d;
  c.variant = variant;
  c.has_gamma = gamma;
  c.has_beta = beta;
  c.out_rstd = rstd;
  c.block_dim = bd;
  c.f16 = f16;
  c.seed = uint64_t(rows * 1000003 + d * 31 + variant);
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Quick, RmsNormIss,
    ::testing::Values(rms(7, 512, 0, true, false, false, 2),      // 7 rows over 4 AIVs
                      rms(16, 1024, 1, false, false, true, 2),    // variant B, no gamma
                      rms(300, 512, 0, true, true, true, 2),      // several tiles per AIV + tail
                      rms(3, 16384, 1, true, true, true, 2),      // 4 chunks per row, an idle AIV
                      rms(5, 4144, 0, true, false, true, 1),      // 2 chunks, short last chunk
                      rms(1, 7168, 1, true, false, false, 1),     // one row, 2 chunks
                      rms(9, 768, 0, true, true, true, 2, true),  // fp16
                      // widths not a multiple of 128: padded row pitch, tail before the blocks
                      rms(6, 1040, 0, true, true, true, 2),       // b = 32: 32 blocks + tail 16
                      rms(5, 48, 1, true, false, true, 2),        // b = 16: 3 blocks, pitch 128
                      rms(2, 4112, 0, true, false, true, 1)),     // 4096 + a tail-only chunk of 16
    [](const auto& info) { return info.param.name(); });

// ---------------------------------------------------------------- linear
class LinearIss : public ::testing::TestWithParam<LinearCase> {};

TEST_P(LinearIss, MatchesGolden) {
  const LinearCase& c = GetParam();
  KernelOutcome r = run_linear(Engine::Iss, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}

LinearCase lin(int64_t m, int64_t k, int64_t n, int bd) {
  LinearCase c = gemm_case<LinearCase>(m, k, n, bd);
  c.seed = uint64_t(m * 7919 + k * 13 + n);
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Quick, LinearIss,
    ::testing::Values(lin(1, 512, 256, 2),      // one row; nB 128: one block per AIC
                      lin(7, 1024, 256, 2),     // M tail; two L1 chunks per block
                      lin(16, 4096, 256, 2),    // the decode shape, narrow N
                      lin(128, 512, 256, 2),    // one full 128-row block
                      lin(300, 512, 272, 2),    // 3 row blocks (last 44 rows) x 2 col blocks (N tail)
                      lin(130, 7168, 48, 1)),   // K with a short last chunk, single AIC
    [](const auto& info) { return info.param.name(); });

// ---------------------------------------------------------------- rmsnorm + linear
class RmsNormLinearIss : public ::testing::TestWithParam<RmsNormLinearCase> {};

TEST_P(RmsNormLinearIss, MatchesGolden) {
  const RmsNormLinearCase& c = GetParam();
  KernelOutcome r = run_rmsnorm_linear(Engine::Iss, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}

RmsNormLinearCase rl(int64_t m, int64_t k, int64_t n, int variant, int bd) {
  RmsNormLinearCase c = gemm_case<RmsNormLinearCase>(m, k, n, bd);
  c.variant = variant;
  c.seed = uint64_t(m * 104729 + k * 17 + n + variant);
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Quick, RmsNormLinearIss,
    ::testing::Values(rl(7, 512, 256, 0, 2),     // fewer rows than AIVs' share
                      rl(16, 1024, 256, 1, 2),   // variant B
                      rl(300, 512, 256, 0, 2),   // several row blocks on the AIC side
                      rl(3, 7168, 64, 1, 1),     // chunked rows on the AIV side
                      rl(1, 4080, 256, 0, 2),    // padded pitch 4096: 63 blocks + tail 48
                      rl(2, 2064, 128, 1, 2)),   // padded pitch 2560: 32 blocks + tail 16
    [](const auto& info) { return info.param.name(); });

// The test cases' path itself: a wrong parameter name is reported, not silently ignored.
TEST(KernelCases, UnknownParameterIsAnError) {
  const std::string body = "params: {M: 1, K: 16, N: 16, bogus: 1}\ntensors:\n  x: " +
                           tensor_yaml("bf16", {1, 16}, "init: zeros") + "\n  w: " +
                           tensor_yaml("bf16", {16, 16}, "init: zeros") + "\n  y: " +
                           tensor_yaml("bf16", {1, 16}, "role: output") + "\n";
  try {
    run_case_text(Engine::Iss, tiny_config(), "linear", 1, body, false);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("params.bogus: kernel 'linear' has no parameter 'bogus'"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace npu::test
