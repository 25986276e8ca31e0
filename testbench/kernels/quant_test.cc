// Quick tier: the quantisation kernels (kernels/quant_int8.s AT-05, kernels/dequant.s AT-06) on
// configs/tiny.yaml. On the functional ISS against the goldens (rows split over 4 AIVs with
// tails, chunked rows, widths that are not multiples of 32, the special rows of
// quant_cases.h: amax = 0, one huge element, tiny-amax saturation, +-amax), and on the SystemC
// model bit-identical to the ISS and never below the lower bound. The full grid on the SystemC
// model is quant_grid_long_test.cc.
#include <gtest/gtest.h>

#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "hw/config/hw_config.h"
#include "testbench/support/paths.h"
#include "testbench/support/quant_cases.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {
namespace {

QuantCase qc(int64_t m, int64_t k, bool f32, int bd) { return {m, k, f32, true, bd, uint64_t(m * 7919 + k)}; }
DequantCase dc(int64_t m, int64_t n, bool bias, int bd) { return {m, n, bias, bd, uint64_t(m * 7919 + n)}; }

// ---------------------------------------------------------------- quant_int8 on the ISS
class QuantIss : public ::testing::TestWithParam<QuantCase> {};

TEST_P(QuantIss, MatchesGolden) {
  const QuantCase& c = GetParam();
  KernelOutcome r = run_quant_int8(Engine::Iss, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
  // The golden comparison allows one int8 step; the kernel is exact.
  EXPECT_EQ(r.outputs[0].cmp.max_abs_err, 0.0) << c.name() << "\n" << r.report();
  EXPECT_EQ(r.outputs[1].cmp.max_abs_err, 0.0) << c.name() << "\n" << r.report();
}

INSTANTIATE_TEST_SUITE_P(
    Quick, QuantIss,
    ::testing::Values(qc(16, 512, false, 2),     // every special row, 4 rows per AIV
                      qc(16, 1000, true, 2),     // fp32, width not a multiple of 32
                      qc(13, 16384, false, 2),   // 4 chunks per row: two passes
                      qc(7, 4097, true, 1),      // 2 chunks, a 1-column last chunk
                      qc(300, 512, false, 2),    // several tiles per AIV, tails
                      qc(3, 100, true, 2),       // an idle AIV
                      qc(1, 7168, false, 1)),    // one row, 2 chunks
    [](const auto& info) { return info.param.name(); });

// ---------------------------------------------------------------- dequant on the ISS
class DequantIss : public ::testing::TestWithParam<DequantCase> {};

TEST_P(DequantIss, MatchesGolden) {
  const DequantCase& c = GetParam();
  KernelOutcome r = run_dequant(Engine::Iss, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
  EXPECT_EQ(r.outputs[0].cmp.max_abs_err, 0.0) << c.name() << "\n" << r.report();  // bit-exact
}

INSTANTIATE_TEST_SUITE_P(
    Quick, DequantIss,
    ::testing::Values(dc(7, 256, true, 2),       // rows over 4 AIVs with tails
                      dc(16, 1536, false, 2),    // no bias
                      dc(300, 256, true, 2),     // several tiles per AIV
                      dc(2, 9000, true, 1),      // 3 column chunks: per-chunk w_scale / bias
                      dc(5, 100, false, 2)),     // width not a multiple of 32, an idle AIV
    [](const auto& info) { return info.param.name(); });

// ---------------------------------------------------------------- SystemC vs ISS
template <class Case>
void expect_cosim(const KernelOutcome& iss, const KernelOutcome& sc, const Case& c) {
  EXPECT_TRUE(iss.pass()) << c.name() << " (iss)\n" << iss.report();
  EXPECT_TRUE(sc.pass()) << c.name() << " (systemc)\n" << sc.report();
  std::string why;
  EXPECT_TRUE(same_outputs(iss, sc, &why)) << c.name() << ": " << why;
  const PerfBound lb = lower_bound(tiny_config(), c);
  EXPECT_GE(double(sc.info.cycles), lb.cycles()) << c.name() << ": below the lower bound";
  std::printf("[cosim] %s: %llu cycles on tiny (lower bound %.0f)\n", c.name().c_str(),
              static_cast<unsigned long long>(sc.info.cycles), lb.cycles());
}

TEST(QuantCosim, Bf16Chunked) {
  QuantCase c = qc(13, 8200, false, 2);
  expect_cosim(run_quant_int8(Engine::Iss, tiny_config(), c), run_quant_int8(Engine::SystemC, tiny_config(), c), c);
}

TEST(QuantCosim, F32Tiles) {
  QuantCase c = qc(40, 1000, true, 2);
  expect_cosim(run_quant_int8(Engine::Iss, tiny_config(), c), run_quant_int8(Engine::SystemC, tiny_config(), c), c);
}

TEST(DequantCosim, BiasChunked) {
  DequantCase c = dc(9, 4200, true, 2);
  expect_cosim(run_dequant(Engine::Iss, tiny_config(), c), run_dequant(Engine::SystemC, tiny_config(), c), c);
}

// ---------------------------------------------------------------- the shipped case files
// kernels/cases/quant_int8_{bf16,f32}.yaml through `npusim run`'s pipeline on the ISS: they pass,
// and their planted rows reach the kernel (row 3 amax = 0: scale 0, q 0; row 9 tiny amax:
// q 127 / -128 at its two ends, scale 0; row 12 +-amax: 127 / -127).
TEST(QuantCaseFiles, PlantedRowsPass) {
  for (const char* f : {"quant_int8_bf16", "quant_int8_f32"}) {
    CaseRun how;
    how.iss = true;
    const cli::RunResult r = run_case_file(source_path(std::string("kernels/cases/") + f + ".yaml"), how);
    EXPECT_EQ(r.exit_code, cli::kExitPass) << f << "\n" << cli::format_report(r);
    const golden::Tensor& q = r.outputs.at("q");
    const golden::Tensor& scale = r.outputs.at("scale");
    const int64_t K = q.dim(1);
    EXPECT_EQ(scale.get(3), 0.0) << f;
    for (int64_t c = 0; c < K; ++c) ASSERT_EQ(q.at(3, c), 0.0) << f << " column " << c;
    EXPECT_EQ(scale.get(9), 0.0) << f;
    EXPECT_EQ(q.at(9, 0), 127.0) << f;
    EXPECT_EQ(q.at(9, K - 1), -128.0) << f;
    EXPECT_EQ(q.at(12, 0), 127.0) << f;
    EXPECT_EQ(q.at(12, K - 1), -127.0) << f;
  }
}

}  // namespace
}  // namespace npu::test
