// `npusim asm` / `disasm` never destroy a file: a failing build leaves an existing output file as
// it was, and an output path that names the input (also through another path or a hard link) is
// refused with exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testbench/support/cli_support.h"
#include "testbench/support/paths.h"

namespace npu::test {
namespace {

using ::testing::HasSubstr;

const char* kGood = ".kernel k\n.param y, gm, f32\n.aiv\n    end\n";
const char* kBad = ".kernel k\n.aiv\n    frobnicate r1\n    end\n";

TEST(AsmCli, FailingAsmLeavesAnExistingOutputFileUntouched) {
  ScratchDir s;
  std::ofstream(s.path("x.s")) << kBad;
  std::ofstream(s.path("notes.txt")) << "my notes\n";
  CliResult r = run_npusim("asm " + s.path("x.s") + " -o " + s.path("notes.txt"), s);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("frobnicate"));
  EXPECT_EQ(slurp(s.path("notes.txt")), "my notes\n");
  EXPECT_EQ(s.entries(), (std::vector<std::string>{"notes.txt", "x.s"}));
}

TEST(AsmCli, OutputNamingTheInputIsRefused) {
  ScratchDir s;
  std::ofstream(s.path("bad.s")) << kBad;
  std::ofstream(s.path("good.s")) << kGood;
  std::filesystem::create_directory(s.path("sub"));
  ASSERT_EQ(::link(s.path("good.s").c_str(), s.path("alias.s").c_str()), 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bad.s", "bad.s"}, {"good.s", "good.s"}, {"good.s", "sub/../good.s"}, {"good.s", "alias.s"}};
  for (const auto& [in, out] : cases) {
    CliResult r = run_npusim("asm " + s.path(in) + " -o " + s.path(out), s);
    EXPECT_EQ(r.status, 2) << in << " -o " << out;
    EXPECT_THAT(r.err, HasSubstr("is the input file")) << in << " -o " << out;
  }
  EXPECT_EQ(slurp(s.path("bad.s")), kBad);
  EXPECT_EQ(slurp(s.path("good.s")), kGood);
  EXPECT_EQ(s.entries(), (std::vector<std::string>{"alias.s", "bad.s", "good.s", "sub"}));
}

TEST(AsmCli, SuccessfulAsmWritesTheObjectAndDisasmRefusesItsInput) {
  ScratchDir s;
  std::ofstream(s.path("good.s")) << kGood;
  ASSERT_EQ(run_npusim("asm " + s.path("good.s"), s).status, 0);
  const std::string obj = slurp(s.path("good.npuo"));
  EXPECT_FALSE(obj.empty());
  CliResult r = run_npusim("disasm " + s.path("good.npuo") + " -o " + s.path("good.npuo"), s);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is the input file"));
  EXPECT_EQ(slurp(s.path("good.npuo")), obj);
  EXPECT_EQ(run_npusim("disasm " + s.path("good.npuo") + " -o " + s.path("good.dis.s"), s).status, 0);
  EXPECT_THAT(slurp(s.path("good.dis.s")), HasSubstr("end"));
  EXPECT_EQ(s.entries(), (std::vector<std::string>{"good.dis.s", "good.npuo", "good.s"}));
}

// A kernel that sizes itself from the target config (CFG_ constants) records the values it used;
// its object runs on a config with the same values and is refused, exit 2, on one without them.
TEST(AsmCli, ObjectAssembledForOneConfigIsRefusedOnAnotherWithOtherFigures) {
  ScratchDir s;
  std::ofstream(s.path("k.s")) << ".kernel k\n.param y, gm, f32\n.equ UB, CFG_UB_BYTES\n.aiv\n"
                                  "    mov r1, UB\n    end\n";
  std::ofstream(s.path("case.yaml")) << "kernel: k.npuo\nblock_dim: 1\ntensors:\n"
                                        "  y: {dtype: f32, shape: [1], role: output}\n";
  const std::string tiny = source_path("configs/tiny.yaml"), a950 = source_path("configs/ascend950.yaml");
  ASSERT_EQ(run_npusim("asm " + s.path("k.s") + " --config " + tiny, s).status, 0);
  EXPECT_EQ(run_npusim("run " + s.path("case.yaml") + " --iss -q --config " + tiny, s).status, 3);  // runs; nothing to compare (NOT CHECKED)
  CliResult r = run_npusim("run " + s.path("case.yaml") + " --iss -q --config " + a950, s);
  EXPECT_EQ(r.status, 2);
  // tiny's UB is 192 KiB, ascend950's 248 KiB (configs/*.yaml buffers.ub.size).
  EXPECT_THAT(r.err, HasSubstr("kernel 'k' was assembled for config 'tiny' with CFG_UB_BYTES = 196608, "
                               "but config 'ascend950' has 253952"));
  EXPECT_THAT(r.err, HasSubstr("re-assemble the kernel for 'ascend950'"));
  // An --arch that contradicts the config is an error, not a silent choice.
  CliResult a = run_npusim("asm " + s.path("k.s") + " --arch a5 --config " + tiny, s);
  EXPECT_EQ(a.status, 2);
  EXPECT_THAT(a.err, HasSubstr("--arch a5 does not match chip.arch a2"));
}

}  // namespace
}  // namespace npu::test
