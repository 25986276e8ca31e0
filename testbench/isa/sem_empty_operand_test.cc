// Instructions whose operands hold no element (count, rows, m or burst 0): they do nothing,
// fault on nothing and write no byte. (Under the sanitizer build these paths once passed null
// pointers to memcpy: the empty element vectors' data().)
#include <algorithm>
#include <string>
#include <vector>

#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

// Every byte of `b` on `core` set to 0xAB, so that a stray write shows.
void fill(sem::CoreState& core, Buffer b) {
  std::fill(core.buffer(b).data(), core.buffer(b).data() + core.buffer(b).size(), uint8_t{0xAB});
}
bool untouched(const sem::CoreState& core, Buffer b) {
  const uint8_t* p = core.buffer(b).data();
  return std::all_of(p, p + core.buffer(b).size(), [](uint8_t v) { return v == 0xAB; });
}

TEST(SemEmptyOperands, VectorOpsWithoutElementsWriteNothing) {
  Cluster c;
  fill(c.aiv0, Buffer::Ub);
  const std::vector<isa::Instr> ops = {
      I(Op::VADD, {Dtype::F32, 64, 0, 32, 0}),        I(Op::VADD, {Dtype::S32, 64, 0, 32, 0}),
      I(Op::VADDS, {Dtype::BF16, 64, 0, 0, 0}),       I(Op::VABS, {Dtype::F16, 64, 0, 0}),
      I(Op::VEXP, {Dtype::F32, 64, 0, 0}),            I(Op::VCOPY, {Dtype::F32, 64, 0, 0}),
      I(Op::VDUP, {Dtype::F32, 64, 0, 0}),            I(Op::VCAST, {Dtype::F32, Dtype::BF16, isa::RoundMode::Rne, 64, 0, 0}),
      I(Op::VRSUM, {Dtype::F32, 64, 0, 0, 4, 16}),    I(Op::VROW, {isa::VecOp::Add, Dtype::F32, 64, 0, 128, 0, 4, 16}),
      I(Op::VCOL, {isa::VecOp::Mul, Dtype::F32, 64, 0, 128, 0, 4, 16})};
  for (const isa::Instr& in : ops) EXPECT_EQ(c.error(c.aiv0, in), "") << isa::def(in.op).mnemonic;
  EXPECT_TRUE(untouched(c.aiv0, Buffer::Ub));
}

TEST(SemEmptyOperands, CubeFixPipeAndCopiesWithoutElementsWriteNothing) {
  Cluster c(isa::Arch::A5);
  for (Buffer b : {Buffer::L1, Buffer::L0C}) fill(c.aic, b);
  fill(c.aiv0, Buffer::Ub);
  const std::vector<std::pair<sem::CoreState*, isa::Instr>> ops = {
      {&c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 0, 16, 16})},
      {&c.aic, I(Op::MMAD_MX, {isa::MxType::E4M3, 0, 0, 0, R(1), R(1), 0, 32, 16})},  // r1 = 0: scale offsets
      {&c.aic, I(Op::FIX_UB, {Dtype::F32, Dtype::F32, 0, 0, 0, 4, 0, 64})},
      {&c.aic, I(Op::FIX_UB, {Dtype::F32, Dtype::BF16, 0, 0, 0, 0, 16, 64})},
      {&c.aiv0, I(Op::MOV_UB_L1, {0, 0, 0, 32, 32, 32})},
      {&c.aiv0, I(Op::MOV_UB_L1, {0, 0, 4, 0, 32, 32})},
      {&c.aic, I(Op::MOV_L1_UB, {0, 0, 0, 4, 0, 32, 32})}};
  for (const auto& [core, in] : ops) EXPECT_EQ(c.error(*core, in), "") << isa::def(in.op).mnemonic;
  EXPECT_TRUE(untouched(c.aic, Buffer::L1));
  EXPECT_TRUE(untouched(c.aic, Buffer::L0C));
  EXPECT_TRUE(untouched(c.aiv0, Buffer::Ub));
}

}  // namespace
}  // namespace npu::semtest
