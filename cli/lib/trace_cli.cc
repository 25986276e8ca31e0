#include "cli/lib/trace_cli.h"

#include <CLI/CLI.hpp>

#include "isa/error.h"

namespace npu::cli {

void add_trace_options(CLI::App& cmd, hw::TraceOptions& opt) {
  cmd.add_option("--vcd", opt.vcd_path, "write a VCD waveform of pipes, queues, flags, L2 slices, HBM channels")
      ->group("Tracing");
  cmd.add_option("--trace", opt.json_path,
                 "write the instruction timeline (Chrome Trace Event JSON: Perfetto UI, ui.perfetto.dev)")
      ->group("Tracing");
  cmd.add_option("--gtkw", opt.gtkw_path,
                 "with --vcd: also write a GTKWave save file (signals grouped per core, opcodes by name through "
                 "FILE.opcodes, counters in decimal)")
      ->group("Tracing")
      ->needs("--vcd");
  cmd.add_option("--instr-csv", opt.csv_path, "write one CSV row per executed instruction")->group("Tracing");
  cmd.add_option_function<std::string>(
         "--trace-window",
         [&opt](const std::string& s) {
           try {
             hw::parse_trace_window(s, opt);
           } catch (const Error& e) {
             throw CLI::ValidationError(e.what());
           }
         },
         "only cycles START:END in the trace files (either side may be empty)")
      ->group("Tracing");
  cmd.add_option_function<std::string>(
         "--trace-select",
         [&opt](const std::string& s) {
           try {
             hw::parse_trace_select(s, opt);
           } catch (const Error& e) {
             throw CLI::ValidationError(e.what());
           }
         },
         "only these units in the trace files: comma-separated globs over cluster3.aiv1, cluster3.aiv1.MTE2, "
         "l2.slice5, hbm.ch2, mte")
      ->group("Tracing");
}

}  // namespace npu::cli
