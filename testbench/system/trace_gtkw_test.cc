// `npusim run --vcd V --gtkw G` (hw/top/trace_gtkw.h): every signal of the save file is a signal
// of the VCD (full names rebuilt here from the VCD's scopes), every VCD signal is in it, opcodes
// go through the filter file (the text of `npusim gtkwave-filter`), counters show in decimal.
// And Debian's GTKWave opens it (headless, on GTK's broadway backend): a Tcl script reads back
// the traces it shows, their display flags and their values at a marker.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class GtkwSave : public CliScratchTest {};

// The $var declarations of a VCD: id -> full name ("SystemC.cluster0.aiv0.MTE2.pc[31:0]", the
// names rebuilt from the scopes); `in` is left after $enddefinitions.
std::map<std::string, std::string> vcd_names(std::istringstream& in) {
  std::map<std::string, std::string> out;
  std::vector<std::string> scope;
  for (std::string w; in >> w && w != "$enddefinitions";) {
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
      out[id] = full + name + (range == "$end" ? "" : range);
    }
  }
  return out;
}

std::set<std::string> vcd_signals(const std::string& vcd) {
  std::istringstream in(vcd);
  std::set<std::string> out;
  for (const auto& [id, name] : vcd_names(in)) out.insert(name);
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
      // "+{MTE2 busy} SystemC.cluster0.aiv0.MTE2.busy": shown by its name inside the group.
      ASSERT_EQ(line.compare(0, 2, "+{"), 0) << line;
      std::string alias = line.substr(2, line.find("} ") - 2);
      line = line.substr(line.find("} ") + 2);
      EXPECT_EQ(alias.find('.'), std::string::npos) << "GTKWave would show only the part after a dot: " << alias;
      std::replace(alias.begin(), alias.end(), ' ', '.');
      EXPECT_NE(line.find("." + alias), std::string::npos) << alias << " for " << line;
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

// The value changes of a VCD: full signal name (as vcd_signals gives it) -> (time, value) in order.
std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> vcd_changes(const std::string& vcd) {
  std::istringstream in(vcd);
  std::map<std::string, std::string> name_of = vcd_names(in);
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> out;
  uint64_t t = 0;
  for (std::string w; in >> w;) {
    if (w[0] == '#') {
      t = std::stoull(w.substr(1));
    } else if (w[0] == 'b') {
      std::string id;
      in >> id;
      if (name_of.count(id)) out[name_of[id]].emplace_back(t, std::stoull(w.substr(1), nullptr, 2));
    } else if ((w[0] == '0' || w[0] == '1') && w.size() > 1 && name_of.count(w.substr(1))) {
      out[name_of[w.substr(1)]].emplace_back(t, w[0] - '0');
    }
  }
  return out;
}

uint64_t value_at(const std::vector<std::pair<uint64_t, uint64_t>>& changes, uint64_t t) {
  uint64_t v = 0;
  for (const auto& [when, value] : changes)
    if (when <= t) v = value;
  return v;
}

TEST_F(GtkwSave, OpensInGtkwaveNamedGroupedTranslatedAndDecimal) {
  ASSERT_EQ(npusim("run " + system_data("run_rmsnorm.yaml") + " -q --vcd " + path("v.vcd") + " --gtkw " + path("v.gtkw")), 0)
      << err_;
  for (const char* tool : {"/usr/bin/gtkwave", "/usr/bin/broadwayd"})
    if (!std::filesystem::exists(tool)) {
      if (std::getenv("NPUSIM_SKIP_GTKWAVE")) GTEST_SKIP() << "NPUSIM_SKIP_GTKWAVE is set";
      FAIL() << tool << " not found: the save file is checked in Debian's gtkwave on GTK's broadway backend "
             << "(packages gtkwave, libgtk-3-bin); install them with scripts/setup.sh (or set NPUSIM_SKIP_GTKWAVE=1)";
    }
  // The marker: the first time cluster0.aiv0's MTE2 starts a non-nop instruction.
  const auto changes = vcd_changes(slurp(path("v.vcd")));
  const std::string unit = "SystemC.cluster0.aiv0.MTE2.";
  ASSERT_TRUE(changes.count(unit + "opcode[7:0]"));
  uint64_t marker = 0;
  for (const auto& [t, v] : changes.at(unit + "opcode[7:0]"))
    if (v != 0 && !marker) marker = t;
  ASSERT_GT(marker, 0u);
  std::map<uint64_t, std::string> mnemonic;  // from the filter file: "2A vadd"
  {
    std::istringstream f(slurp(path("v.gtkw.opcodes")));
    for (std::string line; std::getline(f, line);)
      if (!line.empty() && line[0] != '#') mnemonic[std::stoull(line.substr(0, line.find(' ')), nullptr, 16)] = line.substr(line.find(' ') + 1);
  }

  write("q.tcl", "gtkwave::setMarker " + std::to_string(marker) +
                     "\nputs \"DUMP [gtkwave::getDumpFileName]\"\n"
                     "set n [gtkwave::getTotalNumTraces]\n"
                     "for {set i 0} {$i < $n} {incr i} {\n"
                     "  puts \"T|[gtkwave::getTraceNameFromIndex $i]|[format %x [gtkwave::getTraceFlagsFromIndex $i]]|"
                     "[gtkwave::getTraceValueAtMarkerFromIndex $i]\"\n}\n"
                     "gtkwave::/File/Quit\n");
  // A broadway display of this test's own.
  const std::string display = ":" + std::to_string(1000 + getpid() % 20000);
  const std::string env = "XDG_RUNTIME_DIR=" + path("") + " GDK_BACKEND=broadway BROADWAY_DISPLAY=" + display + " ";
  ASSERT_EQ(std::system((env + "/usr/bin/broadwayd " + display + " >" + path("broadway.log") + " 2>&1 & echo $! >" +
                         path("broadway.pid")).c_str()),
            0);
  struct Stop {
    std::string pid_file;
    ~Stop() {
      const std::string pid = slurp(pid_file);
      if (!pid.empty()) kill(static_cast<pid_t>(std::stol(pid)), SIGTERM);
    }
  } stop{path("broadway.pid")};
  // Ready once it says so (its socket is an abstract one, no file to wait for).
  for (int i = 0; i < 200 && slurp(path("broadway.log")).find("Listening on") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_NE(slurp(path("broadway.log")).find("Listening on"), std::string::npos) << slurp(path("broadway.log"));
  ASSERT_EQ(std::system(("cd " + path("") + " && " + env + "timeout 120 /usr/bin/gtkwave -S q.tcl v.gtkw >" + path("g.out") +
                         " 2>" + path("g.err")).c_str()),
            0)
      << slurp(path("g.err"));

  const std::string shown = slurp(path("g.out"));
  EXPECT_NE(shown.find("DUMP " + path("v.vcd") + "\n"), std::string::npos) << shown.substr(0, 500);
  // Every VCD signal once, under its alias (its name inside the group), with its display flags
  // as GTKWave parsed them; in the open group, its value at the marker as GTKWave shows it.
  std::set<std::string> aliases;
  std::string group;
  size_t traces = 0, checked = 0;
  std::istringstream rows(shown);
  for (std::string line; std::getline(rows, line);) {
    if (line.compare(0, 2, "T|") != 0) continue;
    std::vector<std::string> f;
    for (size_t a = 2, b; (b = line.find('|', a)) != std::string::npos || a <= line.size(); a = b + 1) {
      f.push_back(line.substr(a, b == std::string::npos ? std::string::npos : b - a));
      if (b == std::string::npos) break;
    }
    ASSERT_EQ(f.size(), 3u) << line;
    const unsigned flags = std::stoul(f[1], nullptr, 16);
    if (flags & 0x800000) group = f[0];  // a group's begin
    if (flags & 0x1800000) continue;     // a group's begin or end
    ++traces;
    std::string name = f[0];  // "MTE2 busy" -> "MTE2.busy"
    std::replace(name.begin(), name.end(), ' ', '.');
    EXPECT_TRUE(aliases.insert(group + "." + name).second) << "twice: " << group << "." << name;
    const bool opcode = name.find(".opcode") != std::string::npos, busy = name.find(".busy") != std::string::npos;
    EXPECT_EQ(flags, opcode ? 0x2022u : busy ? 0x28u : 0x24u) << line;
    if (group != "cluster0.aiv0") continue;
    const std::string full = [&] {
      for (const auto& [vcd_name, ch] : changes)
        if (vcd_name.rfind("SystemC." + group + "." + name, 0) == 0) return vcd_name;
      return std::string();
    }();
    ASSERT_FALSE(full.empty()) << "no VCD signal for " << group << "." << name;
    const uint64_t v = value_at(changes.at(full), marker);
    EXPECT_EQ(f[2], opcode ? mnemonic.at(v) : std::to_string(v)) << line << " (" << full << " at " << marker << ")";
    ++checked;
  }
  EXPECT_EQ(traces, vcd_signals(slurp(path("v.vcd"))).size());
  EXPECT_GT(checked, 10u);
  EXPECT_TRUE(aliases.count("cluster0.aiv0.MTE2.opcode")) << "the unit is in the shown name";
  EXPECT_NE(shown.find("|MTE2 opcode|2022|" + mnemonic.at(value_at(changes.at(unit + "opcode[7:0]"), marker)) + "\n"),
            std::string::npos)
      << "MTE2's opcode shown by name at the marker";
}

// The same run gives the same VCD byte for byte: the header has no wall-clock $date.
TEST_F(GtkwSave, TheSameRunGivesABitIdenticalVcd) {
  for (const char* v : {"a.vcd", "b.vcd"}) {
    ASSERT_EQ(npusim("run " + system_data("run_rmsnorm.yaml") + " -q --vcd " + path(v)), 0) << err_;
    if (v[0] == 'a') std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // another second
  }
  const std::string a = slurp(path("a.vcd"));
  EXPECT_EQ(a.find("$date"), std::string::npos);
  EXPECT_TRUE(a == slurp(path("b.vcd")));
}

TEST_F(GtkwSave, NeedsTheVcd) {
  EXPECT_EQ(npusim("run " + system_data("run_rmsnorm.yaml") + " --gtkw " + path("v.gtkw")), 2);
  EXPECT_NE(err_.find("--vcd"), std::string::npos) << err_;
}

}  // namespace
}  // namespace npu::test
