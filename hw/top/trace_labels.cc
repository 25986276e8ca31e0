#include "hw/top/trace_labels.h"

#include <algorithm>
#include <cstdio>

namespace npu::hw {

LabelStats::LabelStats(const HwConfig& hw, const TraceLayout& layout)
    : layout_(layout), hbm_bytes_per_cycle_(hw.hbm.bandwidth_gbps / hw.chip.clock_ghz),
      acc_(layout.labels.size()) {}

void LabelStats::add(const TraceEvent& e) {
  Acc& a = acc_[e.label_id][static_cast<int>(layout_.cores[e.core].type)];
  if (!a.used) {
    a.used = true;
    a.core_busy.resize(layout_.cores.size());
    a.core_wait.resize(layout_.cores.size());
  }
  a.start = std::min(a.start, e.start - (e.reason == StallReason::Memory ? 0 : e.stall));
  a.end = std::max(a.end, e.end);
  if (!e.dispatch) ++a.instructions;
  const uint64_t busy = e.end - e.start;
  a.busy[static_cast<int>(e.unit)] += busy;
  a.core_busy[e.core][static_cast<int>(e.unit)] += busy;
  a.LabelTraffic::add({e.bytes, e.flops, e.hbm_bytes, e.l2_hits, e.l2_misses, e.l2_bypass});
  a.stall[static_cast<int>(e.reason)] += e.stall;
  if (e.reason != StallReason::Memory) a.core_wait[e.core][static_cast<int>(e.unit)] += e.stall;
}

std::vector<LabelRecord> LabelStats::records() const {
  std::vector<LabelRecord> out;
  for (size_t l = 0; l < acc_.size(); ++l) {
    for (int t = 0; t < 2; ++t) {
      const Acc& a = acc_[l][t];
      if (!a.used) continue;
      LabelRecord j;
      j.label = layout_.labels[l].empty() ? "(none)" : layout_.labels[l];
      j.core_type = static_cast<isa::CoreType>(t);
      const uint64_t cycles = a.end > a.start ? a.end - a.start : 0;
      j.start_cycle = a.start;
      j.end_cycle = a.end;
      j.cycles = cycles;
      std::array<uint64_t, isa::kNumPipes> max_busy{};
      for (const auto& cb : a.core_busy) {
        bool any = false;
        for (int p = 0; p < isa::kNumPipes; ++p) {
          any |= cb[p] > 0;
          max_busy[p] = std::max(max_busy[p], cb[p]);
        }
        j.cores += any;
      }
      j.instructions = a.instructions;
      std::string bound = "";
      double bound_u = -1;
      for (int p = 0; p < isa::kNumPipes; ++p) {
        if (a.busy[p] == 0) continue;
        j.busy_cycles[p] = a.busy[p];
        j.max_core_busy_cycles[p] = max_busy[p];
        const double u = cycles ? double(max_busy[p]) / double(cycles) : 0;
        if (u > bound_u) {
          bound_u = u;
          bound = isa::pipe_name(static_cast<isa::Pipe>(p));
        }
      }
      static_cast<LabelTraffic&>(j) = a;
      for (int r = 1; r < 6; ++r) j.stall_cycles[r] = a.stall[r];
      const double hbm_u = cycles ? double(a.hbm_bytes) / (double(cycles) * hbm_bytes_per_cycle_) : 0;
      if (hbm_u > bound_u) {
        bound_u = hbm_u;
        bound = "HBM";
      }
      // A label whose pipes are mostly idle (none busy half the time) while its units wait (flags,
      // cross-core, barriers) is bound by that wait: the largest share of the span one unit of
      // one core spent waiting, named by the reason with the most stall cycles.
      if (bound_u < 0.5 && cycles > 0) {
        uint64_t most = 0;
        for (const auto& cs : a.core_wait) most = std::max(most, *std::max_element(cs.begin(), cs.end()));
        int reason = 0;
        for (int r = 1; r < 6; ++r)
          if (static_cast<StallReason>(r) != StallReason::Memory && a.stall[r] > a.stall[reason]) reason = r;
        const double w = std::min(1.0, double(most) / double(cycles));
        if (reason > 0 && w > bound_u) {
          bound_u = w;
          bound = std::string("wait (") + stall_reason_name(static_cast<StallReason>(reason)) + ")";
        }
      }
      j.bound = bound;
      j.bound_utilization = bound_u < 0 ? 0.0 : bound_u;
      out.push_back(std::move(j));
    }
  }
  return out;
}

namespace {
std::string f(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
std::string bytes_str(double b) {
  if (b >= 1024.0 * 1024) return f("%.1f MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return f("%.1f KiB", b / 1024.0);
  return f("%.0f B", b);
}
}  // namespace

std::string format_label_report(const std::vector<LabelRecord>& labels, double clock_ghz) {
  if (labels.empty()) return "";
  std::string s = "Labels (semantic label, core type: time spanned, bound, busiest core per pipe)\n";
  for (const LabelRecord& j : labels) {
    const double cycles = double(j.cycles);
    s += "  " + j.label + " (" + std::string(isa::core_type_name(j.core_type)) + "): " + f("%.3g us", j.time_us(clock_ghz));
    const std::string& res = j.bound;
    if (!res.empty())
      s += ", " + res + "-bound at " + f("%.0f", 100 * j.bound_utilization) +
           (res == "HBM" ? " % of roofline" : res.compare(0, 4, "wait") == 0 ? " % of the time" : " % busy");
    std::string busy;
    for (int p = 0; p < isa::kNumPipes; ++p) {
      if (!j.busy_cycles[p]) continue;
      const std::string name(isa::pipe_name(static_cast<isa::Pipe>(p)));
      busy += (busy.empty() ? "" : ", ") + name + " " +
              f("%.0f %%", cycles ? 100 * double(j.max_core_busy_cycles[p]) / cycles : 0);
    }
    if (!busy.empty()) s += "; busy " + busy;
    if (j.bytes > 0) s += "; " + bytes_str(double(j.bytes)) + " moved";
    const double flops = double(j.flops);
    if (flops >= 1e9)
      s += ", " + f("%.3g GFLOP", flops / 1e9);
    else if (flops >= 1e6)
      s += ", " + f("%.3g MFLOP", flops / 1e6);
    else if (flops > 0)
      s += ", " + f("%.0f FLOP", flops);
    if (j.l2_hits + j.l2_misses + j.l2_bypass > 0) s += ", L2 hit rate " + f("%.0f %%", 100 * j.l2_hit_rate());
    s += "\n";
  }
  return s;
}

}  // namespace npu::hw
