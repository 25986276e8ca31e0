#pragma once
// A shipped case file (kernels/cases/<name>.yaml) through the pipeline users run (cli::run_case),
// from a scratch copy whose kernel path is made absolute and whose block_dim is replaced.
#include <string>
#include <vector>

#include "cli/lib/run_case.h"

namespace npu::test {

cli::RunResult run_shipped_case(const std::string& case_name, int block_dim, const std::string& config,
                                const std::vector<std::string>& vars, bool iss);

}  // namespace npu::test
