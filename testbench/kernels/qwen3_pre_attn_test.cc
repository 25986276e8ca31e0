// kernels/qwen3_pre_attn.s (SK-05, V -> C -> V) and its W8A8 variant qwen3_pre_attn_w8a8.s
// through the case pipeline users run (kernels/cases/qwen3_pre_attn_{bf16,w8a8}.yaml) on small
// shapes: every output (x_add, q, k, v and both caches; W8A8 also xq and x_scale) against the
// golden qwen3_pre_attn on the ISS with the race checker on and on the SystemC model, the two
// bit-identical. The reference shapes are in qwen3_pre_attn_long_test.cc.
#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "testbench/support/qwen3_case.h"

namespace npu::test {
namespace {

void expect_pass_on_both(const Qwen3Shape& s) {
  const std::string what = s.name() + (s.w8a8 ? " w8a8 " : " ");
  const cli::RunResult iss = run_qwen3(s, "ascend910b", true), sc = run_qwen3(s, "ascend910b", false);
  std::vector<std::string> outputs = {"x_add", "q", "k", "v", "k_cache", "v_cache"};
  if (s.w8a8) outputs.insert(outputs.end(), {"xq", "x_scale"});
  for (const cli::RunResult* r : {&iss, &sc}) {
    ASSERT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    ASSERT_EQ(r->verdicts.size(), outputs.size()) << what;
    for (const auto& v : r->verdicts) EXPECT_TRUE(v.compared) << what;
  }
  for (const std::string& t : outputs)
    EXPECT_EQ(iss.outputs.at(t).bytes(), sc.outputs.at(t).bytes()) << what << t << ": ISS != SystemC";
  EXPECT_TRUE(sc.sim.total_cycles.has_value()) << what;
}

Qwen3Shape w8a8(Qwen3Shape s) {
  s.w8a8 = true;
  return s;
}

// 3 tokens over 4 AIVs (one without rows), 4 q heads and 2 kv heads of 64: 2 q groups, k, v.
TEST(Qwen3PreAttnKernel, SmallHeads) {
  expect_pass_on_both({3, 256, 4, 2, 64, 2});
}

// 7 tokens (token 5's slot is -1: no cache write), head_dim 128 as Qwen3, 8 q heads over 2 kv
// heads; 42 units over 6 AIVs, so an AIV meets several tokens (new cos / sin mid-run).
TEST(Qwen3PreAttnKernel, PaddingSlotAndSeveralTokensPerAiv) {
  expect_pass_on_both({7, 512, 8, 2, 128, 3});
}

// One token (decode): the residual add and RMSNorm on one AIV of four, its 4 head units one
// per AIV.
TEST(Qwen3PreAttnKernel, OneToken) {
  expect_pass_on_both({1, 256, 4, 2, 64, 2});
}

// The W8A8 variant on the same shapes (its weight quantised per channel by the case's
// generator): the per-token quant of h, the int8 GEMM and the per-token dequant in the
// per-head stage.
TEST(Qwen3PreAttnKernel, W8A8SmallHeads) {
  expect_pass_on_both(w8a8({3, 256, 4, 2, 64, 2}));
}

TEST(Qwen3PreAttnKernel, W8A8PaddingSlotAndSeveralTokensPerAiv) {
  expect_pass_on_both(w8a8({7, 512, 8, 2, 128, 3}));
}

TEST(Qwen3PreAttnKernel, W8A8OneToken) {
  expect_pass_on_both(w8a8({1, 256, 4, 2, 64, 2}));
}

// 8 clusters over N = 4 * 64 = 256 columns: 8 output units of 32 columns, one per AIC (no
// pairs), where lib/w8a8.inc's fix_w8a8 would store t by blocks; qw_fix_w8a8 keeps it row-major,
// so the per-head stage's token rows are right.
TEST(Qwen3PreAttnKernel, W8A8OneUnitPerAic) {
  expect_pass_on_both(w8a8({2, 256, 2, 1, 64, 8}));
}

}  // namespace
}  // namespace npu::test
