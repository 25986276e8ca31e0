#include "testbench/support/shipped_case.h"

#include <fstream>
#include <regex>

#include "testbench/support/cli_support.h"
#include "testbench/support/paths.h"

namespace npu::test {

cli::RunResult run_case_file(const std::string& case_path, const CaseRun& how) {
  cli::RunOptions o;
  o.case_path = case_path;
  o.config_path = source_path("configs/" + how.config + ".yaml");
  o.vars = how.vars;
  if (how.block_dim > 0) o.block_dim = how.block_dim;
  o.iss = how.iss;
  o.timing_only = how.timing_only;
  o.caches = how.caches;
  return cli::run_case(o);
}

std::string shipped_case_config(const std::string& case_path) {
  return slurp(case_path).find("--config configs/ascend950.yaml") != std::string::npos ? "ascend950" : "ascend910b";
}

cli::RunResult run_shipped_case(const std::string& case_name, int block_dim, const std::string& config,
                                const std::vector<std::string>& vars, bool iss,
                                const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text = slurp(source_path("kernels/cases/" + case_name + ".yaml"));
  text = std::regex_replace(text, std::regex("kernel: \\.\\./"), "kernel: " + source_path("kernels") + "/");
  text = std::regex_replace(text, std::regex("block_dim: [0-9]+"), "block_dim: " + std::to_string(block_dim));
  for (const auto& [pattern, replacement] : edits) text = std::regex_replace(text, std::regex(pattern), replacement);
  ScratchDir dir;
  { std::ofstream(dir.path(case_name + ".yaml")) << text; }
  CaseRun how;
  how.config = config;
  how.vars = vars;
  how.iss = iss;
  return run_case_file(dir.path(case_name + ".yaml"), how);
}

}  // namespace npu::test
