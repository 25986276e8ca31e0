#include "hw/config/l2_rules.h"

#include <cmath>
#include <cstdio>

#include "hw/config/schema.h"

namespace npu::hw {

uint64_t l2_total_sets(const L2Config& l2) {
  const uint64_t set_bytes = uint64_t{l2.ways} * l2.line;
  const uint64_t sets = (l2.size + set_bytes / 2) / set_bytes;  // nearest (halves round up)
  return sets == 0 ? 1 : sets;
}

std::string l2_geometry_problem(const L2Config& l2) {
  const uint64_t sets = l2_total_sets(l2);
  if (sets < l2.slices)
    return "l2.size " + format_size(static_cast<int64_t>(l2.size)) + " holds " + std::to_string(sets) +
           " set(s) of l2.ways * l2.line = " + std::to_string(l2.ways) + " * " + std::to_string(l2.line) +
           " bytes, fewer than l2.slices = " + std::to_string(l2.slices) +
           " (every slice needs a set): raise l2.size or lower l2.slices or l2.ways";
  const uint64_t lines = sets * l2.ways;
  if (lines > kMaxL2Lines)
    return "l2.size / l2.line = " + std::to_string(lines) + " lines, more than the model keeps tags for (" +
           std::to_string(kMaxL2Lines) + " lines, about 24 bytes of host memory each)";
  return "";
}

std::string l2_geometry_note(const L2Config& l2) {
  const uint64_t sets = l2_total_sets(l2), set_bytes = uint64_t{l2.ways} * l2.line;
  const uint64_t built = sets * set_bytes;
  std::string out = std::to_string(sets) + " sets x " + std::to_string(l2.ways) + " ways x " +
                    std::to_string(l2.line) + " B = " + format_size(static_cast<int64_t>(built));
  if (built != l2.size) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " (l2.size %s / %s = %.2f sets, rounded to the nearest: %+.2f %%)",
                  format_size(static_cast<int64_t>(l2.size)).c_str(),
                  format_size(static_cast<int64_t>(set_bytes)).c_str(), double(l2.size) / double(set_bytes),
                  100.0 * (double(built) - double(l2.size)) / double(l2.size));
    out += buf;
  }
  const uint64_t per = sets / l2.slices, extra = sets % l2.slices;
  if (extra == 0) return out + "; " + std::to_string(per) + " sets in each of " + std::to_string(l2.slices) + " slices";
  auto range = [](uint64_t a, uint64_t b) {
    return a == b ? "slice " + std::to_string(a) : "slices " + std::to_string(a) + "-" + std::to_string(b);
  };
  return out + "; " + range(0, extra - 1) + " hold " + std::to_string(per + 1) + " sets, " +
         range(extra, l2.slices - 1) + " hold " + std::to_string(per);
}

}  // namespace npu::hw
