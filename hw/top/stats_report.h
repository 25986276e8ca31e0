#pragma once
// The statistics of a finished launch: collected from the modules into typed records
// (hw/top/sim_stats.h), and those records as JSON (the "sim" part of stats.json, docs/stats.md).
// Counters live in the modules (CoreModel's UnitStats, the memory system's L2Counters and
// StatGroups); derived figures are computed from the records.
#include <nlohmann/json.hpp>

#include "hw/top/chip_top.h"
#include "hw/top/sim_stats.h"

namespace npu::hw {

// Everything but labels (the trace session adds those).
SimStats collect_stats(const ChipTop& top);

// The records as JSON, integers as integers, every per-item collection a list (docs/stats.md):
//   total_cycles, time_us (null untimed), clock_ghz, block_dim, timing_only, instructions, macs,
//   cores: [{name, type, end_cycle, instructions, pipes: [{pipe, instructions, busy_cycles, ...}]}],
//   l2: {totals..., hit_rate, slices: [...], regions: [{tensor, ...}]} | null,
//   hbm: {bytes_read, bytes_written, gbps, bytes_per_cycle, channels: [...]} | null,
//   noc, gm_ports: {values..., parts: [{name, values...}]}, labels: [...], iss: {steps, rounds}
nlohmann::json sim_stats_json(const SimStats& s);

}  // namespace npu::hw
