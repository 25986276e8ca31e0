#pragma once
// One set of trace files for a launch sequence (npusim run on a case with `launches`): every
// launch is traced into files of its own (its own SystemC run, times from its cycle 0), then
// merge_launch_traces joins them into the requested files, the launches one after another on one
// time line: launch i is shifted by the cycles of the launches before it (the sequence's
// total_cycles counts them the same way), and labelled:
//   Chrome JSON  every event's ts (and its args' cycle, end_cycle, dispatch_cycle) shifted; a
//                process keeps one pid across launches (matched by name); a global instant event
//                "launch i: KERNEL" at each launch's start; otherData.launches lists
//                {launch, kernel, start_cycle, cycles}.
//   CSV          the instruction rows with dispatch / start / end cycles shifted and a last
//                column `launch` (the header gains it too).
//   VCD          one header (its $comment lists each launch's start cycle) and the value changes
//                of every launch, shifted by start_cycle * ticks-per-cycle; each launch's initial
//                values become changes at its start. A VCD declares its signals once, so the
//                launches must trace the same signals (the same cores, pipes, flags, slices and
//                channels): launches that do not (another kernel, another block_dim) are refused,
//                naming both, before any file is written.
// The files appear whole or not at all (base/output_file.h). Throws npu::Error.
#include <cstdint>
#include <string>
#include <vector>

#include "hw/top/trace_options.h"

namespace npu::hw {

struct LaunchTracePart {
  TraceOptions files;        // where this launch's files were written (the paths that are set)
  uint64_t start_cycle = 0;  // cycles of the launches before it
  uint64_t cycles = 0;       // this launch's total_cycles
  std::string kernel;        // for the labels ("linear (kernels/linear.s)")
};

// `out`: the requested files (paths, window, selection); `clock_ghz`: the chip clock (the VCD
// time scale: SystemC ticks per cycle).
void merge_launch_traces(const TraceOptions& out, const std::vector<LaunchTracePart>& parts, double clock_ghz);

// The window of launch `start_cycle`'s own trace for the sequence's window `global` (cycles of
// the whole sequence), as TraceOptions with the paths of `files`.
TraceOptions launch_trace_options(const TraceOptions& global, const TraceOptions& files, uint64_t start_cycle);

}  // namespace npu::hw
