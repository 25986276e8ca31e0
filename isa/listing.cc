#include "isa/listing.h"

#include <algorithm>

#include <fmt/format.h>

#include "isa/disasm.h"

namespace npu::isa {

namespace {
constexpr size_t kMaxSourceColumn = 60;  // wider source columns overflow on their own line only
}  // namespace

std::string program_listing(const Program& p) {
  std::string out = fmt::format("kernel {}\n", p.name);
  for (CoreType t : {CoreType::Aic, CoreType::Aiv}) {
    const CodeSection& sec = p.section(t);
    if (!sec.present) continue;
    std::vector<std::string> where(sec.code.size());
    size_t width = 6;
    for (uint32_t pc = 0; pc < sec.code.size(); ++pc) width = std::max(width, (where[pc] = p.where(t, pc)).size());
    width = std::min(width, kMaxSourceColumn);  // a deep macro chain does not push every line right
    out += fmt::format("\nsection {} ({} instructions)\n{:>5}  {:<{}}  {}\n", core_type_name(t), sec.code.size(), "pc",
                       "source", width, "instruction");
    size_t next_label = 0;
    for (uint32_t pc = 0; pc < sec.code.size(); ++pc) {
      for (; next_label < sec.labels.size() && sec.labels[next_label].pc <= pc; ++next_label)
        out += fmt::format("{:>5}  -- label {}\n", "", sec.labels[next_label].name);
      out += fmt::format("{:>5}  {:<{}}  {}\n", pc, where[pc], width, disassemble(sec.code[pc], &p));
    }
  }
  return out;
}

}  // namespace npu::isa
