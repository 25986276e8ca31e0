#pragma once
// Shared by mla_prolog_test.cc, mla_prolog_long_test.cc and cycle_baseline_test.cc: run a kernels/cases/mla_prolog*.yaml
// case with vars on both backends and check the golden verdicts and ISS == SystemC.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "testbench/support/paths.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

// block_dim 0: the case's; timing_only: the SystemC model without data (same cycles).
// caches: `--cache TENSOR=POLICY` overrides.
inline cli::RunResult run_mla_prolog(const std::string& case_file, const std::vector<std::string>& vars,
                                     int block_dim, bool iss, const char* config, bool timing_only = false,
                                     const std::vector<std::string>& caches = {}) {
  return run_case_file(source_path("kernels/cases/" + case_file), {config, vars, block_dim, iss, timing_only, caches});
}

// Both backends pass every output named (q, kv and qr: the bf16 prolog) and write the same
// bytes; returns the SystemC run.
inline cli::RunResult expect_mla_prolog_on_both(const std::string& case_file, const std::vector<std::string>& vars,
                                                int block_dim, const char* config,
                                                const std::vector<std::string>& outputs = {"q", "kv", "qr"}) {
  std::string what = case_file + " " + config;
  for (const std::string& v : vars) what += " " + v;
  const cli::RunResult iss = run_mla_prolog(case_file, vars, block_dim, true, config);
  const cli::RunResult sc = run_mla_prolog(case_file, vars, block_dim, false, config);
  for (const cli::RunResult* r : {&iss, &sc}) {
    EXPECT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    EXPECT_EQ(r->verdicts.size(), outputs.size()) << what;
  }
  for (const std::string& t : outputs)
    EXPECT_EQ(iss.outputs.at(t).bytes(), sc.outputs.at(t).bytes()) << what << ": " << t << " ISS != SystemC";
  EXPECT_TRUE(sc.sim.total_cycles.has_value()) << what;
  return sc;
}

// The NZ-weight kernel of a pair (kernels/mla_prolog_nz.s, mla_prolog_quant_nz.s) writes the ND
// kernel's bytes: its W chunks land in L1 as the same NZ values the ND kernel converts on the
// way in. Both layouts ({ND case, NZ case} pairs), each with the knob sets \p knobs (vars added
// to \p shape), on 2 clusters of ascend910b; both kernels also pass on both backends.
inline void expect_nz_writes_nd_bytes(const std::vector<std::pair<const char*, const char*>>& pairs,
                                      const std::vector<std::string>& shape,
                                      const std::vector<std::vector<std::string>>& knobs,
                                      const std::vector<std::string>& outputs) {
  for (const auto& [nd_case, nz_case] : pairs) {
    for (const auto& knob : knobs) {
      std::vector<std::string> vars = shape;
      vars.insert(vars.end(), knob.begin(), knob.end());
      const cli::RunResult nd = expect_mla_prolog_on_both(nd_case, vars, 2, "ascend910b", outputs);
      const cli::RunResult nz = expect_mla_prolog_on_both(nz_case, vars, 2, "ascend910b", outputs);
      std::string what = nz_case;
      for (const std::string& v : knob) what += " " + v;
      for (const std::string& t : outputs)
        EXPECT_EQ(nd.outputs.at(t).bytes(), nz.outputs.at(t).bytes()) << what << ": " << t;
    }
  }
}

// A knob setting of the knob tests (kernels.Knobs/...): the case file and its --var assignments.
struct MlaKnob {
  const char* case_file;
  std::vector<std::string> vars;
};

// expect_mla_prolog_on_both at the vars \p shape plus the knob's, on 2 clusters of ascend910b.
inline void expect_mla_knob_on_both(const MlaKnob& knob, std::vector<std::string> shape,
                                    const std::vector<std::string>& outputs) {
  shape.insert(shape.end(), knob.vars.begin(), knob.vars.end());
  expect_mla_prolog_on_both(knob.case_file, shape, 2, "ascend910b", outputs);
}

}  // namespace npu::test
