// npusim trace-summary FILE: a terminal summary of a trace written by `npusim run --trace`
// (Chrome trace JSON) or `--instr-csv` (trace_summary_render.h). Exit 2 when the file cannot be
// read.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/lib/commands.h"
#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "isa/error.h"

namespace npu::cli {

void register_trace_summary(CLI::App& app) {
  struct Opts {
    std::string path;
    SummaryOptions s;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("trace-summary",
                                 "Summarise a trace (--trace JSON or --instr-csv CSV of npusim run): pipe "
                                 "utilisation over time, MTE/compute overlap per label, longest waits, critical chain");
  cmd->add_option("file", o->path, "trace file (.json or .csv)")->required();
  cmd->add_option("--width", o->s.width, "columns of the utilisation bars")->check(CLI::Range(10, 400));
  cmd->add_option("--top", o->s.top_waits, "how many of the longest waits to list")->check(CLI::Range(0, 1000));
  cmd->add_option("--chain-rows", o->s.max_chain_rows, "rows of the critical chain to print")->check(CLI::Range(2, 100000));
  cmd->callback([o] {
    try {
      std::cout << render_trace_summary(read_trace_file(o->path), o->path, o->s) << std::flush;
    } catch (const npu::Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
