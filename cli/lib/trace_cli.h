#pragma once
// The tracing options of `npusim run` (docs/tracing.md):
//   --vcd FILE              VCD waveform (GTKWave, Surfer)
//   --trace FILE            instruction timeline, Chrome Trace Event JSON (Perfetto UI, ui.perfetto.dev)
//   --gtkw FILE             with --vcd: a GTKWave save file for it (hw/top/trace_gtkw.h)
//   --instr-csv FILE        one row per executed instruction
//   --trace-window S:E      only cycles [S, E) in those files
//   --trace-select GLOBS    only these cores / units ("cluster0.*,hbm.ch*"), comma-separated
// Bad window / selection text is a usage error (exit 2).
#include "hw/top/trace_options.h"

namespace CLI {
class App;
}

namespace npu::cli {

void add_trace_options(CLI::App& cmd, hw::TraceOptions& opt);

}  // namespace npu::cli
