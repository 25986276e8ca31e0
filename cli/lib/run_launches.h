#pragma once
// A case's launch sequence (CaseSpec::launches, docs/case-format.md "Launch sequences"): the
// launches run one after the other on the same GM, each kernel assembled and checked against
// the case like a single launch; on the SystemC model the L2 contents are carried from one
// launch to the next (l2_between_launches: warm, the default) or every launch starts with a
// fresh L2 (cold; dirty lines are dropped untimed, their data is in GM already).
//
// The outcome holds the totals of the sequence in the usual place (hw::append_launch: cycles and
// counters summed, rates derived from the sums when asked) and one LaunchRecord per launch with
// that launch's own statistics (stats.json "launches", docs/stats.md).
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
std::string format_launches(const std::vector<LaunchRecord>& launches);

}  // namespace npu::cli
