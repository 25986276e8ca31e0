// hw::RunOptions::keep_model_at_exit: a run that leaves its model for the process's end gives
// the same figures as one that tears it down, and the runs after it in the same process are
// unaffected (a new SystemC context each).
#include <gtest/gtest.h>

#include "cli/lib/sim_stats_json.h"
#include "hw/top/bench.h"
#include "hw/top/run.h"
#include "isa/sem/gm.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

TEST(KeepModelAtExit, SameFiguresAndLaterRunsUnaffected) {
  const hw::HwConfig cfg = load_repo_config("ascend910b");
  const hw::BenchWorkload w = hw::bench_workloads(cfg, 1).front();  // one AIV streaming GM -> UB -> GM
  nlohmann::json first;
  for (bool keep : {true, true, false}) {
    sem::GlobalMemory gm(cfg.hbm.size);
    gm.fill(0, 1, w.gm_bytes);
    hw::RunOptions opt;
    opt.keep_model_at_exit = keep;
    hw::RunResult r = hw::run_systemc(cfg, w.program, gm, w.params, w.block_dim, opt);
    const nlohmann::json stats = cli::sim_stats_json(r.stats);
    if (first.is_null()) first = stats;
    EXPECT_EQ(stats, first) << "keep_model_at_exit " << keep;
    EXPECT_GT(r.total_cycles, 0u);
  }
}

}  // namespace
}  // namespace npu::test
