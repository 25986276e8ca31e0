// The assembler (isa/asm/assembler.h): features and golden error text.
#include <gtest/gtest.h>

#include <cstring>

#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "isa/isa_doc.h"
#include "testbench/isa/asm_test_util.h"

namespace npu::isa {
namespace {

Program ok(const std::string& src, Arch arch = Arch::A2) {
  AsmResult r = assemble(src, "t.s", arch);
  EXPECT_TRUE(r.program) << r.format_diags();
  EXPECT_TRUE(r.diags.empty());
  return r.program ? *r.program : Program{};
}

std::string errors(const std::string& src, Arch arch = Arch::A2) {
  AsmResult r = assemble(src, "t.s", arch);
  EXPECT_FALSE(r.program);
  return r.format_diags();
}

// Disassembly of every instruction of a section, one per line.
std::string code(const Program& p, CoreType ct = CoreType::Aiv) {
  std::string s;
  for (const Instr& in : p.section(ct).code) s += disassemble(in, &p) + "\n";
  return s;
}

TEST(Asm, Expressions) {
  Program p = ok(R"(
.equ A, 10
.equ B, (A + 2) * 3 - 1        # 35
.aiv
  mov r1, 1_000 + 0x10 + 0b101   # 1000 + 16 + 5
  mov r2, B % 4 << 2             # (35 % 4) << 2 = 12
  mov r3, -8 >> 1 | 1            # arithmetic shift: -4 | 1 = -3
  mov r4, ~0 ^ 0xff & 0xf0       # ~0 ^ (0xff & 0xf0) = -1 ^ 0xf0 = -241
  mov r5, f32(1.0)               # 0x3f800000
  mov r6, f32(-2.5e-1 * 2)       # -0.5 = 0xbf000000
  mov r7, kib(3) / 7             # 3072 / 7 = 438
  mov r8, C                      # defined below
  mov r9, f32(1e-6)              # 0x358637bd
  mov r10, -9 / 2 + -9 % 2       # -4 + -1 (toward zero)
  add r11, r0, 0xffffffff        # a 32-bit pattern wraps to -1
.equ C, B + 1
)");
  EXPECT_EQ(code(p),
            "mov r1, 1021\n"
            "mov r2, 12\n"
            "mov r3, -3\n"
            "mov r4, -241\n"
            "mov r5, 0x3f800000\n"
            "mov r6, 0xbf000000\n"
            "mov r7, 438\n"
            "mov r8, 36\n"
            "mov r9, 0x358637bd\n"
            "mov r10, -5\n"
            "add r11, r0, -1\n");
}

TEST(Asm, MacrosReptAliasesParamsLabelsSections) {
  Program p = ok(R"(
.kernel demo
.param x, gm, bf16
.param n, int
.reg  cnt, r7
.macro addi d, s, imm          // \@ gives each expansion its own label
top\@:
    add \d, \s, \imm
    bne \d, 0, top\@
.endm
.aic
.semantic cube_part
    ldp r1, x
    end
.aiv
    ldp cnt, n
.semantic vec
.rept 2, i
    vadds.f32 0x100 * i, 0x0, f32(0.5), 8 + \i
.endr
    addi r2, cnt, 4
    addi r3, r2, -1
done: end
)");
  EXPECT_EQ(p.name, "demo");
  ASSERT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.params[0].kind, ParamKind::Gm);
  EXPECT_EQ(p.params[0].dtype, Dtype::BF16);
  EXPECT_EQ(p.params[1].kind, ParamKind::Int);
  EXPECT_FALSE(p.params[1].dtype);
  EXPECT_TRUE(p.aic.present);
  EXPECT_EQ(code(p, CoreType::Aic), "ldp r1, x\nend\n");
  ASSERT_EQ(p.aic.labels.size(), 1u);
  EXPECT_EQ(p.aic.labels[0].pc, 0u);
  EXPECT_EQ(p.aic.labels[0].name, "cube_part");
  EXPECT_EQ(code(p),
            "ldp r7, n\n"
            "vadds.f32 0x0, 0x0, 0x3f000000, 8\n"
            "vadds.f32 0x100, 0x0, 0x3f000000, 9\n"
            "add r2, r7, 4\n"
            "bne r2, 0, L3\n"     // first expansion's label: pc 3
            "add r3, r2, -1\n"
            "bne r3, 0, L5\n"     // second expansion's own label: pc 5
            "end\n");
  ASSERT_EQ(p.aiv.labels.size(), 1u);
  EXPECT_EQ(p.aiv.labels[0].pc, 1u);
  EXPECT_EQ(p.aiv.labels[0].name, "vec");
}

TEST(Asm, NestedReptAndMacroInRept) {
  Program p = ok(R"(
.macro put v
    mov r1, \v
.endm
.aic
.rept 2, i
  .rept 3, j
    put i * 10 + j
  .endr
.endr
)");
  EXPECT_EQ(code(p, CoreType::Aic), "mov r1, 0\nmov r1, 1\nmov r1, 2\nmov r1, 10\nmov r1, 11\nmov r1, 12\n");
}

TEST(Asm, OptionalOperandsTakeTableDefaults) {
  Program p = ok(".aic\n fix.f32.bf16 r3, 0, 16, 32, 64\n mmad.bf16 0, 0, 0, 16, 16, 16\n mov_gm_l1 0, r1, 1, 32, 0, 0\n");
  EXPECT_EQ(code(p, CoreType::Aic),
            "fix.f32.bf16 r3, 0x0, 16, 32, 64, noquant, r0, 0\n"
            "mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16, 1\n"
            "mov_gm_l1 0x0, r1, 1, 32, 0, 0, normal\n");
}

TEST(Asm, DocExampleAssembles) {
  // The example at the top of docs/isa.md must stay valid.
  std::string doc = generate_isa_markdown();
  size_t b = doc.find("```\n"), e = doc.find("```\n", b + 4);
  ASSERT_NE(e, std::string::npos);
  Program p = ok(doc.substr(b + 4, e - b - 4));
  EXPECT_EQ(p.name, "rmsnorm");
  EXPECT_EQ(p.aiv.code.size(), 10u);
}

// ---------------------------------------------------------------- golden errors

TEST(AsmErrors, UnknownMnemonic) {
  EXPECT_EQ(errors(".aiv\n  vfoo.f32 0, 0, 0\n"),
            "t.s:2:3: error: unknown mnemonic 'vfoo'\n"
            "  vfoo.f32 0, 0, 0\n"
            "  ^\n");
}

TEST(AsmErrors, WrongOperandCount) {
  EXPECT_EQ(errors(".aiv\nvadd.f32 0, 0, 64\n"),
            "t.s:2:1: error: wrong operand count for 'vadd': expected 4 (dst, src0, src1, count), got 3\n"
            "vadd.f32 0, 0, 64\n"
            "^\n");
  EXPECT_EQ(errors(".aiv\nmov_gm_ub 0, r1, 1\n"),
            "t.s:2:1: error: wrong operand count for 'mov_gm_ub': expected 6 to 7 "
            "(dst, src, nburst, burst, src_stride, dst_stride, [hint]), got 3\n"
            "mov_gm_ub 0, r1, 1\n"
            "^\n");
}

TEST(AsmErrors, ImmediateOutOfRange) {
  EXPECT_EQ(errors(".aiv\n\tvadd.f32 0x40000, 0, 0, 64\n"),
            "t.s:2:11: error: immediate out of range for 'dst': 262144 (allowed 0..262143)\n"
            "\tvadd.f32 0x40000, 0, 0, 64\n"
            "\t         ^\n");
  EXPECT_EQ(errors(".aic\nadd r1, r2, 1 << 32\n"),
            "t.s:2:13: error: immediate out of range for 'src': 4294967296 "
            "(allowed -2147483648..2147483647, or a 32-bit pattern up to 0xffffffff)\n"
            "add r1, r2, 1 << 32\n"
            "            ^\n");
  EXPECT_EQ(errors(".aic\nset_flag mte2, mte1, 8\n"),
            "t.s:2:22: error: immediate out of range for 'id': 8 (allowed 0..7)\n"
            "set_flag mte2, mte1, 8\n"
            "                     ^\n");
}

TEST(AsmErrors, RegisterWhereImmediateNeededAndViceVersa) {
  EXPECT_EQ(errors(".aic\nset_flag mte2, mte1, r3\nadd 5, r1, r2\n"),
            "t.s:2:22: error: 'id' must be an immediate, got register 'r3'\n"
            "set_flag mte2, mte1, r3\n"
            "                     ^\n"
            "t.s:3:5: error: 'rd' must be a register, got '5'\n"
            "add 5, r1, r2\n"
            "    ^\n");
  EXPECT_EQ(errors(".aic\nmov r32, 1\n"),
            "t.s:2:5: error: no register 'r32' (r0..r31)\n"
            "mov r32, 1\n"
            "    ^\n");
}

TEST(AsmErrors, UnknownAndDuplicateLabels) {
  EXPECT_EQ(errors(".aic\nloop: nop\nloop: jmp nowhere\n.aiv\n jmp loop\n"),
            "t.s:3:1: error: duplicate label 'loop' (first defined at line 2)\n"
            "loop: jmp nowhere\n"
            "^\n"
            "t.s:3:11: error: unknown label 'nowhere'\n"
            "loop: jmp nowhere\n"
            "          ^\n"
            "t.s:5:6: error: unknown label 'loop' in the aiv section (it is defined in the aic section)\n"
            " jmp loop\n"
            "     ^\n");
}

TEST(AsmErrors, BadSuffix) {
  EXPECT_EQ(errors(".aiv\nvadd.f64 0, 0, 0, 64\nvadd 0, 0, 0, 64\nadd.f32 r1, r1, 1\n"),
            "t.s:2:5: error: bad suffix '.f64' for 'vadd': expected a dtype "
            "(f32, f16, bf16, s32, s16, s8, u8, e4m3, e5m2, e8m0)\n"
            "vadd.f64 0, 0, 0, 64\n"
            "    ^\n"
            "t.s:3:5: error: 'vadd' needs 1 suffix (.dt), got 0\n"
            "vadd 0, 0, 0, 64\n"
            "    ^\n"
            "t.s:4:4: error: 'add' takes no suffix\n"
            "add.f32 r1, r1, 1\n"
            "   ^\n");
}

TEST(AsmErrors, ArchAndCoreAvailability) {
  EXPECT_EQ(errors(".aic\nmmad_mx.e4m3 0, 0, 0, r1, r2, 16, 64, 16\n"),
            "t.s:2:1: error: 'mmad_mx' is only available on a5 (target arch is a2)\n"
            "mmad_mx.e4m3 0, 0, 0, r1, r2, 16, 64, 16\n"
            "^\n");
  ok(".aic\nmmad_mx.e4m3 0, 0, 0, r1, r2, 16, 64, 16\n", Arch::A5);
  EXPECT_EQ(errors(".aic\n  vadd.f32 0, 0, 0, 64\n"),
            "t.s:2:3: error: 'vadd' runs only on AIV cores, not in the aic section\n"
            "  vadd.f32 0, 0, 0, 64\n"
            "  ^\n");
}

TEST(AsmErrors, DtypeAndSyncRules) {
  EXPECT_EQ(errors(".aiv\nvexp.s32 0, 0, 8\nset_flag vector, vector, 0\nset_flag cube, mte3, 0\n"
                   "vcast.f32.e4m3.rne 0, 0, 8\n"),
            "t.s:2:1: error: 'vexp' does not support dtype s32 (allowed: f32, f16, bf16)\n"
            "vexp.s32 0, 0, 8\n"
            "^\n"
            "t.s:3:1: error: 'set_flag': src and dst must be different pipes (both vector)\n"
            "set_flag vector, vector, 0\n"
            "^\n"
            "t.s:4:1: error: 'set_flag': pipe cube does not exist on AIV\n"
            "set_flag cube, mte3, 0\n"
            "^\n"
            "t.s:5:1: error: 'vcast' does not support dtype e4m3 (allowed: f32, f16, bf16, s32, s16, s8, u8)\n"
            "vcast.f32.e4m3.rne 0, 0, 8\n"
            "^\n");
  ok(".aiv\nvcast.f32.e4m3.rne 0, 0, 8\n", Arch::A5);
  EXPECT_EQ(errors(".aic\nfix.f32.s8 r1, 0, 16, 16, 64\ncc_set fixp, 3, 0\n"),
            "t.s:2:1: error: 'fix' cannot convert f32 to s8 (allowed: f32 -> bf16, f16, f32; s32 -> f32, bf16, f16, s32)\n"
            "fix.f32.s8 r1, 0, 16, 16, 64\n"
            "^\n"
            "t.s:3:1: error: 'cc_set': mode 3 out of range (0..2)\n"
            "cc_set fixp, 3, 0\n"
            "^\n");
}

TEST(AsmErrors, UnterminatedMacro) {
  EXPECT_EQ(errors(".aic\n  .macro m a\n  nop\n"),
            "t.s:2:3: error: unterminated macro 'm' (missing .endm)\n"
            "  .macro m a\n"
            "  ^\n");
  EXPECT_EQ(errors(".aic\n.rept 3\nnop\n.endm\n"),
            "t.s:2:1: error: unterminated .rept (missing .endr)\n"
            ".rept 3\n"
            "^\n");
}

// The target config's constants: predefined, recorded in the program only when used, reserved.
TEST(Asm, TargetConstantsArePredefinedAndTheUsedOnesRecorded) {
  const AsmTarget t{Arch::A2, "cfg", {{"CFG_A", 100}, {"CFG_B", 7}, {"CFG_C", 1}}};
  AsmResult r = assemble(".equ HALF, CFG_A / 2\n.equ UNUSED, 1\n.aiv\n  mov r1, HALF + CFG_B\n  end\n", "t.s", t);
  ASSERT_TRUE(r.program) << r.format_diags();
  EXPECT_EQ(code(*r.program), "mov r1, 57\nend\n");
  EXPECT_EQ(r.program->target_symbols, (std::vector<TargetSymbol>{{"CFG_A", 100}, {"CFG_B", 7}}));
  EXPECT_EQ(r.program->target_config, "cfg");
  AsmResult none = assemble(".aiv\n  end\n", "t.s", t);  // uses none: runs on any config
  ASSERT_TRUE(none.program);
  EXPECT_TRUE(none.program->target_symbols.empty());
  EXPECT_EQ(none.program->target_config, "");
  AsmResult redef = assemble(".equ CFG_A, 1\n.aiv\n  end\n", "t.s", t);
  EXPECT_EQ(redef.format_diags(), "t.s:1:6: error: 'CFG_A': names starting with CFG_ are the target config's constants "
                                  "(docs/kernels.md); choose another name\n.equ CFG_A, 1\n     ^\n");
  EXPECT_EQ(errors(".aiv\n  mov r1, CFG_A\n"),
            "t.s:2:11: error: undefined constant 'CFG_A': CFG_ constants come from the target hardware config "
            "(assemble with one, e.g. npusim asm --config; docs/kernels.md lists them)\n  mov r1, CFG_A\n          ^\n");
}

TEST(AsmErrors, UndefinedConstantAndDivisionByZero) {
  EXPECT_EQ(errors(".aic\nmov r1, 4 * SIZE\nmov r2, 8 / (2 - 2)\n"),
            "t.s:2:13: error: undefined constant 'SIZE'\n"
            "mov r1, 4 * SIZE\n"
            "            ^\n"
            "t.s:3:11: error: division by zero\n"
            "mov r2, 8 / (2 - 2)\n"
            "          ^\n");
  EXPECT_EQ(errors(".equ A, B + 1\n.equ B, A\n.aic\nmov r1, A\nmov r2, 1.5\n"),
            "t.s:1:9: error: constant 'A' is defined in terms of itself\n"
            ".equ A, B + 1\n"
            "        ^\n"
            "t.s:5:9: error: float literal '1.5' is only allowed inside f32()\n"
            "mov r2, 1.5\n"
            "        ^\n");
}

TEST(AsmErrors, ErrorsInMacrosPointAtTheInvocation) {
  EXPECT_EQ(errors(".macro bad x\n  vadd.f32 \\x, 0, 0\n.endm\n.aiv\n   bad 16\n"),
            "t.s:5:4: error: wrong operand count for 'vadd': expected 4 (dst, src0, src1, count), got 3 "
            "(in expansion of macro 'bad' at t.s:2)\n"
            "   bad 16\n"
            "   ^\n");
  // Runaway recursion stops at depth 64; a long chain of macros is shown abbreviated.
  EXPECT_EQ(errors(".macro m\n m\n.endm\n.aic\nm\n"),
            "t.s:5:1: error: macro expansion nested too deeply (limit 64) at 'm' "
            "(in expansion of macro 'm -> ... -> m', 64 levels)\n"
            "m\n"
            "^\n");
  EXPECT_EQ(errors(".macro in\n nop 1\n.endm\n.macro out\n in\n.endm\n.aic\n  out\n"),
            "t.s:8:3: error: wrong operand count for 'nop': expected 0 (), got 1 (in expansion of macro 'out -> in' at "
            "t.s:2, via t.s:5)\n"
            "  out\n"
            "  ^\n");
}

TEST(AsmErrors, EveryErrorInTheFileIsReported) {
  std::string out = errors(R"(.kernel k
.param x, gm
.aiv
  bogus r1
  vadd.f32 0, 0, 0
  ldp r1, y
  mov r2, 1 / 0
  jmp missing
  vadd.f32 0, 0, 0, 64
  .frobnicate
)");
  EXPECT_EQ(out,
            "t.s:4:3: error: unknown mnemonic 'bogus'\n  bogus r1\n  ^\n"
            "t.s:5:3: error: wrong operand count for 'vadd': expected 4 (dst, src0, src1, count), got 3\n"
            "  vadd.f32 0, 0, 0\n  ^\n"
            "t.s:6:11: error: unknown parameter 'y' (declare it with .param)\n  ldp r1, y\n          ^\n"
            "t.s:7:13: error: division by zero\n  mov r2, 1 / 0\n            ^\n"
            "t.s:8:7: error: unknown label 'missing'\n  jmp missing\n      ^\n"
            "t.s:10:3: error: unknown directive '.frobnicate'\n  .frobnicate\n  ^\n");
}

TEST(AsmErrors, DirectivesAndStructure) {
  EXPECT_EQ(errors("nop\n.param p, ptr\n.kernel a\n.kernel b\n"),
            "t.s:1:1: error: instruction outside a section (start one with .aic or .aiv)\nnop\n^\n"
            "t.s:2:11: error: bad parameter kind 'ptr' (expected gm, int or f32)\n.param p, ptr\n          ^\n"
            "t.s:4:1: error: .kernel already given at line 3\n.kernel b\n^\n");
  EXPECT_EQ(errors(""), "t.s:1:1: error: no code: the file has neither an .aic nor an .aiv section\n");
}

TEST(AsmErrors, ParameterLayout) {
  EXPECT_EQ(errors(".param n, int, nz\n.param w, gm, bf16, zz\n.param v, gm, bf16, nz, nd\n.aic\nend\n"),
            "t.s:1:16: error: a layout (nd, nz) is for gm parameters only\n.param n, int, nz\n               ^\n"
            "t.s:2:21: error: bad layout 'zz' (expected nd or nz)\n.param w, gm, bf16, zz\n                    ^\n"
            "t.s:3:25: error: expected '.param NAME, gm|int|f32 [, dtype] [, nd|nz]'\n.param v, gm, bf16, nz, nd\n                        ^\n");
}

TEST(AsmErrors, UnreadableFile) {
  AsmResult r = assemble_file("/nonexistent/k.s");
  EXPECT_FALSE(r.program);
  EXPECT_EQ(r.format_diags(), "/nonexistent/k.s: error: cannot open: No such file or directory\n");
  EXPECT_EQ(assemble_file("/").format_diags(), "/: error: is a directory, not a file\n");
  EXPECT_EQ(assemble_file("/dev/zero").format_diags(),
            "/dev/zero: error: larger than the 16 MiB limit for this kind of input\n");
}

}  // namespace
}  // namespace npu::isa
