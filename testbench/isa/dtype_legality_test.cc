// Dtype legality has one record, the instruction table's rules (isa/dtype_rules.h): the
// assembler (and the object loader) and the semantics ask the same function, so a hand-encoded
// instruction that never went through the assembler gets no wider (or narrower) set.
#include <gtest/gtest.h>

#include "isa/asm/assembler.h"
#include "isa/dtype_rules.h"
#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

using isa::Arch;

std::string asm_errors(const std::string& src, Arch arch) {
  isa::AsmResult r = isa::assemble(src, "t.s", arch);
  return r.program ? "" : r.format_diags();
}

// The first line of the diagnostics ("t.s:2:1: error: ...").
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(DtypeLegality, AssemblerAndSemanticsRefuseTheSameDtype) {
  // vadd.u8: the semantics used to accept it (their own integer list held u8).
  Cluster c;
  EXPECT_EQ(first_line(asm_errors(".aiv\nvadd.u8 64, 0, 32, 4\n", Arch::A2)),
            "t.s:2:1: error: 'vadd' does not support dtype u8 (allowed: f32, f16, bf16, s32, s16, s8)");
  EXPECT_EQ(c.error(c.aiv0, I(Op::VADD, {Dtype::U8, 64, 0, 32, 4})),
            "cluster0.aiv0 pc 0 (vadd.u8 0x40, 0x0, 0x20, 4): 'vadd' does not support dtype u8 "
            "(allowed: f32, f16, bf16, s32, s16, s8)");
  // fix f32 -> s8: the semantics' own destination list held s8; the table's conversions do not.
  const std::string fix_rule = "(allowed: f32 -> bf16, f16, f32; s32 -> f32, bf16, f16, s32)";
  EXPECT_EQ(first_line(asm_errors(".aic\nfix.f32.s8 r1, 0, 16, 16, 64\n", Arch::A2)),
            "t.s:2:1: error: 'fix' cannot convert f32 to s8 " + fix_rule);
  EXPECT_EQ(c.error(c.aic, I(Op::FIX, {Dtype::F32, Dtype::S8, R(1), 0, 16, 16, 64})),
            "cluster0.aic pc 0 (fix.f32.s8 r1, 0x0, 16, 16, 64, noquant, r0, 0): 'fix' cannot convert f32 to s8 " +
                fix_rule);
}

TEST(DtypeLegality, TableWidenedToTheDocumentedMachine) {
  // docs/machine.md section 4: int8 vector arithmetic everywhere, fp8 vector dtypes on a5, and
  // casts to the u8 / E8M0 types the semantics implement (E8M0 on a5).
  EXPECT_EQ(asm_errors(".aiv\nvadd.s8 64, 0, 32, 4\nvcast.f32.u8.rne 0, 64, 4\n", Arch::A2), "");
  EXPECT_EQ(asm_errors(".aiv\nvadd.e4m3 64, 0, 32, 4\nvexp.e5m2 0, 64, 4\nvcast.f32.e8m0.rne 0, 64, 4\n",
                       Arch::A5),
            "");
  EXPECT_EQ(first_line(asm_errors(".aiv\nvadd.e4m3 64, 0, 32, 4\n", Arch::A2)),
            "t.s:2:1: error: 'vadd' does not support dtype e4m3 (allowed: f32, f16, bf16, s32, s16, s8)");
  Cluster a2;
  EXPECT_EQ(a2.error(a2.aiv0, I(Op::VADD, {Dtype::E4M3, 64, 0, 32, 4})),
            "cluster0.aiv0 pc 0 (vadd.e4m3 0x40, 0x0, 0x20, 4): 'vadd' does not support dtype e4m3 "
            "(allowed: f32, f16, bf16, s32, s16, s8)");
  Cluster a5(Arch::A5);
  // e4m3 1.0 = 0x38 and 2.0 = 0x40 (0.0111.000, 0.1000.000): 1 + 2 = 3 = 0.1000.100 = 0x44.
  put<uint8_t>(a5.aiv0, Buffer::Ub, 0, {0x38});
  put<uint8_t>(a5.aiv0, Buffer::Ub, 32, {0x40});
  EXPECT_EQ(a5.error(a5.aiv0, I(Op::VADD, {Dtype::E4M3, 64, 0, 32, 1})), "");
  EXPECT_EQ(get<uint8_t>(a5.aiv0, Buffer::Ub, 64, 1)[0], 0x44);
}

// Every dtype (or dtype pair) of every instruction with a dtype field, on both architectures:
// the semantics refuse exactly what the table refuses, with the table's message, and refuse
// nothing the table allows for a dtype reason (other faults of the zero operands may remain).
TEST(DtypeLegality, SemanticsFollowTheTableForEveryDtype) {
  const int ndt = isa::enum_count(isa::EnumType::Dtype);
  int refused = 0, allowed = 0;
  for (Arch arch : {Arch::A2, Arch::A5}) {
    Cluster c(arch);
    for (const isa::InstrDef& d : isa::table()) {
      if (d.arch == isa::ArchMask::A5Only && arch != Arch::A5) continue;
      std::vector<int> dts;
      for (int i = 0; i < d.nfields; ++i)
        if (d.fields[i].kind == isa::FieldKind::Enum && d.fields[i].etype == isa::EnumType::Dtype) dts.push_back(i);
      if (dts.empty()) continue;
      isa::Instr in;
      in.op = d.op;
      for (int i = 0; i < d.nfields; ++i)
        in.f[i] = isa::Operand{d.fields[i].kind == isa::FieldKind::RegSrc, d.fields[i].default_value};
      int combos = 1;
      for (size_t k = 0; k < dts.size(); ++k) combos *= ndt;
      for (int combo = 0; combo < combos; ++combo) {
        for (size_t k = 0, v = combo; k < dts.size(); ++k, v /= ndt) in.f[dts[k]].value = v % ndt;
        sem::CoreState& core = d.cores == isa::CoreMask::AicOnly ? c.aic : c.aiv0;
        const std::string table = isa::first_dtype_error(in, arch);
        const std::string got = c.error(core, in);
        if (!table.empty()) {
          ++refused;
          EXPECT_NE(got.find("): " + table), std::string::npos) << got;
        } else {
          ++allowed;
          EXPECT_EQ(got.find("dtype"), std::string::npos) << got;
        }
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(allowed, 0);
}

}  // namespace
}  // namespace npu::semtest
