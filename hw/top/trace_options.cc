#include "hw/top/trace_options.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "isa/error.h"

namespace npu::hw {

namespace {
uint64_t parse_cycle(const std::string& s, const std::string& whole) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw Error("--trace-window '" + whole + "': expected START:END in cycles (e.g. 1000:5000, :5000, 1000:)");
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE) throw Error("--trace-window '" + whole + "': cycle number out of range");
  return v;
}
}  // namespace

void parse_trace_window(const std::string& text, TraceOptions& opt) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw Error("--trace-window '" + text + "': expected START:END in cycles (e.g. 1000:5000, :5000, 1000:)");
  const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  opt.window_start = a.empty() ? 0 : parse_cycle(a, text);
  opt.window_end = b.empty() ? std::numeric_limits<uint64_t>::max() : parse_cycle(b, text);
  if (opt.window_end <= opt.window_start)
    throw Error("--trace-window '" + text + "': END must be greater than START");
}

void parse_trace_select(const std::string& text, TraceOptions& opt) {
  size_t pos = 0;
  for (;;) {
    const size_t comma = text.find(',', pos);
    const std::string p = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (p.empty()) throw Error("--trace-select '" + text + "': empty pattern");
    opt.select.push_back(p);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

bool trace_selected(const std::vector<std::string>& patterns, const std::string& name) {
  if (patterns.empty()) return true;
  // A unit "cluster0.aic.MTE2" is also selected by its core "cluster0.aic".
  std::string core;
  const size_t last = name.rfind('.');
  if (last != std::string::npos && name.compare(0, 7, "cluster") == 0 && name.find('.') != last)
    core = name.substr(0, last);
  for (const std::string& p : patterns) {
    if (fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
    if (!core.empty() && fnmatch(p.c_str(), core.c_str(), 0) == 0) return true;
  }
  return false;
}

namespace {

// Unit names grouped by their shape (digit runs as placeholders), each run shown as its range:
// "cluster{0..23}.aic.MTE2, l2.slice{0..47}, mte" rather than hundreds of names.
std::string summarize_units(const std::vector<std::string>& units) {
  struct Group {
    std::vector<std::string> parts;  // text between digit runs
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
  };
  std::vector<std::pair<std::string, Group>> groups;  // by shape, first appearance first
  for (const std::string& u : units) {
    Group g;
    std::string shape, text;
    std::vector<uint64_t> nums;
    for (size_t i = 0; i < u.size();) {
      if (!std::isdigit(static_cast<unsigned char>(u[i]))) {
        text += u[i++];
        continue;
      }
      size_t j = i;
      while (j < u.size() && std::isdigit(static_cast<unsigned char>(u[j]))) ++j;
      g.parts.push_back(text);
      shape += text + "#";
      text.clear();
      nums.push_back(std::strtoull(u.substr(i, j - i).c_str(), nullptr, 10));
      i = j;
    }
    g.parts.push_back(text);
    shape += text;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == shape; });
    if (it == groups.end()) {
      for (uint64_t n : nums) g.ranges.emplace_back(n, n);
      groups.emplace_back(shape, g);
      continue;
    }
    for (size_t k = 0; k < nums.size(); ++k) {
      auto& r = it->second.ranges[k];
      r.first = std::min(r.first, nums[k]);
      r.second = std::max(r.second, nums[k]);
    }
  }
  std::string out;
  for (const auto& [shape, g] : groups) {
    std::string name = g.parts[0];
    for (size_t k = 0; k < g.ranges.size(); ++k) {
      const auto& [lo, hi] = g.ranges[k];
      name += lo == hi ? std::to_string(lo) : "{" + std::to_string(lo) + ".." + std::to_string(hi) + "}";
      name += g.parts[k + 1];
    }
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

}  // namespace

void check_trace_select(const std::vector<std::string>& patterns, const std::vector<std::string>& units) {
  for (const std::string& p : patterns) {
    const bool any = std::any_of(units.begin(), units.end(), [&](const std::string& u) { return trace_selected({p}, u); });
    if (!any)
      throw TraceSelectError("--trace-select '" + p + "': matches no unit of this run (units: " + summarize_units(units) + ")");
  }
}

}  // namespace npu::hw
