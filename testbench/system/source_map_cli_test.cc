// Kernel source lines through the CLI (issue 15): `npusim asm --listing` maps every PC to its
// file:line and the chain of macro invocations that produced it, a runtime fault and the trace
// files name the same, and `trace-summary --hotspots` ranks source lines by busy cycles.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class SourceMapCli : public CliScratchTest {
 protected:
  // A kernel whose vector ops come from macros: `bump` (body line 5) invoked at line 15, and
  // through `twice` (body lines 8 and 9) invoked at line 16; with n = 1 << 20 elements the
  // nested one (pc 5) reads past the end of UB.
  std::string kernel() const {
    return write("k.s",
                 ".kernel k\n"            // 1
                 ".param y, gm, f32\n"    // 2
                 ".param n, int\n"        // 3
                 ".macro bump N\n"        // 4
                 "    vadds.f32 0, 0, r4, \\N\n"  // 5
                 ".endm\n"                // 6
                 ".macro twice N\n"       // 7
                 "    nop\n"              // 8
                 "    bump \\N\n"         // 9
                 ".endm\n"                // 10
                 ".aiv\n"                 // 11
                 "    ldp r1, n\n"        // 12 pc 0
                 "    mov r4, f32(1.0)\n"  // 13 pc 1
                 "    nop\n"              // 14 pc 2
                 "    bump 64\n"          // 15 pc 3 (bump's line 5)
                 "    twice r1\n"         // 16 pc 4 (twice's line 8), pc 5 (bump's line 5 via line 9)
                 "    end\n");            // 17 pc 6
  }
  std::string case_file(int n) const {
    return write("case.yaml", "kernel: " + kernel() + "\nblock_dim: 1\nparams: {n: " + std::to_string(n) +
                                  "}\ntensors:\n  y: {dtype: f32, shape: [64], role: output}\n");
  }
  // Where pc 5 was written: the body line, then each invocation, innermost first.
  std::string nested() const { return path("k.s") + ":5 (via " + path("k.s") + ":9, " + path("k.s") + ":16)"; }
};

TEST_F(SourceMapCli, ListingGivesPcSourceLineAndDisassembly) {
  ASSERT_EQ(npusim("asm --listing " + kernel()), 0) << err_;
  const std::string k = path("k.s");
  EXPECT_NE(out_.find("section aiv (7 instructions)"), std::string::npos) << out_;
  EXPECT_TRUE(std::regex_search(out_, std::regex("\n +0  " + k + ":12 +ldp r1, n\n"))) << out_;
  EXPECT_TRUE(std::regex_search(out_, std::regex("\n +3  " + k + ":5 \\(via " + k + ":15\\) +vadds\\.f32 0x0, 0x0, r4, 64")))
      << out_;
  EXPECT_TRUE(std::regex_search(out_, std::regex("\n +4  " + k + ":8 \\(via " + k + ":16\\) +nop\n"))) << out_;
  EXPECT_NE(out_.find("    5  " + nested() + "  vadds.f32 0x0, 0x0, r4, r1\n"), std::string::npos) << out_;
  EXPECT_FALSE(std::filesystem::exists(path("k.npuo"))) << "--listing without -o writes no object";
}

TEST_F(SourceMapCli, FaultNamesTheSourceLineAndTheMacroChain) {
  ASSERT_EQ(npusim("run " + case_file(1 << 20) + " --iss"), 2);
  EXPECT_NE(err_.find("pc 5 at " + nested() + " (vadds.f32"), std::string::npos) << err_;
}

TEST_F(SourceMapCli, TraceFilesCarryTheSameChain) {
  ASSERT_EQ(npusim("run " + case_file(64) + " -q --instr-csv " + path("t.csv") + " --trace " + path("t.json")), 3)
      << err_;  // nothing compared: exit status 3
  EXPECT_NE(slurp(path("t.csv")).find(",exec,\"" + nested() + "\"\n"), std::string::npos) << slurp(path("t.csv"));
  EXPECT_NE(slurp(path("t.json")).find("\"source\":\"" + nested() + "\""), std::string::npos);
}

TEST_F(SourceMapCli, HotspotsRankSourceLinesByBusyCycles) {
  ASSERT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_bf16.yaml") + " -q --instr-csv " + path("t.csv")), 0)
      << err_;
  // Busy cycles per source line from the CSV (exec rows: end - start), independently of the tool.
  std::map<std::string, uint64_t> busy;
  std::istringstream in(slurp(path("t.csv")));
  std::string line;
  std::getline(in, line);
  const std::regex row(R"re(^[^,]*,[^,]*,[^,]*,(?:"(?:[^"]|"")*"|[^,]*),[^,]*,[^,]*,(\d+),(\d+),[^,]*,[^,]*,exec,"?([^"]*)"?$)re");
  for (std::smatch m; std::getline(in, line);)
    if (std::regex_search(line, m, row)) busy[m[3]] += std::stoull(m[2]) - std::stoull(m[1]);
  ASSERT_GT(busy.size(), 10u);
  auto top = std::max_element(busy.begin(), busy.end(), [](auto& a, auto& b) { return a.second < b.second; });

  ASSERT_EQ(npusim("trace-summary " + path("t.csv") + " --hotspots 3"), 0) << err_;
  const size_t h = out_.find("Hotspots: source lines by busy cycles");
  ASSERT_NE(h, std::string::npos) << out_;
  std::istringstream rows(out_.substr(h));
  std::getline(rows, line);
  std::getline(rows, line);  // column heads
  std::getline(rows, line);  // the hottest line
  EXPECT_TRUE(std::regex_search(line, std::regex("^ *" + std::to_string(top->second) + " ")) &&
              line.find(top->first) != std::string::npos)
      << line << "\nexpected " << top->first << " with " << top->second;
  EXPECT_NE(out_.find("more lines; --hotspots N shows more"), std::string::npos);
}

}  // namespace
}  // namespace npu::test
