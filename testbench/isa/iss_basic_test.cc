// The functional ISS: pipe ordering through flags, cross-core flags, multi-core launches,
// deadlock and hang reports.
#include "isa/iss/iss.h"
#include "testbench/isa/sem_test_fixture.h"
#include "testbench/support/thrown_message.h"

#include <gmock/gmock.h>

namespace npu::semtest {
namespace {

using isa::Pipe;
using ::testing::HasSubstr;
using isa::SpecialReg;

isa::Program program(std::vector<isa::Instr> aiv, std::vector<isa::Instr> aic = {}) {
  isa::Program p;
  p.name = "k";
  p.params = {{"x", isa::ParamKind::Gm, {}}, {"y", isa::ParamKind::Gm, {}}};
  p.aiv.present = !aiv.empty();
  p.aiv.code = std::move(aiv);
  p.aic.present = !aic.empty();
  p.aic.code = std::move(aic);
  return p;
}

std::string run_error(const isa::Program& p, int block_dim, uint64_t max_instructions = 0) {
  hw::HwConfig hw = test_hw();
  if (max_instructions) hw.sim.max_instructions = max_instructions;
  sem::GlobalMemory gm;
  iss::Iss s(hw.machine(), p, gm, {0x1000, 0x2000}, block_dim);
  return npu::test::thrown_message([&] { s.run(); }, "");
}

// Every AIV of every cluster: y[core] = x[core] + core (8 fp32 per core), core = 2*block + sub.
TEST(Iss, MultiCoreVectorPipeline) {
  auto p = program({
      I(Op::GETSR, {R(1), SpecialReg::BlockIdx}),    // 0
      I(Op::GETSR, {R(2), SpecialReg::SubblockIdx}), // 1
      I(Op::SHL, {R(3), R(1), 1}),                   // 2
      I(Op::ADD, {R(3), R(3), R(2)}),                // 3  r3 = core index
      I(Op::LDP, {R(4), 0}),                         // 4
      I(Op::MUL, {R(5), R(3), 32}),                  // 5  byte offset of the core's slice
      I(Op::ADD, {R(6), R(4), R(5)}),                // 6
      I(Op::MOV_GM_UB, {0, R(6), 1, 32, 0, 0}),      // 7
      I(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),   // 8
      I(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),  // 9
      I(Op::ITOF, {R(7), R(3)}),                        // 10
      I(Op::VADDS, {Dtype::F32, 64, 0, R(7), 8}),       // 11
      I(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, 0}),   // 12
      I(Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, 0}),  // 13
      I(Op::LDP, {R(8), 1}),                            // 14
      I(Op::ADD, {R(9), R(8), R(5)}),                   // 15
      I(Op::MOV_UB_GM, {R(9), 64, 1, 32, 0, 0}),        // 16
      I(Op::END, {}),                                   // 17
  });
  hw::HwConfig hw = test_hw();
  sem::GlobalMemory gm;
  gm.add_region("x", 0x1000, 3 * 2 * 32);
  gm.add_region("y", 0x2000, 3 * 2 * 32);
  std::vector<float> x(48);
  for (int i = 0; i < 48; ++i) x[i] = 0.5f * i;
  gm.write(0x1000, x.data(), 48 * 4);
  iss::Iss s(hw.machine(), p, gm, {0x1000, 0x2000}, 3);
  iss::IssStats st = s.run();
  std::vector<float> y(48);
  gm.read(0x2000, y.data(), 48 * 4);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(y[i], x[i] + i / 8) << i;
  ASSERT_EQ(st.cores.size(), 6u);
  EXPECT_EQ(st.cores[5].id.name(), "cluster2.aiv1");
  // Per core: 11 scalar-unit instructions (0-6, 10, 14, 15, 17), MTE2 2 (mov_gm_ub, set_flag),
  // VECTOR 3 (wait, vadds, set), MTE3 2 (wait, mov_ub_gm); steps also count the 7 dispatches.
  const auto& c = st.cores[0].instrs;
  EXPECT_EQ(c[static_cast<int>(Pipe::Scalar)], 11u);
  EXPECT_EQ(c[static_cast<int>(Pipe::Mte2)], 2u);
  EXPECT_EQ(c[static_cast<int>(Pipe::Vector)], 3u);
  EXPECT_EQ(c[static_cast<int>(Pipe::Mte3)], 2u);
  EXPECT_EQ(st.cores[0].total(), 18u);
  EXPECT_EQ(st.steps, 6u * (18 + 7));
}

