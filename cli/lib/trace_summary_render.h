#pragma once
// `npusim trace-summary`: what a trace (trace_summary_read.h) says, as terminal text:
//   1. per-pipe utilisation over time: one text bar per core type and pipe, `width` columns,
//      each the mean busy share of that pipe in the column's cycles over the cores of that type
//      that have events on it (" " idle, then ".:-=+*#%@" in ninths: "." up to 1/9, "@" above 8/9);
//   2. per semantic label: how the MTE pipes (MTE1/2/3, FIXP) and the compute pipes (CUBE,
//      VECTOR) overlapped over the label's span, summed over cores: both busy / MTE only /
//      compute only / neither;
//   3. the longest flag waits (wait_flag, cc_wait);
//   4. the critical chain: from the instruction that ended last, back through what each one
//      waited for (the set_flag or cc_set that released its wait, the previous instruction of its
//      pipe, or its dispatch), printed forward as runs of one unit, with the chain's time per unit.
#include <string>

#include "cli/lib/trace_summary_read.h"

namespace npu::cli {

struct SummaryOptions {
  int width = 60;       // columns of the utilisation bars
  int top_waits = 10;    // rows of the longest waits (identical waits on several cores are one row)
  int max_chain_rows = 40;
};

// `d` holds what the readers guarantee (trace_summary_read.h); sums saturate rather than wrap.
std::string render_trace_summary(const TraceData& d, const std::string& name, const SummaryOptions& o = {});

}  // namespace npu::cli
