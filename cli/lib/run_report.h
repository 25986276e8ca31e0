#pragma once
// stats.json figures derived by `npusim run` (roofline, bound) and the human-readable report,
// which is formatted from stats.json alone so the two never disagree.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/lib/run_backend.h"
#include "hw/config/hw_config.h"

namespace npu::cli {

// {"peak_tflops": chip bf16 peak = 2 * clusters * m0 * n0 * k0_b16 * clock,
//  "flops": the case's `flops`, else 2 * the CUBE pipes' MACs (null when neither is known),
//  "flops_source": "case" | "cube_macs" | null, "achieved_tflops", "fraction_of_peak",
//  "units": [{"unit": "CUBE (aic)", "utilization": u}, ...],   (timed runs only)
//  "bound": {"unit": ..., "utilization": u}}                   (the unit with the highest u)
// A pipe's utilisation is its busiest core's busy_cycles / total_cycles; HBM's is the bytes moved
// / (total_cycles * hbm.bandwidth_gbps / clock_ghz); L2's is the bytes requested /
// (total_cycles * slices * slice_bytes_per_cycle).
nlohmann::json roofline_json(const hw::HwConfig& hw, std::optional<double> case_flops,
                             const SimOutcome& sim);

// The report `npusim run` prints and writes as report.txt.
std::string format_report(const nlohmann::json& stats);

}  // namespace npu::cli
