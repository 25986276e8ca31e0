#pragma once
// A case's launch sequence (CaseSpec::launches, docs/case-format.md "Launch sequences"): the
// launches run one after the other on the same GM, each kernel assembled and checked against
// the case like a single launch; on the SystemC model the L2 contents are carried from one
// launch to the next (l2_between_launches: warm, the default) or every launch starts with a
// fresh L2 (cold; dirty lines are dropped untimed, their data is in GM already).
//
// The outcome holds the totals of the sequence in the usual places (total_cycles = the sum;
// counters, bytes and busy cycles summed; hit rates, bandwidths and utilisations recomputed
// from the sums over the sequence's cycles; other figures from the last launch) and `launches`:
// per launch {launch, entry, repeat, kernel, kernel_name, block_dim, total_cycles, time_us,
// l2 {totals and regions}, hbm {bytes_read, bytes_written, gbps}}.
#include <string>
#include <vector>

#include "cli/lib/case_data.h"
#include "cli/lib/case_spec.h"
#include "cli/lib/run_backend.h"

namespace npu::cli {

// `base` is the request of the case's top-level launch (GM, regions, config, trace options);
// throws npu::Error for a launch that does not load or faults, naming the launch.
SimOutcome run_launches(const CaseSpec& spec, const SimRequest& base, const std::vector<TensorPlacement>& placement,
                        bool iss);

// The report's per-launch table ("" without a sequence).
std::string format_launches(const nlohmann::json& launches);

}  // namespace npu::cli