// V -> C: the AIVs produce A in GM, signal the AIC (mode 2), the AIC multiplies it by W.
TEST(Iss, CrossCoreVToC) {
  auto p = program(
      {
          I(Op::GETSR, {R(1), SpecialReg::SubblockIdx}),
          I(Op::BNE, {R(1), 0, 5}),
          I(Op::VDUP, {Dtype::BF16, 0, bits(2.0f), 16}),   // A = 2.0 x 16
          I(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, 0}),
          I(Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, 0}),
          I(Op::LDP, {R(2), 0}),                            // 5
          I(Op::BNE, {R(1), 0, 8}),
          I(Op::MOV_UB_GM, {R(2), 0, 1, 32, 0, 0}),
          I(Op::CC_SET, {Pipe::Mte3, 2, 3}),                // 8: both AIVs set
          I(Op::END, {}),
      },
      {
          I(Op::LDP, {R(1), 0}),
          I(Op::LDP, {R(2), 1}),
          I(Op::CC_WAIT, {Pipe::Mte2, 3}),
          I(Op::MOV_GM_L1, {0, R(1), 1, 32, 0, 0}),        // A [1, 16]
          I(Op::MOV_GM_L1, {512, R(2), 1, 512, 0, 0}),     // W [16, 16] at 0x2000
          I(Op::SET_FLAG, {Pipe::Mte2, Pipe::Mte1, 0}),
          I(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Mte1, 0}),
          I(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 1, 16, 32}),
          I(Op::MOV_L1_L0B, {Dtype::BF16, 0, 512, 16, 16, 32, 1}),  // b_trans
          I(Op::SET_FLAG, {Pipe::Mte1, Pipe::Cube, 0}),
          I(Op::WAIT_FLAG, {Pipe::Mte1, Pipe::Cube, 0}),
          I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 16, 16}),
          I(Op::SET_FLAG, {Pipe::Cube, Pipe::Fixp, 0}),
          I(Op::WAIT_FLAG, {Pipe::Cube, Pipe::Fixp, 0}),
          I(Op::ADD, {R(3), R(2), 1024}),
          I(Op::FIX, {Dtype::F32, Dtype::F32, R(3), 0, 1, 16, 64}),
          I(Op::END, {}),
      });
  hw::HwConfig hw = test_hw();
  sem::GlobalMemory gm;
  gm.add_region("a", 0x1000, 32);
  gm.add_region("w", 0x2000, 512);
  gm.add_region("out", 0x2400, 64);
  std::vector<uint16_t> w(256);
  for (int nrow = 0; nrow < 16; ++nrow)
    for (int k = 0; k < 16; ++k) w[nrow * 16 + k] = bf(static_cast<float>(nrow));  // W[n, k] = n
  gm.write(0x2000, w.data(), 512);
  iss::Iss s(hw.machine(), p, gm, {0x1000, 0x2000}, 1);
  s.run();
  std::vector<float> out(16);
  gm.read(0x2400, out.data(), 64);
  for (int nn = 0; nn < 16; ++nn) EXPECT_EQ(out[nn], 32.0f * nn) << nn;  // sum_k 2 * n
}

TEST(Iss, CrossCoreModes0And1) {
  // Every AIV: mode 1 (cluster pair) then mode 0 (all AIVs) barrier, then end.
  auto p = program({
      I(Op::CC_SET, {Pipe::Scalar, 1, 0}),
      I(Op::CC_WAIT, {Pipe::Scalar, 0}),
      I(Op::CC_SET, {Pipe::Mte3, 0, 1}),
      I(Op::CC_WAIT, {Pipe::Mte2, 1}),
      I(Op::END, {}),
  });
  EXPECT_EQ(run_error(p, 2), "");
  // Only sub 0 sets in mode 1: both AIVs wait forever.
  auto q = program({
      I(Op::GETSR, {R(1), SpecialReg::SubblockIdx}),
      I(Op::BNE, {R(1), 0, 3}),
      I(Op::CC_SET, {Pipe::Scalar, 1, 4}),
      I(Op::CC_WAIT, {Pipe::Vector, 4}),
      I(Op::END, {}),
  });
  EXPECT_EQ(run_error(q, 1),
            "deadlock in 'k': no unit can progress\n"
            "  2 AIVs (cluster0.aiv{0..1}) SCALAR pc 4 (end): waits for pipes VECTOR to drain before ending\n"
            "  2 AIVs (cluster0.aiv{0..1}) VECTOR pc 3 (cc_wait vector, 4): waits: cross-core flag 4 is 0; mode 1 "
            "sets by cluster0.aiv0, still waiting for cluster0.aiv1\n");
}

TEST(Iss, DeadlockReport) {
  auto p = program({
      I(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 2}),
      I(Op::BARRIER, {isa::PipeSel::Vector}),
      I(Op::END, {}),
  });
  hw::HwConfig hw = test_hw();
  EXPECT_EQ(run_error(p, 1),
            "deadlock in 'k': no unit can progress\n"
            "  2 AIVs (cluster0.aiv{0..1}) SCALAR pc 1 (barrier vector): waits for pipes VECTOR to drain\n"
            "  2 AIVs (cluster0.aiv{0..1}) VECTOR pc 0 (wait_flag mte2, vector, 2): waits for flag MTE2 -> VECTOR id 2\n");
}

