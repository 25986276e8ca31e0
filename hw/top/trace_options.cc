#include "hw/top/trace_options.h"

#include <fnmatch.h>

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

}  // namespace npu::hw
