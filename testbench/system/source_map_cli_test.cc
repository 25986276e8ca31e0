// Kernel source lines through the CLI (issue 15): `npusim asm --listing` maps every PC to its
// file:line and macro invocation, a runtime fault names them beside the PC, and `trace-summary
// --hotspots` ranks source lines by busy cycles.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class SourceMapCli : public CliScratchTest {
 protected:
  // A kernel whose vector op comes from a macro (line 4 of the body, invoked at line 11); with
  // n = 1 << 20 elements it reads past the end of UB.
  std::string kernel() const {
    return write("k.s",
                 ".kernel k\n"            // 1
                 ".param y, gm, f32\n"    // 2
                 ".param n, int\n"        // 3
                 ".macro bump N\n"        // 4
                 "    vadds.f32 0, 0, r4, \\N\n"  // 5
                 ".endm\n"                // 6
                 ".aiv\n"                 // 7
                 "    ldp r1, n\n"        // 8  pc 0
                 "    mov r4, f32(1.0)\n"  // 9  pc 1
                 "    nop\n"              // 10 pc 2
                 "    bump r1\n"          // 11 pc 3 (the macro body's line 5)
                 "    end\n");            // 12 pc 4
  }
  std::string case_file(int n) const {
    return write("case.yaml", "kernel: " + kernel() + "\nblock_dim: 1\nparams: {n: " + std::to_string(n) +
                                  "}\ntensors:\n  y: {dtype: f32, shape: [64], role: output}\n");
  }
};

TEST_F(SourceMapCli, ListingGivesPcSourceLineAndDisassembly) {
  ASSERT_EQ(npusim("asm --listing " + kernel()), 0) << err_;
  const std::string k = path("k.s");
  EXPECT_NE(out_.find("section aiv (5 instructions)"), std::string::npos) << out_;
  EXPECT_TRUE(std::regex_search(out_, std::regex("\n +0  " + k + ":8 +ldp r1, n\n"))) << out_;
  EXPECT_TRUE(std::regex_search(out_, std::regex("\n +3  " + k + ":5 \\(via " + k + ":11\\) +vadds\\.f32 0x0, 0x0, r4, r1")))
      << out_;
  EXPECT_FALSE(std::filesystem::exists(path("k.npuo"))) << "--listing without -o writes no object";
}

TEST_F(SourceMapCli, FaultNamesTheSourceLineAndMacroInvocation) {
  ASSERT_EQ(npusim("run " + case_file(1 << 20) + " --iss"), 2);
  const std::string k = path("k.s");
  EXPECT_NE(err_.find("pc 3 at " + k + ":5 (via " + k + ":11) (vadds.f32"), std::string::npos) << err_;
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
