// `npusim run` end to end: the built binary (NPUSIM_BIN) on the test kernel
// testbench/system/data/run_rmsnorm.s (RMSNorm with gamma, one row per AIV).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/build_info.h"
#include "cli/lib/run_result.h"
#include "hw/config/loader.h"
#include "golden/compare.h"
#include "golden/npy.h"
#include "golden/random.h"
#include "golden/registry.h"
#include "testbench/support/cli_support.h"

namespace fs = std::filesystem;

namespace {

using npu::test::slurp;
using npu::test::stats_item;
using npu::test::source_dir;
std::string data(const std::string& f) { return npu::test::system_data(f); }
std::string config() { return source_dir() + "/configs/ascend910b.yaml"; }

// A fresh scratch directory per test.
class RunCli : public npu::test::CliScratchTest {
 protected:

  // Runs `npusim run ARGS`; returns the exit status, with stdout/stderr in out_/err_.
  int run(const std::string& args) { return npusim("run " + args); }

  // The good case (data/run_rmsnorm.yaml) with `golden_extra` appended to the golden mapping
  // and `x_init` as x's init spec, written into the scratch directory.
  std::string write_case(const std::string& golden_extra = "", const std::string& x_init = "{uniform: [-1, 1], seed: 1}",
                         const std::string& rows = "R") {
    std::string text =
        "kernel: " + data("run_rmsnorm.s") + "\n"
        "block_dim: 2\n"
        "vars: {R: 4, D: 256}\n"
        "params: {rows: " + rows + ", D: D, eps: 1.0e-6}\n"
        "tensors:\n"
        "  x:     {dtype: bf16, shape: [R, D], init: " + x_init + "}\n"
        "  gamma: {dtype: bf16, shape: [D], init: {uniform: [-1, 1], seed: 2}, cache: none_cacheable}\n"
        "  y:     {dtype: bf16, shape: [R, D], role: output}\n"
        "golden: {name: rmsnorm, has_gamma: true, inputs: {x: x, gamma: gamma}, outputs: {out: y}" + golden_extra + "}\n";
    std::ofstream(path("case.yaml")) << text;
    return path("case.yaml");
  }

  // The golden of the good case, computed here from the same seeds.
  static npu::golden::Tensor expected_y() {
    using npu::golden::Dtype;
    npu::golden::Rng r1(1), r2(2);
    npu::golden::TensorMap in;
    in["x"] = npu::golden::random_uniform(Dtype::BF16, {4, 256}, -1, 1, r1);
    in["gamma"] = npu::golden::random_uniform(Dtype::BF16, {256}, -1, 1, r2);
    return npu::golden::run_golden("rmsnorm", {{"eps", "1e-6"}}, in).at("out");
  }

