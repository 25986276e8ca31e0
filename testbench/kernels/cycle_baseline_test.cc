// Quick tier: exact SystemC cycle counts of a fixed set of kernel cases, pinned in
// testbench/kernels/cycle_baseline.yaml. Any change of a count (faster or slower) fails, and the
// test prints old vs new for EVERY case, so a model or kernel change shows its whole effect.
// Every run must also respect the lower bound of testbench/support/kernel_perf.h.
//
// Updating the baseline is a deliberate act: after checking that the new counts are intended,
//   NPUSIM_UPDATE_BASELINE=1 ./testbench/kernels_cycle_baseline_test
// rewrites the file (the test then passes); commit it together with the change that moved them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/kernel_perf.h"
#include "testbench/support/quant_cases.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/shipped_case.h"
#include "testbench/support/mxfp8_case.h"
#include "testbench/support/qwen3_case.h"
#include "testbench/support/w8a8_case.h"
#include "testbench/kernels/mla_prolog_run.h"

namespace npu::test {
namespace {

struct BaselineCase {
  std::string id;
  std::function<uint64_t()> run;  // cycles; checks the lower bound itself
};

template <class Case>
uint64_t checked(const hw::HwConfig& cfg, const Case& c, const KernelOutcome& r) {
  const PerfBound lb = lower_bound(cfg, c);
  EXPECT_GE(double(r.info.cycles), lb.cycles()) << c.name() << " on " << cfg.chip.name
                                                << ": below the lower bound";
  return r.info.cycles;
}

std::vector<BaselineCase> cases() {
  std::vector<BaselineCase> v;
  // A case of the test-case pipeline (kernel_cases.h / quant_cases.h): run(cfg, case).
  auto add = [&](const char* kernel, const std::string& cfgname, auto c, auto run) {
    v.push_back({kernel + ("_" + c.name()) + "_" + cfgname, [=] {
                   const auto& cfg = repo_config(cfgname);
                   return checked(cfg, c, run(cfg, c));
                 }});
  };
  auto rms = [&](const std::string& cfgname, int64_t rows, int64_t d, int bd) {
    RmsNormCase c;
    c.rows = rows;
    c.D = d;
    c.out_rstd = true;
    c.block_dim = bd;
    add("rmsnorm", cfgname, c, [](const hw::HwConfig& cfg, const RmsNormCase& c) { return run_rmsnorm(Engine::SystemC, cfg, c); });
  };
  auto lin = [&](const std::string& cfgname, int64_t m, int64_t k, int64_t n, int bd) {
    add("linear", cfgname, gemm_case<LinearCase>(m, k, n, bd), [](const hw::HwConfig& cfg, const LinearCase& c) {
      return run_linear(Engine::SystemC, cfg, c, false, true);
    });
  };
  auto rl = [&](const std::string& cfgname, int64_t m, int64_t k, int64_t n, int bd) {
    add("rmsnorm_linear", cfgname, gemm_case<RmsNormLinearCase>(m, k, n, bd),
        [](const hw::HwConfig& cfg, const RmsNormLinearCase& c) { return run_rmsnorm_linear(Engine::SystemC, cfg, c, false, true); });
  };
  auto quant = [&](const std::string& cfgname, int64_t m, int64_t k, bool f32, int bd) {
    QuantCase c;
    c.M = m;
    c.K = k;
    c.f32 = f32;
    c.block_dim = bd;
    add("quant_int8", cfgname, c, [](const hw::HwConfig& cfg, const QuantCase& c) { return run_quant_int8(Engine::SystemC, cfg, c, true); });
  };
  auto dq = [&](const std::string& cfgname, int64_t m, int64_t n, int bd) {
    DequantCase c;
    c.M = m;
    c.N = n;
    c.block_dim = bd;
    add("dequant", cfgname, c, [](const hw::HwConfig& cfg, const DequantCase& c) { return run_dequant(Engine::SystemC, cfg, c, true); });
  };
  // A case through cli::run_case: run() gives the result, which must pass unless timing-only;
  // lower_bound() its bound (none: 0).
  auto add_run = [&](const std::string& id, bool timing_only, std::function<cli::RunResult()> run,
                     std::function<double()> lower_bound) {
    v.push_back({id, [=] {
                   const cli::RunResult r = run();
                   if (!timing_only) {
                     EXPECT_EQ(r.exit_code, cli::kExitPass) << id;
                   }
                   const uint64_t cycles = total_cycles(r);
                   EXPECT_GE(double(cycles), lower_bound()) << id << ": below the lower bound";
                   return cycles;
                 }});
  };
  auto w8 = [&](const std::string& cfgname, W8a8Shape s) {
    add_run("linear_w8a8_" + s.name() + "_" + cfgname, false, [=] { return run_w8a8(cfgname, s, false); },
            [=] { return w8a8_lower_bound(repo_config(cfgname), s); });
  };
  auto rlq = [&](const std::string& cfgname, W8a8Shape s) {
    add_run("rmsnorm_linear_quant_" + s.name() + "_" + cfgname, false, [=] { return run_rlq(cfgname, s, false); },
            [=] { return rlq_lower_bound(repo_config(cfgname), s); });
  };
  auto mx = [&](MxShape s) {
    add_run("linear_mxfp8_" + s.name() + "_ascend950", false, [=] { return run_mxfp8(s, false); },
            [=] { return mxfp8_lower_bound(repo_config("ascend950"), s); });
  };
  // qwen3_pre_attn (bf16 and W8A8): the reference timing-only (its golden costs seconds), a small
  // shape with data.
  auto qw = [&](Qwen3Shape s, bool timing_only) {
    add_run(std::string("qwen3_pre_attn_") + (s.w8a8 ? "w8a8_" : "") + s.name() + "_ascend910b", timing_only,
            [=] { return run_qwen3(s, "ascend910b", false, timing_only); },
            [=] { return qwen3_lower_bound(repo_config("ascend910b"), s); });
  };
  // kernels/mla_prolog.s and mla_prolog_quant.s through their cases, timing-only (no data, no
  // golden: about a second of CPU at the reference shape); golden checks in
  // mla_prolog_test.cc, mla_prolog_quant_test.cc and their *_long_test.cc.
  auto mla = [&](const std::string& id, const std::string& case_file, std::vector<std::string> vars, int bd) {
    add_run("mla_prolog_" + id + "_ascend910b", false,
            [=] { return run_mla_prolog(case_file, vars, bd, false, "ascend910b", true); }, [] { return 0.0; });
  };
  // kernels/gemm_chip.s (the vendor GEMM anchor's kernel, docs/fidelity.md) at n = 2048,
  // timing-only; its golden checks in gemm_chip_test.cc. Bound: the cube at peak on 24 AICs.
  // Likewise linear_w8a8 compute-bound (x per unit row, kernels/lib/gemm_xrow.inc): its golden
  // takes minutes (W8a8Long in linear_w8a8_long_test.cc); bound: the int8 cube peak.
  auto timing_case = [&](const std::string& id, const std::string& case_name, std::vector<std::string> vars,
                         std::function<double()> lower_bound) {
    add_run(id, true,
            [=] {
              CaseRun how;
              how.timing_only = true;
              how.vars = vars;
              return run_case_file(source_dir() + "/kernels/cases/" + case_name, how);
            },
            lower_bound);
  };
  timing_case("gemm_chip_M2048_K2048_N2048_bd24_ascend910b", "gemm_chip_bf16.yaml", {},
              [] { return cube_peak_cycles(repo_config("ascend910b"), 2048.0 * 2048 * 2048, 24); });
  timing_case("linear_w8a8_M2048_K2048_N2048_bd24_ascend910b", "linear_w8a8.yaml", {"M=2048", "K=2048", "N=2048"},
              [] { return w8a8_lower_bound(repo_config("ascend910b"), W8a8Shape{2048, 2048, 2048, 24, 1}); });
  // The Linear with fp16 and fp32 data (kernels/linear_f16.s, linear_f32.s), timing-only; goldens
  // in linear_dtypes_test.cc. Bounds: the cube at peak for the dtype's k0.
  timing_case("linear_f16_M1024_K1024_N1024_bd24_ascend910b", "linear_f16.yaml", {"M=1024", "K=1024", "N=1024"},
              [] { return cube_peak_cycles(repo_config("ascend910b"), 1024.0 * 1024 * 1024, 24); });
  timing_case("linear_f32_M1024_K1024_N1024_bd24_ascend910b", "linear_f32.yaml", {"M=1024", "K=1024", "N=1024"}, [] {
    const hw::HwConfig& c = repo_config("ascend910b");
    return 1024.0 * 1024 * 1024 / (double(c.cube.m0) * c.cube.n0 * c.cube.k0_f32 * 24);
  });
  rms("ascend910b", 64, 4096, 24);
  rms("ascend910b", 16, 4096, 8);
  lin("ascend910b", 16, 4096, 1536, 24);
  lin("ascend910b", 2048, 2048, 2048, 24);
  lin("ascend910b", 300, 1024, 512, 24);
  rl("ascend910b", 16, 4096, 1536, 24);
  rms("tiny", 13, 640, 2);
  rms("tiny", 3, 8704, 1);
  lin("tiny", 20, 1024, 320, 2);
  lin("tiny", 150, 512, 512, 2);
  rl("tiny", 16, 1024, 256, 2);
  quant("ascend910b", 16, 4096, false, 24);
  quant("ascend910b", 300, 7168, false, 24);
  quant("ascend910b", 128, 16384, true, 24);
  quant("tiny", 13, 8200, false, 2);
  dq("ascend910b", 16, 1536, 24);
  dq("ascend910b", 300, 2048, 24);
  dq("tiny", 9, 4200, 2);
  w8("ascend910b", W8a8Shape{16, 4096, 1536, 24, 1});
  w8("tiny", W8a8Shape{20, 1024, 320, 2, 1});
  rlq("ascend910b", W8a8Shape{16, 4096, 1536, 24, 1});
  rlq("tiny", W8a8Shape{20, 1024, 320, 2, 1});
  qw(Qwen3Shape{}, true);
  qw(Qwen3Shape{7, 512, 8, 2, 128, 3}, false);
  Qwen3Shape qw8;
  qw8.w8a8 = true;
  qw(qw8, true);
  qw(Qwen3Shape{7, 512, 8, 2, 128, 3, true}, false);
  mx(MxShape{16, 4096, 1536, 512, 0, 36});  // decode, GM hand-off
  mx(MxShape{16, 4096, 1536, 512, 1, 36});  // decode, UB -> L1
  mla("T16_H4096_NH64_bd24", "mla_prolog_bf16.yaml", {}, 0);  // reference
  mla("btrans_T16_H4096_NH64_bd24", "mla_prolog_bf16_btrans.yaml", {}, 0);
  mla("nz_T16_H4096_NH64_bd24", "mla_prolog_bf16_nz.yaml", {}, 0);  // weights NZ in GM
  mla("nz_btrans_T16_H4096_NH64_bd24", "mla_prolog_bf16_nz_btrans.yaml", {}, 0);
  mla("T13_H256_NH4_bd2", "mla_prolog_bf16.yaml",
      {"T=13", "H=256", "QLR=128", "NH=4", "HD=128", "RD=64"}, 2);
  mla("quant_T16_H4096_NH64_bd24", "mla_prolog_quant.yaml", {}, 0);  // MLAPrologQuant reference
  mla("quant_nz_T16_H4096_NH64_bd24", "mla_prolog_quant_nz.yaml", {}, 0);  // weights NZ in GM
  mla("quant_T13_H256_NH4_bd2", "mla_prolog_quant.yaml",
      {"T=13", "H=256", "QLR=128", "NH=4", "HD=128", "RD=64"}, 2);
  return v;
}

std::string baseline_path() { return source_dir() + "/testbench/kernels/cycle_baseline.yaml"; }

std::map<std::string, uint64_t> read_baseline() {
  std::map<std::string, uint64_t> m;
  std::ifstream f(baseline_path());
  if (!f) return m;
  YAML::Node root = YAML::LoadFile(baseline_path());
  for (const auto& kv : root["cycles"]) m[kv.first.as<std::string>()] = kv.second.as<uint64_t>();
  return m;
}

void write_baseline(const std::vector<std::pair<std::string, uint64_t>>& got) {
  std::ofstream f(baseline_path());
  f << "# Exact SystemC cycle counts of the flagship kernels (testbench/kernels/cycle_baseline_test.cc).\n"
       "# Generated: NPUSIM_UPDATE_BASELINE=1 ./testbench/kernels_cycle_baseline_test (a deliberate act:\n"
       "# check that the moved counts are intended, then commit this file with the change).\n"
       "# Ids: <kernel>_<case>_<config>; linear / rmsnorm_linear / quant_int8 / dequant / mla_prolog run\n"
       "# timing-only, rmsnorm, linear_w8a8, rmsnorm_linear_quant and linear_mxfp8 (through their cases\n"
       "# in kernels/cases)\n"
       "# with data (linear_w8a8 2048^3 and gemm_chip timing-only); qwen3_pre_attn through its case,\n"
       "# the T16 reference timing-only.\n"
       "cycles:\n";
  for (const auto& [id, c] : got) f << "  " << id << ": " << c << "\n";
}

TEST(KernelCycleBaseline, CountsUnchanged) {
  const std::map<std::string, uint64_t> old = read_baseline();
  std::vector<std::pair<std::string, uint64_t>> got;
  int moved = 0;
  std::string table;
  for (const BaselineCase& c : cases()) {
    const uint64_t cycles = c.run();
    got.emplace_back(c.id, cycles);
    auto it = old.find(c.id);
    char line[256];
    if (it == old.end()) {
      ++moved;
      std::snprintf(line, sizeof line, "  %-52s %10s -> %10llu  (new case)\n", c.id.c_str(), "-",
                    (unsigned long long)cycles);
    } else {
      const double d = 100.0 * (double(cycles) - double(it->second)) / double(it->second);
      if (cycles != it->second) ++moved;
      std::snprintf(line, sizeof line, "  %-52s %10llu -> %10llu  %+.2f %%%s\n", c.id.c_str(),
                    (unsigned long long)it->second, (unsigned long long)cycles, d,
                    cycles != it->second ? "  MOVED" : "");
    }
    table += line;
  }
  for (const auto& [id, c] : old) {
    bool present = false;
    for (const auto& g : got) present = present || g.first == id;
    if (!present) {
      ++moved;
      table += "  " + id + ": in the baseline but no longer run\n";
    }
  }
  std::printf("[baseline] cycles (old -> new):\n%s", table.c_str());
  const char* upd = std::getenv("NPUSIM_UPDATE_BASELINE");
  if (upd && std::string(upd) == "1") {
    write_baseline(got);
    std::printf("[baseline] rewrote %s\n", baseline_path().c_str());
    return;
  }
  EXPECT_EQ(moved, 0) << moved << " case(s) moved; see the table above. If intended, run with "
                      << "NPUSIM_UPDATE_BASELINE=1 to rewrite " << baseline_path() << "\n" << table;
}

}  // namespace
}  // namespace npu::test
