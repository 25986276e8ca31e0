#include "isa/program.h"

#include <fmt/format.h>

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
  auto loc = [&](const FileLine& at) {
    std::string name = at.file >= 0 && at.file < static_cast<int>(source_files.size()) ? source_files[at.file] : "?";
    return name + ":" + std::to_string(at.line);
  };
  std::string s = loc(l.at);
  for (size_t k = 0; k < l.via.size(); ++k) s += (k == 0 ? " (via " : ", ") + loc(l.via[k]);
  return l.via.empty() ? s : s + ")";
}

std::string mismatched_target(const Program& p, const std::vector<TargetSymbol>& target, const std::string& config) {
  std::string out;
  for (const TargetSymbol& s : p.target_symbols) {
    auto it = std::find_if(target.begin(), target.end(), [&](const TargetSymbol& t) { return t.name == s.name; });
    if (it != target.end() && it->value == s.value) continue;
    out += fmt::format("{}kernel '{}' was assembled for config '{}' with {} = {}, but config '{}' {}", out.empty() ? "" : "\n",
                       p.name, p.target_config, s.name, s.value, config,
                       it == target.end() ? "does not define it" : fmt::format("has {}", it->value));
  }
  if (!out.empty())
    out += fmt::format("\nre-assemble the kernel for '{}' (npusim asm --config, or run its .s source)", config);
  return out;
}

}  // namespace npu::isa
