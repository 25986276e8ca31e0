#pragma once
// Statistics per semantic label (isa/program.h SemanticLabel) and core type, accumulated from
// the instruction events of a run (SimStats::labels: stats.json "labels" and lines of the report):
//   cycles spanned (first start to last end of the label's instructions on cores of that
//   type), busy cycles per pipe (summed over cores; the busiest core's share also kept), bytes
//   moved, FLOPs, L2 hits / misses / bypasses and the HBM bytes its transfers caused, stall
//   cycles per reason, and the resource that bounded it: the highest of
//     pipe P      busiest core's busy cycles of P / cycles spanned
//     HBM         HBM bytes / (cycles spanned * hbm.bandwidth_gbps / chip.clock_ghz)
//     wait (why)  only when no pipe is busy half the span: the largest share of it one unit of
//                 one core spent blocked (flag, cross-core, barrier, queue full)
//   e.g. "linear (aic): 7.9 us, HBM-bound at 91 % of roofline".
// Instructions outside any label count under "(none)".
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/top/sim_stats.h"
#include "hw/top/trace_event.h"

namespace npu::hw {

class LabelStats {
 public:
  LabelStats(const HwConfig& hw, const TraceLayout& layout);
  void add(const TraceEvent& e);
  // One record per (label, core type) that executed something, by label then type.
  std::vector<LabelRecord> records() const;

 private:
  struct Acc : LabelTraffic {
    bool used = false;
    uint64_t start = UINT64_MAX, end = 0, instructions = 0;
    std::array<uint64_t, isa::kNumPipes> busy{};
    std::array<uint64_t, 6> stall{};
    std::vector<std::array<uint64_t, isa::kNumPipes>> core_busy;  // per core index
    std::vector<std::array<uint64_t, isa::kNumPipes>> core_wait;  // stalls before instructions
  };
  const TraceLayout& layout_;
  double hbm_bytes_per_cycle_;
  std::vector<std::array<Acc, 2>> acc_;  // [label id][core type]
};

// A header line, then one line per label entry ("" when there are none), e.g.
// "  linear (aic): 7.9 us, HBM-bound at 91 % of roofline; busy CUBE 62 %, MTE2 88 %; 12.5 MiB moved, 3.4 GFLOP, L2 hit rate 41 %"
std::string format_label_report(const std::vector<LabelRecord>& labels, double clock_ghz);

}  // namespace npu::hw
