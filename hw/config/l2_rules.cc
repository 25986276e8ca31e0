#include "hw/config/l2_rules.h"

#include "hw/config/schema.h"

namespace npu::hw {

uint32_t l2_sets_per_slice(const L2Config& l2) {
  return static_cast<uint32_t>(l2.size / (uint64_t{l2.ways} * l2.line * l2.slices));
}

std::string l2_geometry_problem(const L2Config& l2) {
  const uint64_t way_bytes = uint64_t{l2.ways} * l2.line * l2.slices;
  if (l2.size % way_bytes != 0)
    return "l2.size " + format_size(static_cast<int64_t>(l2.size)) +
           " is not a multiple of l2.ways * l2.line * l2.slices = " + std::to_string(l2.ways) + " * " +
           std::to_string(l2.line) + " * " + std::to_string(l2.slices) + " = " + std::to_string(way_bytes);
  const uint64_t lines = l2.size / l2.line;
  if (lines > kMaxL2Lines)
    return "l2.size / l2.line = " + std::to_string(lines) + " lines, more than the model keeps tags for (" +
           std::to_string(kMaxL2Lines) + " lines, about 24 bytes of host memory each)";
  const uint64_t sets = l2.size / way_bytes;
  if (sets == 0 || (sets & (sets - 1)) != 0)
    return "l2.size / (l2.ways * l2.line * l2.slices) = " + std::to_string(sets) +
           " sets per slice; it must be a power of two";
  return "";
}

}  // namespace npu::hw
