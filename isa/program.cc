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

}  // namespace npu::isa
