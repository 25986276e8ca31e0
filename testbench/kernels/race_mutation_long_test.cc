// The race checker's full mutation sweep: for linear, rmsnorm, rmsnorm_linear, quant_int8,
// dequant, linear_w8a8, rmsnorm_linear_quant and linear_mxfp8 (on ascend950 cut to 2 clusters),
// every pair
// of a set_flag and a wait_flag source line of the same flag (src, dst, id) is deleted in one
// mutant (testbench/support/sync_mutation.h), and every mutant must be reported at one of the
// kernel's shapes (a race, a flag left set, a deadlock or a fault); none may pass silently.
// Also: every shipped case (kernels/cases/*.yaml) is race-free on the ISS.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "base/file_io.h"
#include "cli/lib/run_case.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/shipped_case.h"
#include "testbench/support/sync_mutation.h"

namespace npu::test {
namespace {

class RaceMutants : public ::testing::TestWithParam<const char*> {};

// Provably benign deletions. rmsnorm_linear runs the shared RMSNorm macros without beta and
// without the rstd output (rOpt = variant | OPT_GAMMA, kernels/rmsnorm_linear.s): the beta
// staging flag (MTE2 <-> VECTOR id 2, load_vec ... 2) and the rstd store flags (VECTOR <-> MTE3
// id 1) guard code that never runs, and are otherwise only preset and drained, so deleting any
// pair of their set_flag / wait_flag lines changes nothing the kernel does.
//
// A preset of L1 stage 0 (ring_preset, lib/ring.inc) deleted with the wait_flag of stage_1
// (lib/gemm_aic.inc) is benign in the kernels whose AIC starts with gemm_prologue_after
// (rmsnorm_linear, rmsnorm_linear_quant): stage_1 runs only there, for the W part of each of the
// first S - 1 stages once (also in the x-per-unit-row mode, which fills through the same stage
// macros), so its wait on stage 0 is the one the preset exists to satisfy; every later fill of
// the ring waits in stage_0. (linear and linear_w8a8 fill through stage_0 from the start: the
// same deletion there is reported.) Found by its source lines, not line numbers.
int line_after(const std::string& file, const std::string& marker) {
  std::istringstream in(read_input_file(source_dir() + "/kernels/lib/" + file));
  int n = 0;
  for (std::string l; std::getline(in, l);)
    if (++n, l.find(marker) != std::string::npos) return n + 1;
  ADD_FAILURE() << marker << " not in " << file;
  return 0;
}
bool first_fill_benign(const SyncMutant& m) {
  static const std::string name = "aic: set_flag MTE1 -> MTE2 id 0 at lib/ring.inc:" +
                                  std::to_string(line_after("ring.inc", ".macro ring_preset") + 1) +
                                  " + wait_flag at lib/gemm_aic.inc:" +
                                  std::to_string(line_after("gemm_aic.inc", ".macro stage_1 "));
  return m.name.rfind(name, 0) == 0 && (m.name.size() == name.size() || m.name[name.size()] == ' ');
}
//
// rmsnorm_linear_quant (AT-11) runs the same RMSNorm macros without beta and without the rstd
// output: the beta staging flag (MTE2 <-> VECTOR id 2) is dead as in rmsnorm_linear (only its
// preset and drain run); the rstd store's lines of VECTOR <-> MTE3 id 1 (rms_rstd, in
// lib/rmsnorm_macros.inc) never run (checked below), while the same flag id guards the x_scale
// store (lib/rmsnorm_quant.inc), whose deletions are all reported.
bool rlq_benign(const SyncMutant& m) {
  for (const char* f : {"MTE2 -> VECTOR id 2", "VECTOR -> MTE2 id 2"})
    if (m.name.find(std::string("set_flag ") + f + " ") != std::string::npos) return true;
  for (const char* f : {"MTE3 -> VECTOR id 1", "VECTOR -> MTE3 id 1"})
    if (m.name.find(std::string("set_flag ") + f + " at lib/rmsnorm_macros.inc:") == 5 &&
        m.name.find("+ wait_flag at lib/rmsnorm_macros.inc:") != std::string::npos)
      return true;
  return false;
}

bool benign(const std::string& kernel, const SyncMutant& m) {
  if ((kernel == "rmsnorm_linear_quant" || kernel == "rmsnorm_linear") && first_fill_benign(m)) return true;
  if (kernel == "rmsnorm_linear_quant") return rlq_benign(m);
  if (kernel != "rmsnorm_linear") return false;
  for (const char* f : {"MTE2 -> VECTOR id 2", "VECTOR -> MTE2 id 2", "MTE3 -> VECTOR id 1", "VECTOR -> MTE3 id 1"})
    if (m.name.find(std::string("set_flag ") + f + " ") != std::string::npos) return true;
  return false;
}

TEST_P(RaceMutants, EveryFlagPairDeletionIsReported) {
  const std::string kernel = GetParam();
  std::vector<SyncMutant> mutants = flag_pair_mutants(load_kernel(kernel, mutant_config(kernel)));
  ASSERT_FALSE(mutants.empty());
  std::map<RunVerdict, int> count;
  int benign_n = 0;
  for (const SyncMutant& m : mutants) {
    std::string msg;
    RunVerdict v = judge_mutant(kernel, m.program, &msg);
    ++count[v];
    if (v == RunVerdict::Clean && benign(kernel, m)) {
      if (kernel == "rmsnorm_linear_quant" && m.name.find(" id 1 ") != std::string::npos) {  // dead, not just harmless
        EXPECT_FALSE(reaches(kernel, m.program, m.type, m.set_pcs) || reaches(kernel, m.program, m.type, m.wait_pcs))
            << m.name;
      }
      ++benign_n;  // see OnlyPresetAndDrainOfTheBenignFlagsRun: asserted, not skipped
      continue;
    }
    EXPECT_NE(v, RunVerdict::Clean) << m.name << " (set reached: " << reaches(kernel, m.program, m.type, m.set_pcs)
                                    << ", wait reached: " << reaches(kernel, m.program, m.type, m.wait_pcs) << ")";
  }
  std::string summary = kernel + ": " + std::to_string(mutants.size()) + " mutants:";
  for (const auto& [v, n] : count) summary += std::string(" ") + verdict_name(v) + " " + std::to_string(n);
  summary += " (of the clean ones, provably benign: " + std::to_string(benign_n) + ")";
  std::printf("%s\n", summary.c_str());
  // the 6 dead-flag pairs and the preset + first fill of stage 0
  if (kernel == "rmsnorm_linear") {
    EXPECT_EQ(benign_n, 7) << summary;
  }
  // 3 beta-flag pairs (2 dead, preset + drain) + 2 dead rstd-store pairs + the preset and first
  // fill of stage 0
  if (kernel == "rmsnorm_linear_quant") {
    EXPECT_EQ(benign_n, 6) << summary;
  }
  if (kernel == "linear_w8a8" || kernel == "linear_mxfp8") {
    EXPECT_EQ(benign_n, 0) << summary;
  }
  EXPECT_GT(count[RunVerdict::Race], 0) << summary;
}

// The benign flags of rmsnorm_linear: of all their set_flag / wait_flag lines, at most one set
// (the preset in rms_setup) and one wait (the drain before `end`) ever run, at any shape.
TEST(RaceMutantsBenign, OnlyPresetAndDrainOfTheBenignFlagsRun) {
  const std::string kernel = "rmsnorm_linear";
  std::map<std::string, std::pair<std::set<std::vector<uint32_t>>, std::set<std::vector<uint32_t>>>> sites;
  isa::Program p = load_kernel(kernel, mutant_config(kernel));
  for (const SyncMutant& m : flag_pair_mutants(p))
    if (benign(kernel, m) && !first_fill_benign(m)) {
      std::string flag = m.name.substr(0, m.name.find(" at "));
      sites[flag].first.insert(m.set_pcs);
      sites[flag].second.insert(m.wait_pcs);
    }
  ASSERT_EQ(sites.size(), 4u);
  for (const auto& [flag, sw] : sites) {
    int sets = 0, waits = 0;
    for (const auto& pcs : sw.first) sets += reaches(kernel, p, isa::CoreType::Aiv, pcs);
    for (const auto& pcs : sw.second) waits += reaches(kernel, p, isa::CoreType::Aiv, pcs);
    EXPECT_LE(sets, 1) << flag;
    EXPECT_EQ(waits, sets) << flag;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, RaceMutants,
                         ::testing::Values("linear", "rmsnorm", "rmsnorm_linear", "quant_int8", "dequant",
                                           "linear_w8a8", "rmsnorm_linear_quant", "linear_mxfp8"));

TEST(RaceCases, EveryShippedCaseIsRaceFreeOnTheIss) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/kernels/cases")) {
    if (e.path().extension() != ".yaml") continue;
    cli::RunOptions o;
    o.case_path = e.path().string();
    o.config_path = source_dir() + "/configs/" + shipped_case_config(o.case_path) + ".yaml";
    o.iss = true;
    o.race = "error";
    cli::RunResult r = cli::run_case(o);  // a race or a flag left set throws
    EXPECT_EQ(r.exit_code, cli::kExitPass) << o.case_path;
    EXPECT_TRUE(r.warnings.empty());
    ++n;
  }
  EXPECT_GE(n, 3);
}

}  // namespace
}  // namespace npu::test
