// `npusim run --vcd V --gtkw G` (hw/top/trace_gtkw.h): every signal of the save file is a signal
// of the VCD (full names rebuilt here from the VCD's scopes), every VCD signal is in it, opcodes
// go through the filter file (the text of `npusim gtkwave-filter`), counters show in decimal.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class GtkwSave : public CliScratchTest {};

// "SystemC.cluster0.aiv0.MTE2.pc[31:0]" for every $var of a VCD.
std::set<std::string> vcd_signals(const std::string& vcd) {
  std::set<std::string> out;
  std::vector<std::string> scope;
  std::istringstream in(vcd);
  for (std::string w; in >> w;) {
    if (w == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scope.push_back(name);
    } else if (w == "$upscope") {
      scope.pop_back();
    } else if (w == "$var") {
      std::string type, bits, id, name, range;
      in >> type >> bits >> id >> name >> range;
      std::string full;
      for (const std::string& s : scope) full += s + ".";
      out.insert(full + name + (range == "$end" ? "" : range));
    } else if (w == "$enddefinitions") {
      break;
    }
  }
  return out;
}

TEST_F(GtkwSave, NamesTheVcdsSignalsGroupedWithOpcodesByName) {
  ASSERT_EQ(npusim("run " + system_data("run_rmsnorm.yaml") + " -q --vcd " + path("v.vcd") + " --gtkw " + path("v.gtkw")), 0)
      << err_;
  const std::set<std::string> vcd = vcd_signals(slurp(path("v.vcd")));
  ASSERT_GT(vcd.size(), 50u);
  const std::string g = slurp(path("v.gtkw"));
  EXPECT_NE(g.find("[dumpfile] \"" + path("v.vcd") + "\""), std::string::npos) << g.substr(0, 300);

  std::set<std::string> listed;
  std::istringstream in(g);
  std::string flags, filter;
  int groups = 0, opcodes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '[') continue;
    if (line[0] == '@') flags = line;
    else if (line[0] == '^') filter = line;
    else if (line[0] == '-') groups += flags == "@800200" || flags == "@c00200";
    else {
      EXPECT_TRUE(vcd.count(line)) << "not in the VCD: " << line;
      listed.insert(line);
      if (line.find(".opcode[") != std::string::npos) {
        ++opcodes;
        EXPECT_EQ(flags, "@2022") << line;  // hex, right-justified, translated by the filter file
        EXPECT_EQ(filter, "^1 " + path("v.gtkw.opcodes")) << line;
      } else if (line.find(".busy") != std::string::npos) {
        EXPECT_EQ(flags, "@28") << line;  // binary
      } else {
        EXPECT_EQ(flags, "@24") << line;  // decimal
      }
    }
  }
  EXPECT_EQ(listed, vcd) << "every VCD signal is in the save file";
  EXPECT_GT(opcodes, 8);
  EXPECT_GE(groups, 5) << "4 AIVs and the memory units";
  ASSERT_EQ(npusim("gtkwave-filter"), 0);
  EXPECT_EQ(slurp(path("v.gtkw.opcodes")), out_);
}

TEST_F(GtkwSave, NeedsTheVcd) {
  EXPECT_EQ(npusim("run " + system_data("run_rmsnorm.yaml") + " --gtkw " + path("v.gtkw")), 2);
  EXPECT_NE(err_.find("--vcd"), std::string::npos) << err_;
}

}  // namespace
}  // namespace npu::test
