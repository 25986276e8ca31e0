#pragma once
// `npusim trace-summary --hotspots N`: the N source lines (the `source` of each executed
// instruction: file:line and macro invocations) with the most busy cycles, summed over cores and
// units, as msprof's code view ranks them: busy cycles, share of all busy cycles, instructions
// executed, stall cycles before them, and the pipes they ran on.
#include <string>

#include "cli/lib/trace_summary_read.h"

namespace npu::cli {

std::string render_hotspots(const TraceData& d, int top);

}  // namespace npu::cli
