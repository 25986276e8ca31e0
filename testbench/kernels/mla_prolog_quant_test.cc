// kernels/mla_prolog_quant.s (MLAPrologQuant, docs/mla-prolog.md) through `npusim run`'s
// pipeline at small shapes: kernels/cases/mla_prolog_quant*.yaml with smaller vars, on the ISS
// (with the race checker) and the SystemC model, against the golden `mla_prolog_quant` (q and
// kv: bf16 rule; qr_q: int8, within one step; qr_scale: fp32 rule), the two backends
// bit-identical. The reference shape is in mla_prolog_quant_long_test.cc.
#include "cli/lib/case_spec.h"
#include "testbench/kernels/mla_prolog_run.h"

namespace npu::test {
namespace {

const std::vector<std::string> kOutputs = {"q", "kv", "qr_q", "qr_scale"};

// The bf16 prolog's small shape (mla_prolog_test.cc): h 256, q_lora_rank 128, 4 heads of 128,
// rope 64 on 2 clusters (4 AIVs; t = 13 splits unevenly over them, t = 1 leaves three idle).
std::vector<std::string> small(int t) {
  return {"T=" + std::to_string(t), "H=256", "QLR=128", "NH=4", "HD=128", "RD=64"};
}

class MlaPrologQuantTokens : public ::testing::TestWithParam<int> {};

TEST_P(MlaPrologQuantTokens, PassesOnBothBackends) {
  expect_mla_prolog_on_both("mla_prolog_quant.yaml", small(GetParam()), 2, "ascend910b", kOutputs);
}

INSTANTIATE_TEST_SUITE_P(T, MlaPrologQuantTokens, ::testing::Values(1, 4, 8, 13, 16));

// All weights [N, K] (wq_b s8 one row per channel), t = 13.
TEST(MlaPrologQuant, BTransWeights) {
  expect_mla_prolog_on_both("mla_prolog_quant_btrans.yaml", small(13), 2, "ascend910b", kOutputs);
}

// The knobs it shares with mla_prolog.s: every path they select through lib/gemm_kn.inc's int8
// form (x re-loaded with every int8 W chunk, tiles of 32 int8 rows / columns) and the RoPE's two
// run buffers pass the golden on both backends, bit-identical, t = 13, both layouts. Param: the
// case file and the --var assignments.
class MlaPrologQuantKnob : public ::testing::TestWithParam<MlaKnob> {};

TEST_P(MlaPrologQuantKnob, PassesOnBothBackends) { expect_mla_knob_on_both(GetParam(), small(13), kOutputs); }

const char* const kKN = "mla_prolog_quant.yaml";
const char* const kNK = "mla_prolog_quant_btrans.yaml";
INSTANTIATE_TEST_SUITE_P(
    Knobs, MlaPrologQuantKnob,
    ::testing::Values(MlaKnob{kKN, {"XL1=0"}}, MlaKnob{kNK, {"XL1=0"}},
                      MlaKnob{kKN, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}},  // several segments per AIC
                      MlaKnob{kNK, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}},
                      MlaKnob{kKN, {"NBUF=2"}}));

// kernels/mla_prolog_quant_nz.s (the weights kept NZ in GM, int8 wq_b's blocks 32 columns wide)
// writes mla_prolog_quant.s's bytes, both layouts, with the knobs that change the W stream.
TEST(MlaPrologQuant, NzWeightsWriteTheNdKernelsBytes) {
  expect_nz_writes_nd_bytes({{kKN, "mla_prolog_quant_nz.yaml"}, {kNK, "mla_prolog_quant_nz_btrans.yaml"}},
                            small(13), {{}, {"XL1=0"}, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}}, kOutputs);
}

// One AIC: q3's 2560 int8 columns exceed a segment (2048 columns of int32 fill L0C), so it runs
// two; heads of 512 span several dequant runs' worth of channels.
TEST(MlaPrologQuant, TwoSegmentsOnOneAic) {
  expect_mla_prolog_on_both("mla_prolog_quant.yaml", {"T=2", "H=256", "QLR=128", "NH=5", "HD=512", "RD=64"}, 1,
                            "ascend910b", kOutputs);
}

// Fewer 16-column units than AICs (192 columns = 12 units on 16 AICs: 4 idle), on a5 with rope 32 on
// heads of 96.
TEST(MlaPrologQuant, IdleAicsOnA5) {
  expect_mla_prolog_on_both("mla_prolog_quant.yaml", {"T=3", "H=256", "QLR=96", "NH=2", "HD=96", "RD=32"}, 16,
                            "ascend950", kOutputs);
}

// A token whose x row is zero: qa, qr and kva rows are 0, so amax = 0 (scale_q = 127 / 0 = Inf,
// 0 * Inf = NaN, cast to 0): qr_q row 0, qr_scale 0, and the token's q and kv rows 0; the other
// tokens as the golden. ISS (race checker) and SystemC, bit-identical.
TEST(MlaPrologQuant, ZeroTokenGivesZeroScale) {
  cli::CaseSpec spec = cli::parse_case_file(source_dir() + "/kernels/cases/mla_prolog_quant.yaml", small(5));
  for (cli::CaseTensor& t : spec.tensors)
    if (t.name == "x") t.init.plants.push_back({{2}, 0.0, {}});
  cli::RunOptions o;
  o.config_path = source_dir() + "/configs/ascend910b.yaml";
  o.block_dim = 2;
  o.iss = true;
  const cli::RunResult iss = cli::run_case_spec(spec, o);
  o.iss = false;
  const cli::RunResult sc = cli::run_case_spec(spec, o);
  for (const cli::RunResult* r : {&iss, &sc}) {
    ASSERT_EQ(r->exit_code, cli::kExitPass) << cli::format_report(*r);
    EXPECT_EQ(r->outputs.at("qr_scale").get(2), 0.0);
    EXPECT_NE(r->outputs.at("qr_scale").get(1), 0.0);
    for (int64_t j = 0; j < 128; ++j) ASSERT_EQ(r->outputs.at("qr_q").get(2 * 128 + j), 0.0) << j;
    for (int64_t j = 0; j < 4 * 128; ++j) ASSERT_EQ(r->outputs.at("q").get(2 * 4 * 128 + j), 0.0) << j;
  }
  for (const std::string& t : kOutputs) EXPECT_EQ(iss.outputs.at(t).bytes(), sc.outputs.at(t).bytes()) << t;
}

}  // namespace
}  // namespace npu::test
