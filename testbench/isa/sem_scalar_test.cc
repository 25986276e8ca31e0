// Scalar unit semantics and instruction classification; local and cross-core flag rules.
#include <cstring>

#include "isa/sem/scalar.h"
#include "isa/sem/sync.h"
#include "testbench/isa/sem_test_fixture.h"
#include "testbench/support/thrown_message.h"

namespace npu::semtest {
namespace {

using K = sem::ScalarOutcome::Kind;

struct ScalarFixture : ::testing::Test {
  hw::HwConfig hw = test_hw();
  sem::CoreState core{{1, isa::CoreType::Aiv, 1}, hw.machine(), {0x5000, -3}, 4};
  sem::ScalarOutcome run(const isa::Instr& in) {
    auto o = sem::step_scalar(core, in);
    core.pc = o.next_pc;
    return o;
  }
  uint64_t r(int n) const { return core.reg(n); }
  std::string error(const isa::Instr& in) {
    return npu::test::thrown_message([&] { run(in); }, "");
  }
};

TEST_F(ScalarFixture, IntegerAlu) {
  run(I(Op::MOV, {R(1), -7}));
  EXPECT_EQ(static_cast<int64_t>(r(1)), -7);
  run(I(Op::MOV, {R(0), 5}));
  EXPECT_EQ(r(0), 0u);  // r0 stays zero
  run(I(Op::ADD, {R(2), R(1), 10}));
  EXPECT_EQ(r(2), 3u);
  run(I(Op::SUB, {R(3), R(2), R(1)}));
  EXPECT_EQ(r(3), 10u);
  run(I(Op::MUL, {R(4), R(3), -3}));
  EXPECT_EQ(static_cast<int64_t>(r(4)), -30);
  run(I(Op::DIV, {R(5), R(4), 7}));
  EXPECT_EQ(static_cast<int64_t>(r(5)), -4);  // toward zero
  run(I(Op::REM, {R(5), R(4), 7}));
  EXPECT_EQ(static_cast<int64_t>(r(5)), -2);
  run(I(Op::MOV, {R(6), INT64_MIN}));
  run(I(Op::DIV, {R(7), R(6), -1}));
  EXPECT_EQ(static_cast<int64_t>(r(7)), INT64_MIN);  // wraps
  run(I(Op::AND, {R(8), R(3), 6}));
  EXPECT_EQ(r(8), 2u);
  run(I(Op::OR, {R(8), R(3), 5}));
  EXPECT_EQ(r(8), 15u);
  run(I(Op::XOR, {R(8), R(3), 3}));
  EXPECT_EQ(r(8), 9u);
  run(I(Op::SHL, {R(8), R(3), 65}));  // & 63 -> 1
  EXPECT_EQ(r(8), 20u);
  run(I(Op::SHR, {R(8), R(1), 60}));
  EXPECT_EQ(r(8), 15u);  // logical
  run(I(Op::SRA, {R(8), R(1), 1}));
  EXPECT_EQ(static_cast<int64_t>(r(8)), -4);
  run(I(Op::MIN, {R(8), R(1), 2}));
  EXPECT_EQ(static_cast<int64_t>(r(8)), -7);
  run(I(Op::MAX, {R(8), R(1), 2}));
  EXPECT_EQ(r(8), 2u);
  core.pc = 6;
  EXPECT_EQ(error(I(Op::DIV, {R(1), R(3), 0})),
            "cluster1.aiv1 pc 6 (div r1, r3, 0): division by zero (10 / 0)");
}

TEST_F(ScalarFixture, FloatOps) {
  run(I(Op::MOV, {R(1), bits(1.5f)}));
  run(I(Op::FADD, {R(2), R(1), static_cast<int32_t>(bits(2.0f))}));
  EXPECT_EQ(fl(r(2)), 3.5f);
  run(I(Op::FSUB, {R(2), R(1), static_cast<int32_t>(bits(2.0f))}));
  EXPECT_EQ(fl(r(2)), -0.5f);
  EXPECT_EQ(r(2) >> 32, 0u);  // zero-extended
  run(I(Op::FMUL, {R(2), R(1), static_cast<int32_t>(bits(2.0f))}));
  EXPECT_EQ(fl(r(2)), 3.0f);
  run(I(Op::FDIV, {R(2), R(1), static_cast<int32_t>(bits(0.5f))}));
  EXPECT_EQ(fl(r(2)), 3.0f);
  run(I(Op::MOV, {R(1), bits(6.25f)}));
  run(I(Op::FSQRT, {R(2), R(1)}));
  EXPECT_EQ(fl(r(2)), 2.5f);
  run(I(Op::MOV, {R(1), (1 << 24) + 1}));
  run(I(Op::ITOF, {R(2), R(1)}));
  EXPECT_EQ(fl(r(2)), 16777216.0f);  // RNE tie to even
  run(I(Op::MOV, {R(1), bits(-2.75f)}));
  run(I(Op::FTOI, {R(2), R(1)}));
  EXPECT_EQ(static_cast<int64_t>(r(2)), -2);
  run(I(Op::MOV, {R(1), bits(1e30f)}));
  run(I(Op::FTOI, {R(2), R(1)}));
  EXPECT_EQ(static_cast<int64_t>(r(2)), INT64_MAX);
}

TEST_F(ScalarFixture, ParamsSpecialRegsBranches) {
  run(I(Op::LDP, {R(1), 0}));
  EXPECT_EQ(r(1), 0x5000u);
  run(I(Op::LDP, {R(1), 1}));
  EXPECT_EQ(static_cast<int64_t>(r(1)), -3);
  EXPECT_NE(error(I(Op::LDP, {R(1), 2})).find("kernel parameter 2 does not exist (2 parameters)"), std::string::npos);
  const std::pair<isa::SpecialReg, int64_t> sr[] = {{isa::SpecialReg::BlockIdx, 1}, {isa::SpecialReg::BlockDim, 4},
                                                    {isa::SpecialReg::SubblockIdx, 1}, {isa::SpecialReg::CoreType, 1},
                                                    {isa::SpecialReg::SubblockDim, 2}};
  for (auto [reg, want] : sr) {
    run(I(Op::GETSR, {R(3), reg}));
    EXPECT_EQ(static_cast<int64_t>(r(3)), want);
  }
  core.pc = 10;
  EXPECT_EQ(run(I(Op::BEQ, {R(1), -3, 40})).next_pc, 40u);
  EXPECT_EQ(run(I(Op::BNE, {R(1), -3, 50})).next_pc, 41u);
  EXPECT_EQ(run(I(Op::BLT, {R(1), 0, 7})).next_pc, 7u);  // signed
  EXPECT_EQ(run(I(Op::BGE, {R(1), 0, 70})).next_pc, 8u);
  EXPECT_EQ(run(I(Op::JMP, {3})).next_pc, 3u);
  EXPECT_EQ(run(I(Op::NOP, {})).next_pc, 4u);
}

// ldub: the int32 at a UB offset, sign-extended (little-endian bytes, as the DMA writes them).
TEST_F(ScalarFixture, LdubReadsASignExtendedWordOfUb) {
  uint8_t* ub = core.buffer(sem::Buffer::Ub).data();
  const uint8_t word[8] = {0x78, 0x56, 0x34, 0x12, 0xfe, 0xff, 0xff, 0xff};  // 0x12345678, -2
  std::memcpy(ub + 64, word, 8);
  run(I(Op::LDUB, {R(1), 64}));
  EXPECT_EQ(r(1), 0x12345678u);
  core.set_reg(2, 68);
  run(I(Op::LDUB, {R(3), R(2)}));  // the offset from a register
  EXPECT_EQ(static_cast<int64_t>(r(3)), -2);
  const uint64_t size = core.buffer(sem::Buffer::Ub).size();
  core.pc = 3;
  EXPECT_EQ(error(I(Op::LDUB, {R(1), 66})), "cluster1.aiv1 pc 3 (ldub r1, 0x42): UB offset 66 is not 4-byte aligned");
  EXPECT_NE(error(I(Op::LDUB, {R(1), static_cast<int64_t>(size)})).find(
                "+ 4 bytes is past the UB's " + std::to_string(size) + " bytes"),
            std::string::npos);
  sem::CoreState aic{{0, isa::CoreType::Aic, 0}, hw.machine(), {}, 1};
  try {
    sem::step_scalar(aic, I(Op::LDUB, {R(1), 0}));
    FAIL() << "ldub ran on the AIC";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("only available on the AIV"), std::string::npos) << e.what();
  }
}

TEST_F(ScalarFixture, Classification) {
  core.set_reg(4, 256);
  auto o = run(I(Op::VADD, {Dtype::F32, R(4), 0, 32, 8}));
  EXPECT_EQ(o.kind, K::Dispatch);
  EXPECT_EQ(o.pipe, isa::Pipe::Vector);
  EXPECT_EQ(o.di["dst"], 256);  // register read at dispatch
  EXPECT_EQ(o.di.pc, 0u);
  o = run(I(Op::WAIT_FLAG, {isa::Pipe::Mte2, isa::Pipe::Vector, 1}));
  EXPECT_EQ(o.kind, K::Dispatch);
  EXPECT_EQ(o.pipe, isa::Pipe::Vector);
  o = run(I(Op::SET_FLAG, {isa::Pipe::Scalar, isa::Pipe::Mte2, 1}));
  EXPECT_EQ(o.kind, K::SyncScalar);
  o = run(I(Op::BARRIER, {isa::PipeSel::Mte3}));
  EXPECT_EQ(o.kind, K::Barrier);
  EXPECT_EQ(o.barrier, isa::PipeSel::Mte3);
  EXPECT_EQ(run(I(Op::END, {})).kind, K::End);
  core.pc = 2;
  EXPECT_EQ(error(I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 16, 16, 16})),
            "cluster1.aiv1 pc 2 (mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16, 1): instruction is only available on the AIC");
  EXPECT_EQ(error(I(Op::MOV_UB_L1, {0, 0, 1, 32, 0, 0})),
            "cluster1.aiv1 pc 2 (mov_ub_l1 0x0, 0x0, 1, 32, 0, 0): instruction is only available on a5 (this chip is a2)");
  EXPECT_EQ(error(I(Op::SET_FLAG, {isa::Pipe::Cube, isa::Pipe::Vector, 0})),
            "cluster1.aiv1 pc 2 (set_flag cube, vector, 0): pipe CUBE does not exist on the AIV");
  isa::CodeSection code;
  code.present = true;
  code.code = {I(Op::NOP, {})};
  core.pc = 1;
  try {
    sem::fetch(core, code);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cluster1.aiv1 pc 1 (nop): pc is past the end of the code (1 instructions): the "
                           "program ran off its end without `end`");
  }
}