TEST(Iss, DeadlockReportGroupsCoresInTheSameState) {
  // Sub 1 of each cluster ends; sub 0 waits for a flag nobody sets: the two clusters' aiv0 are
  // one line per unit, the ended aiv1s are not listed.
  auto p = program({
      I(Op::GETSR, {R(1), SpecialReg::SubblockIdx}),
      I(Op::BNE, {R(1), 0, 3}),
      I(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 2}),
      I(Op::END, {}),
  });
  EXPECT_EQ(run_error(p, 2),
            "deadlock in 'k': no unit can progress\n"
            "  2 AIVs (cluster{0..1}.aiv0) SCALAR pc 3 (end): waits for pipes VECTOR to drain before ending\n"
            "  2 AIVs (cluster{0..1}.aiv0) VECTOR pc 2 (wait_flag mte2, vector, 2): waits for flag MTE2 -> VECTOR id 2\n");
}

TEST(Iss, DoubleSetIsAnError) {
  auto p = program({
      I(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),
      I(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),
      I(Op::END, {}),
  });
  EXPECT_EQ(run_error(p, 1),
            "cluster0.aiv0 pc 1 (set_flag mte2, vector, 0): flag MTE2 -> VECTOR id 0 set twice without a "
            "wait_flag in between");
}

TEST(Iss, FlagOrdersPipes) {
  // MTE2 first waits for VECTOR, so its load queues up behind the wait: the first vcopy runs
  // before the load (sees zeros); VECTOR then releases MTE2 and waits for MTE2's flag, so the
  // second vcopy sees the loaded data.
  auto p = program({
      I(Op::LDP, {R(1), 0}),
      I(Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte2, 1}),
      I(Op::MOV_GM_UB, {0, R(1), 1, 32, 0, 0}),
      I(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),
      I(Op::VCOPY, {Dtype::F32, 64, 0, 8}),
      I(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte2, 1}),
      I(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 0}),
      I(Op::VCOPY, {Dtype::F32, 128, 0, 8}),
      I(Op::END, {}),
  });
  hw::HwConfig hw = test_hw();
  sem::GlobalMemory gm;
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  gm.write(0x1000, x.data(), 32);
  iss::Iss s(hw.machine(), p, gm, {0x1000, 0x2000}, 1);
  s.run();
  EXPECT_EQ(get<float>(s.core(0), Buffer::Ub, 64, 8), std::vector<float>(8, 0.0f));
  EXPECT_EQ(get<float>(s.core(0), Buffer::Ub, 128, 8), x);
}

TEST(Iss, InstructionLimitReportsHang) {
  // Two AIVs issue one jmp per round each: after 5 rounds aiv0 finds the budget of 10 spent.
  auto p = program({I(Op::JMP, {0})});
  EXPECT_EQ(run_error(p, 1, 10),
            "run limit: the run needs more than sim.max_instructions = 10 instructions (raise it with "
            "--set sim.max_instructions=N or --max-instructions N) in 'k'. Where each core was:\n"
            "  2 AIVs (cluster0.aiv{0..1}) SCALAR pc 0 (jmp L0): ready\n");
}

TEST(Iss, InstructionLimitEndsPipeLoops) {
  // Loops that keep the pipes busy never deadlock; only the limit ends them.
  auto vector_loop = program({I(Op::VADDS, {Dtype::F32, 64, 0, R(0), 8}), I(Op::JMP, {0})});
  EXPECT_THAT(run_error(vector_loop, 1, 100), HasSubstr("needs more than sim.max_instructions = 100 instructions"));
  auto flag_loop = program({I(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, 0}),
                            I(Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, 0}), I(Op::JMP, {0})});
  const std::string m = run_error(flag_loop, 1, 100);
  EXPECT_THAT(m, HasSubstr("needs more than sim.max_instructions = 100 instructions"));
  EXPECT_THAT(m, HasSubstr("  2 AIVs (cluster0.aiv{0..1}) SCALAR pc "));
}

TEST(Iss, LaunchErrors) {
  auto p = program({I(Op::END, {})});
  hw::HwConfig hw = test_hw();
  sem::GlobalMemory gm;
  try {
    iss::Iss s(hw.machine(), p, gm, {1}, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "launch of 'k': 2 kernel parameters declared, 1 values given");
  }
  EXPECT_EQ(run_error(program({I(Op::NOP, {})}), 1),
            "cluster0.aiv0 pc 1 (nop): pc is past the end of the code (1 instructions): the program ran off its "
            "end without `end`");
}

}  // namespace
}  // namespace npu::semtest
