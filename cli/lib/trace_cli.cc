#include "cli/lib/trace_cli.h"

#include <CLI/CLI.hpp>

#include "isa/error.h"

namespace npu::cli {
namespace {

// A tracing option whose text parse() reads into opt; its npu::Error is CLI11's validation error.
void add_parsed_option(CLI::App& cmd, const char* name, void (*parse)(const std::string&, hw::TraceOptions&),
                       hw::TraceOptions& opt, const char* description) {
  cmd.add_option_function<std::string>(
         name,
         [parse, &opt](const std::string& s) {
           try {
             parse(s, opt);
           } catch (const Error& e) {
             throw CLI::ValidationError(e.what());
           }
         },
         description)
      ->group("Tracing");
}

}  // namespace

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
  add_parsed_option(cmd, "--trace-window", hw::parse_trace_window, opt,
                    "only cycles START:END in the trace files (either side may be empty)");
  add_parsed_option(cmd, "--trace-select", hw::parse_trace_select, opt,
                    "only these units in the trace files: comma-separated globs over cluster3.aiv1, "
                    "cluster3.aiv1.MTE2, l2.slice5, hbm.ch2, mte");
}

}  // namespace npu::cli
