// `.include "FILE"`: textual inclusion relative to the including file, with diagnostics that
// name the included file and its own line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "isa/asm/assembler.h"

namespace npu::isa {
namespace {

namespace fs = std::filesystem;

class AsmInclude : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("npusim_asm_include_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "lib");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& rel, const std::string& text) {
    std::ofstream(dir_ / rel) << text;
    return (dir_ / rel).string();
  }
  fs::path dir_;
};

const char* kInline = ".kernel k\n.aiv\n    mov r1, 5\n    add r1, r1, 7\n    end\n";

TEST_F(AsmInclude, SplicesMacrosFromALibraryRelativeToTheIncluder) {
  write("lib/ops.inc", ".macro bump reg, n\n    add \\reg, \\reg, \\n\n.endm\n");
  const std::string main = write("k.s", ".kernel k\n.include \"lib/ops.inc\"  # shared macros\n.aiv\n"
                                        "    mov r1, 5\n    bump r1, 7\n    end\n");
  AsmResult got = assemble_file(main);
  AsmResult want = assemble(kInline, "inline.s");
  ASSERT_TRUE(got.program) << got.format_diags();
  ASSERT_TRUE(want.program);
  EXPECT_EQ(got.program->aiv.code, want.program->aiv.code);
}

TEST_F(AsmInclude, ErrorsNameTheIncludedFileAndLine) {
  const std::string inc = write("lib/bad.inc", "# line 1\n    frob r1\n");
  const std::string main = write("k.s", ".kernel k\n.aiv\n.include \"lib/bad.inc\"\n    end\n");
  AsmResult r = assemble_file(main);
  ASSERT_FALSE(r.program);
  EXPECT_EQ(r.format_diags(), inc + ":2:5: error: unknown mnemonic 'frob'\n    frob r1\n    ^\n");
}

// A macro library's nested macros: an error is located at the invocation in the kernel and
// names the lines inside the included file; the source map gives an instruction's whole chain.
TEST_F(AsmInclude, MacroChainsNameTheIncludedLines) {
  const std::string inc = write("lib/ops.inc", "# line 1\n.macro inner\n    nop 1\n.endm\n.macro outer\n    inner\n    nop\n.endm\n");
  const std::string bad = write("bad.s", ".kernel k\n.include \"lib/ops.inc\"\n.aiv\n    outer\n    end\n");
  AsmResult r = assemble_file(bad);
  ASSERT_FALSE(r.program);
  EXPECT_EQ(r.format_diags(), bad + ":4:5: error: wrong operand count for 'nop': expected 0 (), got 1 (in expansion of "
                                    "macro 'outer -> inner' at " + inc + ":3, via " + inc + ":6)\n    outer\n    ^\n");
  write("lib/ops.inc", "# line 1\n.macro inner\n    nop\n.endm\n.macro outer\n    inner\n    nop\n.endm\n");
  AsmResult ok = assemble_file(bad);
  ASSERT_TRUE(ok.program) << ok.format_diags();
  EXPECT_EQ(ok.program->where(CoreType::Aiv, 0), inc + ":3 (via " + inc + ":6, " + bad + ":4)");
  EXPECT_EQ(ok.program->where(CoreType::Aiv, 1), inc + ":7 (via " + bad + ":4)");
  EXPECT_EQ(ok.program->where(CoreType::Aiv, 2), bad + ":5");
}

TEST_F(AsmInclude, MissingFileCycleAndMalformedDirective) {
  write("a.inc", ".include \"b.inc\"\n");
  write("b.inc", ".include \"a.inc\"\n");
  const std::string main = write("k.s", ".kernel k\n.include \"nope.inc\"\n.include \"a.inc\"\n.include nope\n.aiv\n    end\n");
  AsmResult r = assemble_file(main);
  ASSERT_FALSE(r.program);
  const std::string d = r.format_diags();
  EXPECT_NE(d.find(main + ":2:10: error: cannot include '" + (dir_ / "nope.inc").string() + "': cannot open: "),
            std::string::npos) << d;
  EXPECT_NE(d.find((dir_ / "b.inc").string() + ":1:10: error: include cycle: 'a.inc' is already being included"),
            std::string::npos) << d;
  EXPECT_NE(d.find(main + ":4:10: error: expected .include \"FILE\""), std::string::npos) << d;
}

// A directory or an endless device is refused at the directive, not included as nothing.
TEST_F(AsmInclude, DirectoryAndEndlessFileAreRefused) {
  const std::string main = write("k.s", ".kernel k\n.include \".\"\n.include \"/dev/zero\"\n.aiv\n    end\n");
  AsmResult r = assemble_file(main);
  ASSERT_FALSE(r.program);
  const std::string d = r.format_diags();
  EXPECT_NE(d.find(main + ":2:10: error: cannot include '" + (dir_ / ".").string() + "': is a directory, not a file"),
            std::string::npos) << d;
  EXPECT_NE(d.find(main + ":3:10: error: cannot include '/dev/zero': larger than the 16 MiB limit"),
            std::string::npos) << d;
}

}  // namespace
}  // namespace npu::isa
