#pragma once
// The typed statistics of a launch (hw/top/sim_stats.h) as JSON: the "sim" part of stats.json
// (docs/stats.md), written only here, at the edge. Integers as integers, every per-item
// collection a list:
//   total_cycles, time_us (null untimed), clock_ghz, block_dim, timing_only, instructions, macs,
//   cores: [{name, type, end_cycle, instructions, pipes: [{pipe, instructions, busy_cycles, ...}]}],
//   l2: {totals..., hit_rate, slices: [...], regions: [{tensor, ...}]} | null,
//   hbm: {bytes_read, bytes_written, gbps, bytes_per_cycle, channels: [...]} | null,
//   noc, gm_ports: {values..., parts: [{name, values...}]}, labels: [...], iss: {steps, rounds}
#include <nlohmann/json.hpp>

#include "hw/top/sim_stats.h"

namespace npu::cli {

nlohmann::json sim_stats_json(const hw::SimStats& s);

}  // namespace npu::cli
