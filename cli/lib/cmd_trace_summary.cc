// npusim trace-summary FILE: a terminal summary of a trace written by `npusim run --trace`
// (Chrome trace JSON) or `--instr-csv` (trace_summary_render.h). Exit 2 when the file cannot be
// read.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "base/file_io.h"
#include "cli/lib/commands.h"
#include "cli/lib/html_report.h"
#include "cli/lib/trace_hotspots.h"
#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "isa/error.h"

namespace npu::cli {

void register_trace_summary(CLI::App& app) {
  struct Opts {
    std::string path, html;
    int hotspots = 0;
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
  cmd->add_option("--html", o->html,
                  "also write a self-contained HTML report of the trace (timeline, HBM / L2 over time, per-label table)");
  cmd->add_option("--hotspots", o->hotspots,
                  "also rank the N source lines with the most busy cycles (file:line of each instruction)")
      ->check(CLI::Range(1, 100000));
  cmd->callback([o] {
    try {
      const TraceData d = read_trace_file(o->path);
      if (!o->html.empty()) write_file_atomic(o->html, render_html_report(d, {"npusim trace-summary " + o->path, {}, ""}));
      std::cout << render_trace_summary(d, o->path, o->s);
      if (o->hotspots) std::cout << "\n" << render_hotspots(d, o->hotspots);
      std::cout << std::flush;
    } catch (const npu::Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
