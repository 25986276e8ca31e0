#include "isa/program.h"

#include <algorithm>

namespace npu::isa {

const std::string& CodeSection::label_at(uint32_t pc) const {
  static const std::string kNone;
  auto it = std::upper_bound(labels.begin(), labels.end(), pc,
                             [](uint32_t p, const SemanticLabel& l) { return p < l.pc; });
  return it == labels.begin() ? kNone : std::prev(it)->name;
}

int Program::param_index(const std::string& n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

std::string Program::where(CoreType t, uint32_t pc) const {
  const CodeSection& sec = section(t);
  if (pc >= sec.src.size()) return "";
  const SourceLoc& l = sec.src[pc];
  auto loc = [&](int f, int line) {
    std::string name = f >= 0 && f < static_cast<int>(source_files.size()) ? source_files[f] : "?";
    return name + ":" + std::to_string(line);
  };
  std::string s = loc(l.file, l.line);
  if (l.via_file >= 0) s += " (via " + loc(l.via_file, l.via_line) + ")";
  return s;
}

}  // namespace npu::isa
