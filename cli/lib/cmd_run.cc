// npusim run CASE: run a case on the SystemC model (or the ISS) and judge its outputs
// (run_case.h, docs/case-format.md). Exit codes: 0 every compared output passes, 1 a comparison
// failed, 2 bad input (case, config, kernel, data), a kernel fault or hang, or an I/O error.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "base/file_io.h"
#include "base/output_file.h"
#include "cli/lib/bench_process.h"
#include "cli/lib/commands.h"
#include "cli/lib/html_report.h"
#include "cli/lib/progress.h"
#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "cli/lib/trace_cli.h"
#include "cli/lib/trace_summary_read.h"
#include "isa/error.h"

namespace npu::cli {

void register_run(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto quiet = std::make_shared<bool>(false);
  auto html = std::make_shared<std::string>();
  // Shorthands for --set sim.max_cycles=N / sim.max_instructions=N (the keys stay the one source).
  auto limits = std::make_shared<std::vector<std::pair<std::string, std::string>>>();
  auto* run = app.add_subcommand("run", "Run a case (kernel + tensors + golden) and report cycles, "
                                        "utilisation, memory behaviour and numerics");
  run->add_option("case", o->case_path, "case file (.yaml, see docs/case-format.md)")->required();
  run->add_option("--config", o->config_path,
                  "hardware config: a file, or a shipped config's name (ascend910b, ascend950, tiny); "
                  "default $NPUSIM_CONFIG, else ascend910b from the data directory (README \"Install\")");
  run->add_option("--set", o->sets, "override a config key: key.path=value (repeatable)");
  run->add_option("--var", o->vars, "override a case var: NAME=VALUE (repeatable)");
  run->add_option("--cache", o->caches,
                  "override a tensor's cache policy: TENSOR=normal|none_cacheable|prefetch|kernel "
                  "(kernel = the kernel's own DMA hints; repeatable)");
  run->add_option("--out", o->out_dir,
                  "write stats.json, report.txt, config.yaml and the output tensors (.npy) here; "
                  "replaced only when the run completes");
  run->add_option("--dump-inputs", o->dump_inputs_dir,
                  "write every input tensor as the kernel saw it (<name>.npy values, <name>.raw.npy bits for "
                  "16- and 8-bit types, inputs.json) here when the run completes; --out also writes them, "
                  "into DIR/inputs/");
  run->add_option("--kernel", o->kernel_path, "run this kernel file (.s or .npuo) instead of the case's");
  run->add_option("--block-dim", o->block_dim, "launch this many blocks instead of the case's block_dim")
      ->check(CLI::PositiveNumber);
  run->add_flag("--timing-only", o->timing_only,
                "cycles only: no data effects, no inputs generated, no golden, no outputs written "
                "(cycles and statistics identical to a full run; SystemC model only)");
  run->add_flag("--iss", o->iss, "run the functional ISS instead of the SystemC model (no timing)");
  for (const auto& [opt, key] : {std::pair<std::string, std::string>{"--max-cycles", "sim.max_cycles"},
                                 {"--max-instructions", "sim.max_instructions"}})
    run->add_option_function<uint64_t>(
        opt, [limits, key = key](uint64_t n) { limits->emplace_back(key, std::to_string(n)); },
        "run limit: same as --set " + key + "=N (exit 2 when the run needs more; docs/config.md)");
  run->add_option("--race", o->race,
                  "race / missing-synchronisation checker: error (exit 2 at the first race or flag left "
                  "set), warn (print the findings, go on) or off; default error with --iss, off on SystemC")
      ->check(CLI::IsMember({"error", "warn", "off"}));
  run->add_flag("-q,--quiet", *quiet, "do not print the report");
  add_trace_options(*run, o->trace);  // --vcd, --trace, --instr-csv, --trace-window, --trace-select
  run->add_option("--html", *html,
                  "write a self-contained HTML report: zoomable timeline, HBM / L2 over time, per-label "
                  "table, bound, numerics (SystemC model only)")
      ->group("Tracing");
  run->callback([o, quiet, limits, html] {
    for (const auto& [key, n] : *limits) o->sets.push_back(key + "=" + n);
    o->command_line = command_line();
    RunResult r;
    std::unique_ptr<TempPath> scratch_trace;  // --html without --trace: the timeline's source
    try {
      if (!html->empty() && o->iss) throw Error("--html needs the SystemC model (not --iss)");
      if (!html->empty() && o->trace.json_path.empty()) {
        scratch_trace = std::make_unique<TempPath>(*html + ".trace." + std::to_string(getpid()) + ".json");
        o->trace.json_path = scratch_trace->path();
      }
      {
        // Only on a terminal, and gone (line erased) before any report or error is printed.
        std::unique_ptr<ProgressLine> progress;
        if (!*quiet && isatty(STDERR_FILENO)) progress = std::make_unique<ProgressLine>();
        o->progress = progress.get();
        const std::unique_ptr<HostPhases> phases = bench_child_phases();  // `npusim bench`'s process rows
        o->host_phases = phases.get();
        o->process_ends_after = true;
        r = run_case(*o);
        o->progress = nullptr;
        o->host_phases = nullptr;
        if (phases) write_bench_child_phases(*phases);
      }
      if (!html->empty()) {
        const TraceData d = read_trace_file(o->trace.json_path);
        write_file_atomic(*html, render_html_report(d, html_report_of_run(r)));
      }
      if (scratch_trace) std::filesystem::remove(scratch_trace->path());
    } catch (const npu::Error& e) {
      if (scratch_trace) std::filesystem::remove(scratch_trace->path());
      // Case and config errors already read "FILE:LINE:COL: error: ..." (one per line).
      std::string msg = e.what();
      bool located = msg.find(": error: ") != std::string::npos && msg.find(": error: ") < msg.find('\n');
      std::cerr << (located ? "" : "error: ") << msg << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
    if (!*quiet) std::cout << format_report(r) << std::flush;
    if (r.exit_code != kExitPass) throw CLI::RuntimeError(r.exit_code);
  });
}

}  // namespace npu::cli