TEST(SemSync, LocalFlags) {
  hw::HwConfig hw = test_hw();
  sem::CoreState core({0, isa::CoreType::Aiv, 0}, hw.machine(), {}, 1);
  auto set = sem::resolve(core, I(Op::SET_FLAG, {isa::Pipe::Mte2, isa::Pipe::Vector, 3}), 4);
  auto wait = sem::resolve(core, I(Op::WAIT_FLAG, {isa::Pipe::Mte2, isa::Pipe::Vector, 3}), 5);
  EXPECT_FALSE(sem::try_consume_flag(core, wait));
  sem::fire_flag(core, set);
  try {
    sem::fire_flag(core, set);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cluster0.aiv0 pc 4 (set_flag mte2, vector, 3): flag MTE2 -> VECTOR id 3 set twice "
                           "without a wait_flag in between");
  }
  EXPECT_TRUE(sem::try_consume_flag(core, wait));
  EXPECT_FALSE(sem::try_consume_flag(core, wait));
  sem::fire_flag(core, set);  // fine again after the wait
}

struct HubFixture : ::testing::Test {
  hw::HwConfig hw = test_hw();
  std::vector<sem::CoreState> cores;
  HubFixture() {
    for (int c = 0; c < 2; ++c) {
      cores.emplace_back(sem::CoreId{c, isa::CoreType::Aic, 0}, hw.machine(), std::vector<int64_t>{}, 2);
      cores.emplace_back(sem::CoreId{c, isa::CoreType::Aiv, 0}, hw.machine(), std::vector<int64_t>{}, 2);
      cores.emplace_back(sem::CoreId{c, isa::CoreType::Aiv, 1}, hw.machine(), std::vector<int64_t>{}, 2);
    }
  }
  sem::CoreState& aic(int c) { return cores[3 * c]; }
  sem::CoreState& aiv(int c, int s) { return cores[3 * c + 1 + s]; }
  sem::CrossCoreHub hub{2, true, true, 2};
  void set(sem::CoreState& c, int mode, int id) {
    hub.set(c, sem::resolve(c, I(Op::CC_SET, {isa::Pipe::Scalar, mode, id}), 0));
  }
  bool wait(sem::CoreState& c, int id) {
    return hub.try_wait(c, sem::resolve(c, I(Op::CC_WAIT, {isa::Pipe::Scalar, id}), 0));
  }
};

