#pragma once
// The statistics of a finished launch: collected from the modules into typed records
// (hw/top/sim_stats.h; JSON is written from them only at the CLI edge, cli/lib/sim_stats_json.h).
// Counters live in the modules (CoreModel's UnitStats, the memory system's L2Counters and
// StatGroups); derived figures are computed from the records.
#include "hw/top/chip_top.h"
#include "hw/top/sim_stats.h"

namespace npu::hw {

// Everything but labels (the trace session adds those).
SimStats collect_stats(const ChipTop& top);

}  // namespace npu::hw