  // Checks an output directory of the good case: files, stats keys, y.npy against the golden.
  void check_good_outputs(const std::string& out) {
    for (const char* f : {"stats.json", "report.txt", "config.yaml", "y.npy", "y.raw.npy"})
      EXPECT_TRUE(fs::is_regular_file(fs::path(out) / f)) << f;
    // No staging directory is left next to it.
    for (const auto& e : fs::directory_iterator(fs::path(out).parent_path()))
      EXPECT_EQ(e.path().filename().string().rfind(".out.", 0), std::string::npos) << e.path();
    nlohmann::json s = nlohmann::json::parse(slurp(out + "/stats.json"));
    for (const char* k : {"total_cycles", "time_us", "clock_ghz", "cores", "l2", "hbm", "numerics"})
      EXPECT_TRUE(s.contains(k)) << k;
    EXPECT_EQ(s["clock_ghz"], 1.8);
    EXPECT_EQ(s["numerics"]["all_pass"], true);
  EXPECT_EQ(s["numerics"]["verdict"], "PASS");
    EXPECT_EQ(stats_item(s["numerics"]["outputs"], "tensor", "y")["pass"], true);
    EXPECT_EQ(slurp(out + "/report.txt"), out_);
    // y.npy: exact float32 values; y.raw.npy: the bf16 bits of the same values.
    npu::golden::NpyArray vals = npu::golden::read_npy(out + "/y.npy");
    npu::golden::NpyArray raw = npu::golden::read_npy(out + "/y.raw.npy");
    EXPECT_EQ(vals.descr, "<f4");
    EXPECT_EQ(raw.descr, "<u2");
    EXPECT_EQ(vals.shape, (std::vector<int64_t>{4, 256}));
    npu::golden::Tensor y = npu::golden::tensor_from_npy(raw, npu::golden::Dtype::BF16, "y.raw.npy");
    npu::golden::Tensor yv = npu::golden::read_npy_tensor(out + "/y.npy");
    for (int64_t i = 0; i < y.numel(); ++i) ASSERT_EQ(y.get(i), yv.get(i)) << i;
    npu::golden::CompareResult c = npu::golden::compare(y, expected_y());
    EXPECT_TRUE(c.pass) << npu::golden::format_result("y", c);
  }
};

TEST_F(RunCli, GoodCaseOnTheIss) {
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --out " + path("out")), 0) << err_;
  EXPECT_EQ(err_, "");
  check_good_outputs(path("out"));
  nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  EXPECT_TRUE(s["total_cycles"].is_null());  // the ISS has no time
  EXPECT_EQ(s["cores"].size(), 4u);           // block_dim 2 x 2 AIVs (the kernel has no AIC part)
  EXPECT_NE(out_.find("Result: PASS (1 of 1 compared outputs pass)"), std::string::npos) << out_;
}

// --race: the test kernel without its MTE2 -> VECTOR flag pair. On the ISS the checker is on
// (exit 2 naming both instructions and their lines); --race=warn prints it and goes on; on
// SystemC it is off unless asked for.
TEST_F(RunCli, RaceCheckerOnTheCli) {
  std::string kernel = slurp(data("run_rmsnorm.s"));
  for (const std::string line : {"    set_flag  mte2, vector, 0\n", "    wait_flag mte2, vector, 0\n"}) {
    size_t at = kernel.find(line);
    ASSERT_NE(at, std::string::npos) << line;
    kernel.erase(at, line.size());
  }
  std::ofstream(path("racy.s")) << kernel;
  std::string text = slurp(data("run_rmsnorm.yaml"));
  size_t k = text.find("kernel:");
  ASSERT_NE(k, std::string::npos);
  text.replace(k, text.find('\n', k) - k, "kernel: " + path("racy.s"));
  std::ofstream(path("case.yaml")) << text;
  EXPECT_EQ(run(path("case.yaml") + " --iss -q --config " + config()), 2);
  EXPECT_NE(err_.find("error: race on UB ["), std::string::npos) << err_;
  EXPECT_NE(err_.find("racy.s:"), std::string::npos) << err_;
  EXPECT_NE(run(path("case.yaml") + " --iss -q --race=warn --config " + config()), 2) << err_;
  EXPECT_NE(err_.find("warning: race on UB ["), std::string::npos) << err_;
  EXPECT_NE(run(path("case.yaml") + " -q --config " + config()), 2) << err_;
  EXPECT_EQ(err_.find("race"), std::string::npos) << err_;
  EXPECT_EQ(run(path("case.yaml") + " -q --race=error --config " + config()), 2);
  EXPECT_NE(err_.find("error: race on UB ["), std::string::npos) << err_;
}

TEST_F(RunCli, GoodCaseOnSystemC) {
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --config " + config() + " --out " + path("out")), 0) << err_;
  check_good_outputs(path("out"));
  nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  ASSERT_TRUE(s["total_cycles"].is_number_unsigned());
  uint64_t cycles = s["total_cycles"];
  EXPECT_GT(cycles, 0u);
  EXPECT_DOUBLE_EQ(s["time_us"].get<double>(), cycles / 1800.0);  // 1.8 GHz = 1800 cycles/us
  // docs/stats.md: the schema, the build and how the run was started are recorded; lists of
  // objects carry integer counters.
  EXPECT_EQ(s["schema_version"], npu::cli::kStatsSchemaVersion);
  EXPECT_EQ(s["npusim"]["version"], npu::build_version());
  EXPECT_EQ(s["npusim"]["git"], npu::build_git_hash());
  const std::string cmd = s["npusim_run"]["command_line"];
  EXPECT_NE(cmd.find(" run " + data("run_rmsnorm.yaml") + " --config "), std::string::npos) << cmd;
  const nlohmann::json& core = stats_item(s["cores"], "name", "cluster0.aiv0");
  EXPECT_EQ(core["type"], "aiv");
  EXPECT_TRUE(stats_item(core["pipes"], "pipe", "MTE2")["busy_cycles"].is_number_unsigned());
  EXPECT_TRUE(s["hbm"]["bytes_read"].is_number_unsigned());
  EXPECT_TRUE(s["l2"]["read_misses"].is_number_unsigned());
  // gamma is none_cacheable (the case overrides the kernel's `normal`): its one 512-byte line is
  // read once by each of the 4 AIVs, every time from HBM. x: 4 rows of 512 B = 4 distinct lines,
  // each read once by one AIV: 4 read misses, no bypass.
  const nlohmann::json& gamma = stats_item(s["l2"]["regions"], "tensor", "gamma");
  const nlohmann::json& x = stats_item(s["l2"]["regions"], "tensor", "x");
  EXPECT_EQ(gamma["bypass_reads"], 4);
  EXPECT_EQ(gamma["read_hits"], 0);
  EXPECT_EQ(x["read_misses"], 4);
  EXPECT_EQ(x["bypass_reads"], 0);
  EXPECT_EQ(stats_item(s["tensors"], "name", "gamma")["cache"], "none_cacheable");
  // config.yaml is the resolved config: it loads and equals the one the run used.
  EXPECT_TRUE(npu::hw::same_config(npu::hw::load_config(path("out/config.yaml")), npu::hw::load_config(config())));
  EXPECT_NE(out_.find("Bound\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find("HBM\n  read 4.00 KiB"), std::string::npos) << out_;  // 4 gamma reads + 4 x misses
}

// --timing-only runs the same launch without data effects: the same cycles and L2 / HBM
// statistics (the model's timing never depends on data), nothing compared, exit 0.
TEST_F(RunCli, TimingOnlyGivesTheFullRunsCycles) {
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --config " + config() + " --out " + path("full")), 0) << err_;
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --config " + config() + " --timing-only --out " + path("timing")), 0)
      << err_;
  nlohmann::json full = nlohmann::json::parse(slurp(path("full/stats.json")));
  nlohmann::json timing = nlohmann::json::parse(slurp(path("timing/stats.json")));
  EXPECT_EQ(timing["total_cycles"], full["total_cycles"]);
  EXPECT_EQ(timing["l2"], full["l2"]);
  EXPECT_EQ(timing["hbm"], full["hbm"]);
  EXPECT_TRUE(timing["numerics"]["outputs"].empty());  // no output computed, none judged
  EXPECT_EQ(timing["numerics"]["verdict"], "TIMING ONLY");
  EXPECT_EQ(stats_item(full["numerics"]["outputs"], "tensor", "y")["compared"], true);
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --config " + config() + " --timing-only --iss"), 2);
  EXPECT_NE(err_.find("--timing-only needs the SystemC model"), std::string::npos) << err_;
}

// --cache flips a tensor's policy without editing the case: gamma back to the kernel's own
// `normal` hint, then x to none_cacheable. gamma's one line: 1 miss + 3 hits (4 AIVs) instead of
// 4 bypasses; x: each of its 4 lines read once, now from HBM without allocating: 4 bypasses.
TEST_F(RunCli, CacheOverrideFlipsTensorPolicies) {
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " -q --config " + config() + " --out " + path("out") +
                " --cache gamma=kernel --cache x=none_cacheable"), 0) << err_;
  nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  const nlohmann::json& gamma = stats_item(s["l2"]["regions"], "tensor", "gamma");
  const nlohmann::json& x = stats_item(s["l2"]["regions"], "tensor", "x");
  EXPECT_EQ(gamma["bypass_reads"], 0);
  EXPECT_EQ(gamma["read_misses"].get<int>() + gamma["read_hits"].get<int>(), 4);
  EXPECT_EQ(x["bypass_reads"], 4);
  EXPECT_EQ(x["read_hits"], 0);
  EXPECT_EQ(stats_item(s["tensors"], "name", "x")["cache"], "none_cacheable");
  EXPECT_EQ(s["npusim_run"]["cache_overrides"], (nlohmann::json{"gamma=kernel", "x=none_cacheable"}));
}

TEST_F(RunCli, CacheOverrideErrorsExit2) {
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --cache w=normal"), 2);
  EXPECT_EQ(err_, "--cache w=normal: error: no tensor 'w' in the case (tensors: x, gamma, y)\n");
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --cache x=sometimes"), 2);
  EXPECT_EQ(err_, "--cache x=sometimes: error: unknown policy 'sometimes' (normal, none_cacheable, prefetch, kernel)\n");
}

TEST_F(RunCli, DefaultConfigIsFoundAboveTheBinary) {
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --iss -q"), 0) << err_;
  EXPECT_EQ(out_, "");  // --quiet
}

TEST_F(RunCli, WrongGoldenAttributeFailsWithExit1) {
  // eps 0.5 instead of the kernel's 1e-6: rstd changes by ~40 %, every element is off.
  std::string c = write_case(", eps: 0.5");
  EXPECT_EQ(run(c + " --iss --config " + config() + " --out " + path("out")), 1) << err_;
  nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  EXPECT_EQ(s["numerics"]["all_pass"], false);
  EXPECT_EQ(s["numerics"]["verdict"], "FAIL");
  const nlohmann::json& y = stats_item(s["numerics"]["outputs"], "tensor", "y");
  EXPECT_EQ(y["pass"], false);
  EXPECT_GT(y["bad_count"].get<int>(), 5);  // allowed: round(0.005 * 1024) = 5
  EXPECT_NE(out_.find("y: FAIL"), std::string::npos) << out_;
  EXPECT_NE(out_.find("Result: FAIL (0 of 1 compared outputs pass)"), std::string::npos) << out_;
}

// A case whose outputs have no golden compares nothing: NOT CHECKED with its own exit status,
// never PASS; the outputs are still written.
TEST_F(RunCli, NothingComparedIsNotCheckedWithExit3) {
  std::string text = slurp(write_case());
  text.erase(text.find("golden:"));
  std::ofstream(path("unchecked.yaml")) << text;
  EXPECT_EQ(run(path("unchecked.yaml") + " --iss --config " + config() + " --out " + path("out")), 3) << err_;
  EXPECT_NE(out_.find("  y: not compared (no golden output bound to it)\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find("Result: NOT CHECKED (no output tensor has a golden to compare with)\n"), std::string::npos) << out_;
  EXPECT_EQ(out_.find("PASS"), std::string::npos) << out_;
  nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  EXPECT_EQ(s["numerics"]["verdict"], "NOT CHECKED");
  EXPECT_EQ(s["numerics"]["all_pass"], false);
  EXPECT_EQ(stats_item(s["numerics"]["outputs"], "tensor", "y")["compared"], false);
  EXPECT_TRUE(fs::is_regular_file(path("out/y.npy")));
}

TEST_F(RunCli, InputFromNpyFile) {
  // x as float32 values in a .npy file: the same values the uniform generator gives, so the
  // golden of the good case applies.
  npu::golden::Rng r1(1);
  npu::golden::Tensor x = npu::golden::random_uniform(npu::golden::Dtype::BF16, {4, 256}, -1, 1, r1);
  npu::golden::Tensor xf = npu::golden::Tensor::from_floats(npu::golden::Dtype::F32, {4, 256}, x.to_floats());
  npu::golden::write_npy(path("x.npy"), npu::golden::values_npy(xf));
  std::string c = write_case("", "{file: x.npy}");
  ASSERT_EQ(run(c + " --iss --config " + config() + " --out " + path("out")), 0) << err_;
  check_good_outputs(path("out"));
}

TEST_F(RunCli, MalformedCaseExits2AndWritesNothing) {
  std::ofstream(path("bad.yaml")) << "kernel: " << data("run_rmsnorm.s") << "\n"
                                  << "block_dim: 2\n"
                                  << "tensors:\n"
                                  << "  x: {dtype: bf16, shape: [4, 256], init: {uniform: [-1, 1]}}\n";
  EXPECT_EQ(run(path("bad.yaml") + " --iss --config " + config() + " --out " + path("out")), 2);
  EXPECT_EQ(err_, path("bad.yaml") + ":4:43: error: tensors.x.init: missing key 'seed' (random data needs a seed)\n");
  EXPECT_EQ(out_, "");
  EXPECT_FALSE(fs::exists(path("out")));
  // Only the case file (and the empty directory the command ran in) is in the scratch directory.
  EXPECT_EQ(scratch_.entries(), (std::vector<std::string>{"bad.yaml", "work"}));
  EXPECT_TRUE(fs::is_empty(path("work")));
}

TEST_F(RunCli, KernelBindingErrorKeepsAnExistingOutputDir) {
  fs::create_directories(path("out"));
  std::ofstream(path("out/marker")) << "previous run";
  // x declared f32 while the kernel says `.param x, gm, bf16`.
  std::string c = write_case();
  std::string text = slurp(c);
  text.replace(text.find("x:     {dtype: bf16"), 19, "x:     {dtype: f32 ");
  std::ofstream(c) << text;
  std::ofstream(path("out/stats.json")) << "{}";
  EXPECT_EQ(run(c + " --iss --config " + config() + " --out " + path("out")), 2);
  EXPECT_EQ(err_, c + ":6:18: error: tensors.x.dtype: f32 does not match the kernel's '.param x, gm, bf16'\n");
  EXPECT_EQ(slurp(path("out/marker")), "previous run");
  EXPECT_EQ(slurp(path("out/stats.json")), "{}");
}

TEST_F(RunCli, SuccessfulRunReplacesAnExistingOutputDir) {
  fs::create_directories(path("out"));
  std::ofstream(path("out/marker")) << "previous run";
  std::ofstream(path("out/stats.json")) << "{}";  // a previous run's output
  ASSERT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --out " + path("out")), 0) << err_;
  EXPECT_FALSE(fs::exists(path("out/marker")));
  check_good_outputs(path("out"));
}

TEST_F(RunCli, RefusesToReplaceADirectoryItDidNotWrite) {
  fs::create_directories(path("src"));
  std::ofstream(path("src/keep.txt")) << "user file";
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --out " + path("src")), 2);
  EXPECT_EQ(err_, "error: --out " + path("src") +
                      ": exists and is not the output of a previous run (no stats.json); not replacing it\n");
  EXPECT_EQ(slurp(path("src/keep.txt")), "user file");
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --out ."), 2);
  EXPECT_EQ(err_, "error: --out .: is the current directory or one of its parents\n");
}

TEST_F(RunCli, OutOfBoundsKernelAccessFaultsWithExit2) {
  // rows = 4 but x and y hold 2 rows: the AIVs of rows 2 and 3 read past x into the guard gap.
  std::string c = write_case("", "{uniform: [-1, 1], seed: 1}", "4");
  std::string text = slurp(c);
  text.replace(text.find("vars: {R: 4"), 11, "vars: {R: 2");
  std::ofstream(c) << text;
  EXPECT_EQ(run(c + " --iss --config " + config() + " --out " + path("out")), 2);
  EXPECT_NE(err_.find("cluster1.aiv0"), std::string::npos) << err_;  // row 2 = block 1, AIV 0
  EXPECT_NE(err_.find("mov_gm_ub"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(RunCli, ConfigOverrideErrorExits2) {
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --set l2.sise=1"), 2);
  EXPECT_NE(err_.find("--set l2.sise=1: error: l2.sise"), std::string::npos) << err_;
}

// 100 k parentheses in a case var or in --var: a located error (the nesting limit of the case
// expressions), not a stack overflow.
TEST_F(RunCli, DeeplyNestedVarExits2) {
  const std::string deep(100000, '(');
  // The first line of the message; the uses of R that follow then report R as unknown.
  auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n') + 1); };
  EXPECT_EQ(run(data("run_rmsnorm.yaml") + " --iss --config " + config() + " --var 'R=" + deep + "'"), 2);
  EXPECT_EQ(first_line(err_), "--var R=" + std::string(40, '(') + "...: error: expression nested too deeply (limit 200 levels)\n");
  std::string c = write_case();
  std::string text = slurp(c);
  text.replace(text.find("R: 4"), 4, "R: '" + deep + "'");
  std::ofstream(c) << text;
  EXPECT_EQ(run(c + " --iss --config " + config() + " --out " + path("out")), 2);
  EXPECT_EQ(first_line(err_), c + ":3:11: error: vars.R: bad integer '" + std::string(40, '(') +
                      "...': expression nested too deeply (limit 200 levels)\n");
  EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
