#include "cli/lib/trace_hotspots.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "isa/types.h"

namespace npu::cli {

std::string render_hotspots(const TraceData& d, int top) {
  struct Line {
    uint64_t busy = 0, instructions = 0, stall = 0;
    std::set<int> units;
  };
  std::map<std::string, Line> lines;
  uint64_t total = 0;
  for (const SummaryEvent& e : d.events) {
    if (e.dispatch) continue;
    Line& l = lines[e.source.empty() ? "(no source map)" : e.source];
    l.busy += e.end - e.start;
    ++l.instructions;
    l.stall += e.stall;
    l.units.insert(e.unit);
    total += e.end - e.start;
  }
  std::vector<std::pair<std::string, Line>> ranked(lines.begin(), lines.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second.busy > b.second.busy; });
  std::string o = "Hotspots: source lines by busy cycles (summed over cores and units)\n";
  o += "   busy cyc  share   instrs   stall cyc  pipes         source\n";
  char buf[96];
  for (size_t i = 0; i < ranked.size() && i < static_cast<size_t>(top); ++i) {
    const auto& [src, l] = ranked[i];
    std::string pipes;
    for (int u : l.units) pipes += (pipes.empty() ? "" : ",") + std::string(isa::pipe_name(static_cast<isa::Pipe>(u)));
    std::snprintf(buf, sizeof buf, "%11llu %5.1f%% %8llu %11llu  %-12s  ", static_cast<unsigned long long>(l.busy),
                  total ? 100.0 * double(l.busy) / double(total) : 0.0, static_cast<unsigned long long>(l.instructions),
                  static_cast<unsigned long long>(l.stall), pipes.c_str());
    o += buf + src + "\n";
  }
  if (ranked.size() > static_cast<size_t>(top))
    o += "  (" + std::to_string(ranked.size() - top) + " more lines; --hotspots N shows more)\n";
  return o;
}

}  // namespace npu::cli
