// Disassembler (isa/disasm.h), and disassemble -> assemble round trips over every opcode.
#include <gtest/gtest.h>

#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "isa/object.h"
#include "testbench/isa/asm_test_util.h"

namespace npu::isa {
namespace {

TEST(Disasm, Examples) {
  Instr v;
  v.op = Op::VADD;
  v.f[0] = {false, static_cast<int64_t>(Dtype::F32)};
  v.f[1] = {false, 0x100};
  v.f[2] = {false, 0x200};
  v.f[3] = {true, 5};
  v.f[4] = {false, 64};
  EXPECT_EQ(disassemble(v), "vadd.f32 0x100, 0x200, r5, 64");

  Instr a;
  a.op = Op::ADD;
  a.f[0] = {true, 1};
  a.f[1] = {true, 0};
  a.f[2] = {false, -7};
  EXPECT_EQ(disassemble(a), "add r1, r0, -7");
  a.f[2] = {false, -1082130432};  // f32(-1.0): large patterns print in hex
  EXPECT_EQ(disassemble(a), "add r1, r0, 0xbf800000");

  Instr f;  // every optional operand is printed
  f.op = Op::FIX;
  f.f[0] = {false, static_cast<int64_t>(Dtype::F32)};
  f.f[1] = {false, static_cast<int64_t>(Dtype::BF16)};
  f.f[2] = {true, 3};
  f.f[3] = {false, 0};
  f.f[4] = {false, 16};
  f.f[5] = {false, 32};
  f.f[6] = {false, 64};
  f.f[8] = {true, 0};
  EXPECT_EQ(disassemble(f), "fix.f32.bf16 r3, 0x0, 16, 32, 64, noquant, r0, 0");

  Program ctx;
  ctx.params = {{"x", ParamKind::Gm, std::nullopt}, {"eps", ParamKind::F32, std::nullopt}};
  Instr l;
  l.op = Op::LDP;
  l.f[0] = {true, 2};
  l.f[1] = {false, 1};
  EXPECT_EQ(disassemble(l, &ctx), "ldp r2, eps");
  EXPECT_EQ(disassemble(l), "ldp r2, p1");
  Instr j;
  j.op = Op::BNE;
  j.f[0] = {true, 4};
  j.f[1] = {false, 0};
  j.f[2] = {false, 12};
  EXPECT_EQ(disassemble(j), "bne r4, 0, L12");
  EXPECT_EQ(disassemble(j, nullptr, [](int64_t pc) { return "loop+" + std::to_string(pc); }), "bne r4, 0, loop+12");
  Instr s;
  s.op = Op::SET_FLAG;
  s.f[0] = {false, static_cast<int64_t>(Pipe::Mte2)};
  s.f[1] = {false, static_cast<int64_t>(Pipe::Vector)};
  s.f[2] = {false, 3};
  EXPECT_EQ(disassemble(s), "set_flag mte2, vector, 3");
}

TEST(Disasm, ProgramText) {
  Program p;
  p.name = "k";
  p.params = {{"x", ParamKind::Gm, Dtype::BF16}, {"n", ParamKind::Int, std::nullopt}};
  p.aic.present = true;
  Instr j;
  j.op = Op::JMP;
  j.f[0] = {false, 0};
  Instr e;
  e.op = Op::END;
  p.aic.code = {j, e};
  p.aic.labels = {{1, "tail"}};
  EXPECT_EQ(disassemble_program(p),
            "# disassembled by npusim disasm\n"
            ".kernel k\n"
            ".param x, gm, bf16\n"
            ".param n, int\n"
            "\n.aic\n"
            "L0:\n"
            "    jmp L0\n"
            ".semantic tail\n"
            "    end\n");
}

// Every opcode, many random legal operands: disassemble one instruction, assemble it back.
TEST(Disasm, EveryOpcodeAssemblesBackIdentically) {
  std::mt19937_64 rng(42);
  Program ctx;
  ctx.params = {{"x", ParamKind::Gm, std::nullopt}, {"y", ParamKind::Int, std::nullopt}, {"z", ParamKind::F32, std::nullopt}};
  for (const InstrDef& d : table()) {
    std::string src = ".param x, gm\n.param y, int\n.param z, f32\n";
    std::vector<Instr> want;
    for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
      if (d.cores != CoreMask::Any && (d.cores == CoreMask::AicOnly) != (ct == CoreType::Aic)) continue;
      src += ct == CoreType::Aic ? ".aic\nL0:\n" : ".aiv\nL0:\n";
      for (int k = 0; k < 60; ++k) {
        Instr in = test::random_instr(d.op, ct, rng, 1, 3);
        want.push_back(in);
        src += "  " + disassemble(in, &ctx) + "\n";
      }
    }
    AsmResult r = assemble(src, "roundtrip.s", Arch::A5);
    ASSERT_TRUE(r.program) << d.mnemonic << "\n" << r.format_diags();
    std::vector<Instr> got = r.program->aic.code;
    got.insert(got.end(), r.program->aiv.code.begin(), r.program->aiv.code.end());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << disassemble(want[i], &ctx) << " came back as " << disassemble(got[i], &ctx);
      ASSERT_EQ(encode(got[i]), encode(want[i]));
    }
  }
}

// A whole program: object write/read, then disassemble_program -> assemble -> identical bytes.
TEST(Disasm, WholeProgramRoundTrip) {
  std::mt19937_64 rng(43);
  Program p = test::random_program(rng, 3);
  std::vector<uint8_t> bytes = write_object(p);
  Program q = read_object(bytes);
  std::string text = disassemble_program(q);
  AsmResult r = assemble(text, "whole.s", Arch::A5);
  ASSERT_TRUE(r.program) << r.format_diags();
  EXPECT_EQ(write_object(*r.program), bytes);
  EXPECT_EQ(disassemble_program(*r.program), text);
}

}  // namespace
}  // namespace npu::isa
