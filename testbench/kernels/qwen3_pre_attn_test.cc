// kernels/qwen3_pre_attn.s (SK-05, V -> C -> V) through the case pipeline users run
// (kernels/cases/qwen3_pre_attn_bf16.yaml) on small shapes: every output (x_add, q, k, v and
// both caches) against the golden qwen3_pre_attn on the ISS with the race checker on and on the
// SystemC model, the two bit-identical. The reference shapes are in qwen3_pre_attn_long_test.cc.
#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "testbench/support/qwen3_case.h"

namespace npu::test {
namespace {

const char* const kOutputs[] = {"x_add", "q", "k", "v", "k_cache", "v_cache"};

void expect_pass_on_both(const Qwen3Shape& s) {
  const std::string what = s.name() + " ";
  const cli::RunResult iss = run_qwen3(s, "ascend910b", true), sc = run_qwen3(s, "ascend910b", false);
  for (const cli::RunResult* r : {&iss, &sc}) {
    ASSERT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    ASSERT_EQ(r->verdicts.size(), 6u) << what;
    for (const auto& v : r->verdicts) EXPECT_TRUE(v.compared) << what;
  }
  for (const char* t : kOutputs)
    EXPECT_EQ(iss.outputs.at(t).bytes(), sc.outputs.at(t).bytes()) << what << t << ": ISS != SystemC";
  EXPECT_TRUE(sc.sim.total_cycles.has_value()) << what;
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

}  // namespace
}  // namespace npu::test
