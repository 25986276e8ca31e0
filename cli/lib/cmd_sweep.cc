// npusim sweep SPEC --out DIR, npusim sweep merge DIR... --out DIR, npusim sweep plot DIR
// (sweep_run.h, sweep_plot.h, docs/sweeps.md).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/lib/commands.h"
#include "cli/lib/run_case.h"
#include "cli/lib/sweep_plot.h"
#include "cli/lib/sweep_run.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

// Runs a command body; npu::Error is bad input (exit 2, the message as `npusim run` prints it).
template <typename F>
void run_or_exit(F body) {
  int status;
  try {
    status = body();
  } catch (const npu::Error& e) {
    std::string msg = e.what();
    const size_t err = msg.find(": error: ");
    std::cerr << (err != std::string::npos && err < msg.find('\n') ? "" : "error: ") << msg << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  if (status != 0) throw CLI::RuntimeError(status);
}

}  // namespace

void register_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepRunOptions>();
  auto shard = std::make_shared<std::string>();
  auto* sweep = app.add_subcommand("sweep", "Run a sweep spec: every point as `npusim run`, resumable, parallel, "
                                            "sharded; results.csv / results.jsonl (docs/sweeps.md)");
  sweep->add_option("spec", o->spec_path, "sweep spec (.yaml, see docs/sweeps.md)");
  sweep->add_option("--out", o->out_dir, "the sweep directory (new, empty, or a previous run of a sweep: resumed)");
  sweep->add_option("--jobs,-j", o->jobs, "points run in parallel on this machine (default 1)");
  sweep->add_option("--shard", *shard, "run only slice K of N (K = 0..N-1: the points with index % N == K)");
  sweep->callback([sweep, o, shard] {
    if (!sweep->get_subcommands().empty()) return;  // merge / plot
    if (o->spec_path.empty() || o->out_dir.empty()) {
      std::cerr << "npusim sweep: a SPEC and --out DIR are needed (npusim sweep --help)\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    run_or_exit([&] {
      if (!shard->empty()) {
        const size_t slash = shard->find('/');
        try {
          if (slash == std::string::npos) throw std::invalid_argument("no /");
          size_t end1 = 0, end2 = 0;
          o->shard = std::stoi(shard->substr(0, slash), &end1);
          o->shards = std::stoi(shard->substr(slash + 1), &end2);
          if (end1 != slash || end2 != shard->size() - slash - 1) throw std::invalid_argument("trailing text");
        } catch (const std::logic_error&) {
          throw Error("--shard " + *shard + ": error: expected K/N, e.g. 0/4");
        }
      }
      return run_sweep(*o);
    });
  });

  auto dirs = std::make_shared<std::vector<std::string>>();
  auto merged = std::make_shared<std::string>();
  auto* merge = sweep->add_subcommand("merge", "Join the shard directories of one sweep into --out DIR "
                                               "(every point complete in one of them)");
  merge->add_option("dirs", *dirs, "shard directories")->required();
  merge->add_option("--out", *merged, "the joined sweep directory (may be one of the shards)")->required();
  merge->callback([dirs, merged] { run_or_exit([&] { return merge_sweeps(*dirs, *merged); }); });

  auto po = std::make_shared<PlotOptions>();
  auto* plot = sweep->add_subcommand("plot", "Plot a sweep's results as SVG (and PNG when rsvg-convert is "
                                             "installed): a line chart over a numeric axis, else bars");
  plot->add_option("dir", po->dir, "sweep directory (with results.csv)")->required();
  plot->add_option("--x", po->x, "the x axis (default: the first axis with more than one value)");
  plot->add_option("--y", po->y, "the metric (a results.csv column; default cycles)");
  plot->add_option("--series", po->series,
                   "one line / bar colour per value of this axis (default: the other varying axes)");
  plot->add_option("--out", po->out, "the SVG file (default DIR/plot-Y-vs-X.svg)");
  plot->callback([po] {
    run_or_exit([&] {
      for (const std::string& f : write_sweep_plot(*po)) std::cout << "wrote " << f << "\n";
      return 0;
    });
  });
}

}  // namespace npu::cli
