// The assembler never crashes, hangs or throws on hostile input (a small in-tree fuzz).
#include <gtest/gtest.h>

#include <random>

#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "testbench/isa/asm_test_util.h"

namespace npu::isa {
namespace {

void run(const std::string& src) {
  AsmResult r = assemble(src, "fuzz.s", Arch::A5);
  // Either a program or at least one diagnostic, and formatting works.
  EXPECT_TRUE(r.program.has_value() != !r.diags.empty());
  (void)r.format_diags();
}

TEST(AsmFuzz, RandomBytes) {
  std::mt19937_64 rng(1);
  for (int k = 0; k < 300; ++k) {
    std::string s(rng() % 400, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    run(s);
  }
}

TEST(AsmFuzz, RandomTokenSoup) {
  const char* toks[] = {".aic", ".aiv", ".macro", ".endm", ".rept", ".endr", ".equ", ".reg", ".param", ".kernel",
                        ".semantic", "m", "x", "r1", "r99", "0x", "0b2", "(", ")", ",", ":", "\\@", "\\x", "f32(",
                        "kib(", "1e5", "-", "<<", "/", "0", "vadd.f32", "mov", "jmp", "L1", "\n", "\n", "#", "//",
                        "99999999999999999999", "~", "%", "vcast.f32.f16.rne", "fix.s32.f32", "set_flag"};
  std::mt19937_64 rng(2);
  for (int k = 0; k < 1500; ++k) {
    std::string s;
    int n = rng() % 60;
    for (int i = 0; i < n; ++i) s += std::string(toks[rng() % (sizeof(toks) / sizeof(toks[0]))]) + (rng() % 3 ? " " : "");
    run(s);
  }
}

TEST(AsmFuzz, TruncatedAndMutatedValidProgram) {
  std::mt19937_64 rng(3);
  std::string text = disassemble_program(test::random_program(rng, 1));
  for (size_t n = 0; n < text.size(); n += 23) run(text.substr(0, n));
  for (int k = 0; k < 150; ++k) {
    std::string s = text;
    for (int j = 0; j < 4; ++j) s[rng() % s.size()] = "0x,()r.:\\@ \n-"[rng() % 13];
    run(s);
  }
}

TEST(AsmFuzz, ExpansionLimits) {
  // Mutual recursion, an exponential macro, a huge .rept and deep parentheses all end in errors.
  run(".macro a\nb\n.endm\n.macro b\na\n.endm\n.aic\na\n");
  run(".macro d\nd\nd\n.endm\n.aic\nd\n");
  run(".aic\n.rept 100000\n.rept 100000\n.endr\n.endr\n");
  run(".aic\n.rept 100000\n.rept 100000\nnop\n.endr\n.endr\n");
  run(".aic\nmov r1, " + std::string(100000, '(') + "1\n");
  run(".aic\nmov r1, " + std::string(100000, '-') + "1\n");
  AsmResult r = assemble(".aic\n.rept 100001\nnop\n.endr\n", "t.s");
  EXPECT_EQ(r.format_diags(), "t.s:2:7: error: .rept count 100001 out of range (0..100000)\n.rept 100001\n      ^\n");
}

}  // namespace
}  // namespace npu::isa
