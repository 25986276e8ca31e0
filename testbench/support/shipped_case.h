#pragma once
// A shipped case file (kernels/cases/<name>.yaml) through the pipeline users run (cli::run_case),
// from a scratch copy whose kernel path is made absolute, whose block_dim is replaced and to which
// the given (regex, replacement) edits are applied (e.g. a case variable's default).
#include <string>
#include <utility>
#include <vector>

#include "cli/lib/run_case.h"

namespace npu::test {

// The repository config a shipped case file is meant for: "ascend950" when its text says to run it
// with --config configs/ascend950.yaml (the a5 kernels), else "ascend910b".
std::string shipped_case_config(const std::string& case_path);

cli::RunResult run_shipped_case(const std::string& case_name, int block_dim, const std::string& config,
                                const std::vector<std::string>& vars, bool iss,
                                const std::vector<std::pair<std::string, std::string>>& edits = {});

}  // namespace npu::test
