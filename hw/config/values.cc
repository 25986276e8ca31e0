// Text <-> value helpers shared by the loader, the dump and the docs: sizes with units, and
// floats printed so that they parse back to the same double.
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>

#include "hw/config/schema.h"

namespace npu::hw {
namespace {

// Binary multiples; "KB" etc. mean the same (JEDEC memory usage: 192 MB of L2 = 192 MiB).
const std::pair<const char*, int64_t> kUnits[] = {
    {"B", 1},
    {"KiB", int64_t{1} << 10}, {"KB", int64_t{1} << 10},
    {"MiB", int64_t{1} << 20}, {"MB", int64_t{1} << 20},
    {"GiB", int64_t{1} << 30}, {"GB", int64_t{1} << 30},
    {"TiB", int64_t{1} << 40}, {"TB", int64_t{1} << 40},
};

}  // namespace

std::string parse_size(const std::string& text, int64_t& bytes) {
  const std::string bad = "invalid size '" + text +
                          "': expected an integer with an optional unit B, KiB, MiB, GiB, TiB "
                          "(KB, MB, GB, TB are the same binary units)";
  size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == 0 || i > 18) return bad;
  int64_t n = std::stoll(text.substr(0, i));
  size_t u = i;
  if (u < text.size() && text[u] == ' ') ++u;  // "512 KiB" is accepted
  std::string unit = text.substr(u);
  if (unit.empty()) {
    if (u != i) return bad;  // trailing space without a unit
    bytes = n;
    return "";
  }
  for (const auto& [name, mult] : kUnits) {
    if (unit != name) continue;
    if (n > INT64_MAX / mult) return "size '" + text + "' is too large";
    bytes = n * mult;
    return "";
  }
  return bad;
}

std::string format_size(int64_t bytes) {
  static const std::pair<const char*, int> kBinary[] = {{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}};
  if (bytes > 0)
    for (const auto& [name, shift] : kBinary)
      if (bytes % (int64_t{1} << shift) == 0) return std::to_string(bytes >> shift) + name;
  return std::to_string(bytes);
}

std::string format_float(double v) {
  // Whole numbers print as integers ("100000", not "1e+05"); others as the shortest exact text.
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v > -1e15 && v < 1e15)
    return std::to_string(static_cast<int64_t>(v));
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that round-trips
  return std::string(buf, res.ptr);
}

}  // namespace npu::hw
