#pragma once
// Roofline figures derived by `npusim run` (the bound) and the human-readable report, the one
// text rendering of a run (printed by `npusim run`, written as report.txt), made from the typed
// RunResult.
#include <optional>
#include <string>

#include "cli/lib/run_result.h"
#include "hw/config/hw_config.h"

namespace npu::cli {

// flops: the case's `flops`, else 2 * the CUBE pipes' MACs (none when neither is known);
// units (timed runs): per (pipe, core type) but SCALAR the busiest core's busy_cycles /
// total_cycles; HBM's bytes moved / (total_cycles * hbm.bandwidth_gbps / clock_ghz); L2's bytes
// requested / (total_cycles * slices * slice_bytes_per_cycle); highest first (the bound).
Roofline compute_roofline(const hw::HwConfig& hw, std::optional<double> case_flops, const hw::SimStats& sim);

// Every line fits 80 columns (longer ones wrap, indented); only a single word longer than that
// (a long path) can exceed them.
std::string format_report(const RunResult& r);

}  // namespace npu::cli
