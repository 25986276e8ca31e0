#include "hw/core/unit_stats.h"

namespace npu::hw {

UnitStats::UnitStats(const std::string& name, const uint64_t* total_cycles, bool cube)
    : total_(total_cycles), group_(name) {
  group_.add("instructions", &c.instructions, "count", "instructions retired by this unit");
  group_.add("busy_cycles", &c.busy_cycles, "cycle", "cycles spent executing instructions");
  group_.add("stall_flag_wait", &c.stall_flag_wait, "cycle", "cycles blocked in wait_flag / cc_wait");
  group_.add("stall_memory", &c.stall_memory, "cycle",
             "cycles a GM transfer took beyond the path's own time");
  group_.add("stall_queue_full", &c.stall_queue_full, "cycle",
             "scalar: cycles a dispatch waited for room in a pipe queue");
  group_.add("stall_barrier", &c.stall_barrier, "cycle",
             "scalar: cycles waiting at barrier / end for pipes to drain");
  if (cube) group_.add("macs", &c.macs, "count", "multiply-accumulates of every mmad");
  const UnitCounters* cc = &c;
  const uint64_t* total = total_;
  group_.add_formula("utilization", [cc, total] { return ratio(double(cc->busy_cycles), double(*total)); },
                     "ratio", "busy_cycles / total cycles of the launch");
}

}  // namespace npu::hw