TEST_F(HubFixture, Mode0AllSameTypeCores) {
  set(aiv(0, 0), 0, 2);
  set(aiv(0, 1), 0, 2);
  set(aiv(1, 0), 0, 2);
  EXPECT_FALSE(wait(aiv(0, 0), 2));  // aiv 1.1 has not set yet
  EXPECT_EQ(hub.explain_wait(aiv(0, 0).id, 2),
            "cross-core flag 2 is 0; mode 0 sets by cluster0.aiv0, cluster0.aiv1, cluster1.aiv0, still waiting for "
            "cluster1.aiv1");
  set(aiv(1, 1), 0, 2);
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < 2; ++s) EXPECT_TRUE(wait(aiv(c, s), 2));
  EXPECT_FALSE(wait(aiv(0, 0), 2));
  EXPECT_EQ(hub.counter(aic(0).id, 2), 0);  // AICs untouched
  set(aic(0), 0, 1);
  set(aic(1), 0, 1);
  EXPECT_TRUE(wait(aic(1), 1));
}

TEST_F(HubFixture, Mode1AivsOfACluster) {
  set(aiv(1, 0), 1, 0);
  EXPECT_FALSE(wait(aiv(1, 1), 0));
  set(aiv(1, 0), 1, 0);  // a second set accumulates
  set(aiv(1, 1), 1, 0);
  EXPECT_TRUE(wait(aiv(1, 1), 0));
  EXPECT_TRUE(wait(aiv(1, 0), 0));
  EXPECT_FALSE(wait(aiv(1, 0), 0));
  set(aiv(1, 1), 1, 0);  // completes the second round
  EXPECT_TRUE(wait(aiv(1, 0), 0));
  EXPECT_EQ(hub.counter(aiv(0, 0).id, 0), 0);  // other cluster untouched
  try {
    set(aic(0), 1, 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cluster0.aic pc 0 (cc_set scalar, 1, 0): cc_set mode 1 (AIVs of a cluster) executed on an AIC");
  }
}

TEST_F(HubFixture, Mode2AicAivOfACluster) {
  set(aic(0), 2, 5);  // releases both AIVs of cluster 0
  EXPECT_TRUE(wait(aiv(0, 0), 5));
  EXPECT_TRUE(wait(aiv(0, 1), 5));
  EXPECT_FALSE(wait(aiv(1, 0), 5));
  set(aiv(0, 0), 2, 5);
  EXPECT_FALSE(wait(aic(0), 5));  // needs both AIVs
  EXPECT_EQ(hub.explain_wait(aic(0).id, 5),
            "cross-core flag 5 is 0; mode 2 sets by cluster0.aiv0, still waiting for cluster0.aiv1");
  set(aiv(0, 1), 2, 5);
  EXPECT_TRUE(wait(aic(0), 5));
  EXPECT_FALSE(wait(aic(1), 5));
  sem::CrossCoreHub aiv_only(1, false, true, 2);
  try {
    aiv_only.set(aiv(0, 0), sem::resolve(aiv(0, 0), I(Op::CC_SET, {isa::Pipe::Mte3, 2, 0}), 3));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cluster0.aiv0 pc 3 (cc_set mte3, 2, 0): cc_set mode 2 on an AIV, but the launch has no AIC cores");
  }
}

}  // namespace
}  // namespace npu::semtest
