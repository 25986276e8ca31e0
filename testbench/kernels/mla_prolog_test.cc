// kernels/mla_prolog.s (SK-04 bf16 MLAProlog, docs/mla-prolog.md) through `npusim run`'s
// pipeline at small shapes: kernels/cases/mla_prolog_bf16.yaml (weights [K, N]) and
// mla_prolog_bf16_btrans.yaml ([N, K]), and kernels/mla_prolog_nz.s's _nz cases, with smaller vars, on the ISS (with the race checker) and
// the SystemC model, against the golden `mla_prolog` (q, kv, qr; bf16 rule), the two backends
// bit-identical. The reference shape is in mla_prolog_long_test.cc.
#include <algorithm>
#include <filesystem>

#include "testbench/kernels/mla_prolog_run.h"
#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

// A shape every stage still runs at: h 256, q_lora_rank 128, 4 heads of 128, rope 64 on 2
// clusters (4 AIVs; t = 13 splits unevenly over them, t = 1 leaves three without rows).
std::vector<std::string> small(int t) {
  return {"T=" + std::to_string(t), "H=256", "QLR=128", "NH=4", "HD=128", "RD=64"};
}

class MlaPrologTokens : public ::testing::TestWithParam<int> {};

TEST_P(MlaPrologTokens, PassesOnBothBackends) {
  expect_mla_prolog_on_both("mla_prolog_bf16.yaml", small(GetParam()), 2, "ascend910b");
}

// 17: more tokens than one 16-row x tile, so the AIC GEMMs run two chunks (16 + 1).
INSTANTIATE_TEST_SUITE_P(T, MlaPrologTokens, ::testing::Values(1, 4, 8, 13, 16, 17));

// The tuning knobs (kernels/mla_prolog.s parameters, docs/mla-prolog.md "Knobs"): every kernel
// path a knob selects passes the golden on both backends, bit-identical, at t = 13 (not a
// multiple of any chunk). Param: the case file and the --var assignments.
class MlaPrologKnob : public ::testing::TestWithParam<MlaKnob> {};

TEST_P(MlaPrologKnob, PassesOnBothBackends) { expect_mla_knob_on_both(GetParam(), small(13), {"q", "kv", "qr"}); }

const char* const kKN = "mla_prolog_bf16.yaml";
const char* const kNK = "mla_prolog_bf16_btrans.yaml";
INSTANTIATE_TEST_SUITE_P(
    Knobs, MlaPrologKnob,
    ::testing::Values(MlaKnob{kKN, {"UNROLL=15"}},                  // chunks 8 + 4 + 1
                      MlaKnob{kKN, {"UNROLL=8"}},                   // 8 + a padded 5
                      MlaKnob{kKN, {"NBUF=2"}},                     // RoPE runs ping-pong
                      MlaKnob{kKN, {"XL1=0"}}, MlaKnob{kNK, {"XL1=0"}},  // x slices with the W chunks
                      MlaKnob{kKN, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}},  // several segments per AIC
                      MlaKnob{kNK, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}},
                      MlaKnob{"mla_prolog_bf16_per_stage.yaml", {}}));  // STAGES 1, 2, 4, 8: four launches

// kernels/mla_prolog_nz.s (the weights kept NZ in GM, as CANN's MlaProlog takes them) writes
// mla_prolog.s's bytes, both layouts, with the knobs that change the W stream: x slices with
// every chunk, several segments per AIC.
TEST(MlaProlog, NzWeightsWriteTheNdKernelsBytes) {
  expect_nz_writes_nd_bytes({{kKN, "mla_prolog_bf16_nz.yaml"}, {kNK, "mla_prolog_bf16_nz_btrans.yaml"}}, small(13),
                            {{}, {"XL1=0"}, {"KTA=64", "NTA=32", "KTB=32", "NTB=32"}}, {"q", "kv", "qr"});
}

TEST(MlaProlog, BTransWeights) {
  expect_mla_prolog_on_both("mla_prolog_bf16_btrans.yaml", small(13), 2, "ascend910b");
}

// More column tiles than AICs in both passes (tiles dealt round-robin, several per AIC), rope 32
// on heads of 96 (the rope dims start 64 elements in), on a5.
TEST(MlaProlog, ManyTilesOnA5) {
  expect_mla_prolog_on_both("mla_prolog_bf16.yaml",
                            {"T=5", "H=512", "QLR=256", "NH=8", "HD=96", "RD=32"}, 1, "ascend950");
}

// Fewer 16-column units than AICs in both passes (256 columns on 24 AICs): 8 AICs idle, their
// flags still balanced; both weight layouts.
TEST(MlaProlog, IdleAics) {
  const std::vector<std::string> v = {"T=3", "H=256", "QLR=128", "NH=2", "HD=128", "RD=32"};
  expect_mla_prolog_on_both("mla_prolog_bf16.yaml", v, 24, "ascend910b");
  expect_mla_prolog_on_both("mla_prolog_bf16_btrans.yaml", v, 24, "ascend910b");
}

// One AIC: q3's 2560 columns exceed a segment (KN_WMAX = 2048 on a2), so it runs two, the
// second after the first's FixPipe drain.
TEST(MlaProlog, TwoSegmentsOnOneAic) {
  expect_mla_prolog_on_both("mla_prolog_bf16.yaml", {"T=2", "H=256", "QLR=128", "NH=5", "HD=512", "RD=64"}, 1,
                            "ascend910b");
}

// b_trans other than 0 / 1 (bit 2 would select lib/gemm_kn.inc's NZ weight mode and read ND
// weights as NZ): the run stops with the AIC, PC and the check's source line, exit status 2, no
// output. The shipped case with b_trans 4 and a small shape, both engines; the error names the
// check (lib/gemm_kn.inc kn_check_bit) at its use in the program.
class MlaPrologCli : public CliScratchTest {};

TEST_F(MlaPrologCli, BTransOtherThanZeroOrOneIsALocatedFault) {
  std::string text = slurp(source_path("kernels/cases/mla_prolog_bf16.yaml"));
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"b_trans: 0,", "b_trans: 4,"},
                                 {"kernel: ../mla_prolog.s", "kernel: " + source_path("kernels/mla_prolog.s")}}) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  const std::string c = write("case.yaml", text);
  // The check's line in the program (the error names it in the fault's macro chain).
  const std::string main_inc = slurp(source_path("kernels/lib/mla_prolog_main.inc"));
  const size_t check = main_inc.find("kn_check_bit b_trans");
  ASSERT_NE(check, std::string::npos);
  const std::string at = "lib/mla_prolog_main.inc:" + std::to_string(1 + std::count(main_inc.begin(), main_inc.begin() + check, '\n'));
  for (const char* engine : {" --iss", ""}) {
    SCOPED_TRACE(engine[0] ? "iss" : "systemc");
    ASSERT_EQ(npusim("run " + c + " --var T=2 --var H=256 --var QLR=128 --var NH=2 --var HD=128 --var RD=64 "
                     "--block-dim 2" + engine + " --out " + path("out")),
              2)
        << err_;
    EXPECT_NE(err_.find(".aic pc "), std::string::npos) << err_;
    EXPECT_NE(err_.find(at + ")"), std::string::npos) << at << "\n" << err_;
    EXPECT_NE(err_.find("division by zero"), std::string::npos) << err_;
    EXPECT_FALSE(std::filesystem::exists(path("out")));
  }
}

}  // namespace
}  // namespace npu::test
