#include "hw/top/trace_gtkw.h"

#include <algorithm>
#include <filesystem>

#include "base/file_io.h"
#include "hw/top/trace_vcd.h"

namespace npu::hw {
namespace {

// GTKWave trace flags (its analyzer.h): hex, decimal, binary display, right-justified, comment
// line, collapsed (the hidden end of a closed group), translated by a filter file, closed group,
// group begin / end.
constexpr unsigned kHex = 0x2, kDec = 0x4, kBin = 0x8, kRjustify = 0x20, kBlank = 0x200, kCollapsed = 0x1000,
                   kFileFilter = 0x2000, kClosed = 0x400000, kGroupBegin = 0x800000, kGroupEnd = 0x1000000;

std::string flags(unsigned f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "@%x\n", f);
  return buf;
}

// The group a signal belongs to: its core ("cluster0.aiv0"), else its first component (l2, hbm, mte).
std::string group_of(const std::string& name) {
  const size_t a = name.find('.');
  if (name.compare(0, 7, "cluster") != 0 || a == std::string::npos) return name.substr(0, a);
  return name.substr(0, name.find('.', a + 1));
}

}  // namespace

void write_gtkw(const std::string& gtkw_path, const std::string& vcd_path, const std::vector<std::string>& names,
                const std::vector<int>& bits) {
  namespace fs = std::filesystem;
  const std::string filter_path = gtkw_path + ".opcodes";
  std::string out = "[*] GTKWave save file written by npusim run --gtkw\n[dumpfile] \"" +
                    fs::absolute(vcd_path).string() + "\"\n[timestart] 0\n";
  const std::string filter_abs = fs::absolute(filter_path).string();
  std::string group;
  bool first = true, closed = false;
  auto end_group = [&] {
    if (!group.empty()) out += flags(kGroupEnd | kBlank | (closed ? kClosed | kCollapsed : 0)) + "-" + group + "\n";
  };
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (group_of(n) != group) {
      end_group();
      group = group_of(n);
      closed = !first;
      out += flags(kGroupBegin | kBlank | (closed ? kClosed : 0)) + "-" + group + "\n";
      first = false;
    }
    const std::string leaf = n.substr(n.rfind('.') + 1);
    const std::string full = "SystemC." + n + (bits[i] > 1 ? "[" + std::to_string(bits[i] - 1) + ":0]" : "");
    if (bits[i] == 1) out += flags(kBin | kRjustify);
    else if (leaf == "opcode") out += flags(kHex | kRjustify | kFileFilter) + "^1 " + filter_abs + "\n";
    else out += flags(kDec | kRjustify);
    // GTKWave shows a signal, or an alias, by its last dot-separated component ("busy"): the
    // alias is the name inside the group with blanks for dots ("MTE2 busy").
    std::string alias = n.size() > group.size() ? n.substr(group.size() + 1) : n;
    std::replace(alias.begin(), alias.end(), '.', ' ');
    out += "+{" + alias + "} " + full + "\n";
  }
  end_group();
  write_file_atomic(filter_path, gtkwave_opcode_filter());
  write_file_atomic(gtkw_path, out);
}

}  // namespace npu::hw
