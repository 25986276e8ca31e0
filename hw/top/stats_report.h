#pragma once
// Statistics of a finished launch as JSON and as a human summary. Counters live in the modules
// (CoreModel's UnitStats, the memory system's StatGroups); everything derived (time, FLOPS,
// utilisation, hit rates) is computed here, at dump time.
//
// JSON layout (top-level keys; the kernels helper adds "numerics"):
//   total_cycles, time_us, clock_ghz, block_dim, timing_only, instructions,
//   flops, achieved_tflops, peak_tflops, flops_utilization
//       peak = chip.clusters * m0 * n0 * k0_b16 * 2 * clock (bf16 cube rate of the whole chip)
//   cores: [ { "name": "cluster0.aic", "end_cycle": N,
//              "pipes": { "SCALAR": {instructions, busy_cycles, stall_flag_wait, stall_memory,
//                                    stall_queue_full, stall_barrier, utilization}, "MTE2": ..., } } ]
//   l2:   the memory system's L2 group (totals, per slice) plus "regions" (per tensor)
//   hbm:  the HBM group (per channel)
//   noc, gm_ports: the interconnect and GmPort groups
#include <string>

#include <nlohmann/json.hpp>

#include "hw/top/chip_top.h"

namespace npu::hw {

nlohmann::json stats_json(const ChipTop& top);
// A few lines: cycles, time, FLOPS, per pipe busy % (mean over cores of each type), L2, HBM.
std::string stats_summary(const nlohmann::json& stats);

}  // namespace npu::hw
