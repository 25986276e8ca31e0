#pragma once
// Case files through the pipeline users run (cli::run_case): run_case_file runs one as it is;
// run_shipped_case runs a shipped case file (kernels/cases/<name>.yaml) from a scratch copy whose
// kernel path is made absolute, whose block_dim is replaced and to which the given
// (regex, replacement) edits are applied (e.g. a case variable's default).
#include <string>
#include <utility>
#include <vector>

#include "cli/lib/run_case.h"

namespace npu::test {

// How to run a case file: on configs/<config>.yaml, with the case variables `vars`, block_dim
// (0: the case's), on the ISS or the SystemC model; timing_only: the model without data or golden
// (same cycles).
struct CaseRun {
  std::string config = "ascend910b";
  std::vector<std::string> vars;
  int block_dim = 0;
  bool iss = false;
  bool timing_only = false;
  std::vector<std::string> caches;  // `--cache TENSOR=POLICY` overrides
};
// The case file at case_path (absolute) through cli::run_case.
cli::RunResult run_case_file(const std::string& case_path, const CaseRun& how);

// The repository config a shipped case file is meant for: "ascend950" when its text says to run it
// with --config configs/ascend950.yaml (the a5 kernels), else "ascend910b".
std::string shipped_case_config(const std::string& case_path);

cli::RunResult run_shipped_case(const std::string& case_name, int block_dim, const std::string& config,
                                const std::vector<std::string>& vars, bool iss,
                                const std::vector<std::pair<std::string, std::string>>& edits = {});

}  // namespace npu::test
