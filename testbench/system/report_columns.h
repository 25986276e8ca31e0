#pragma once
// The run report fits 80 columns (issue 15): shared by report_columns_test.cc (one case, quick)
// and report_columns_long_test.cc (every shipped case).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "testbench/support/cli_support.h"
#include "testbench/support/paths.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

// Runs `npusim run CASE` (a path relative to the source tree, run from there so that the paths
// the report prints are the short ones a user types) on the config the case is meant for and
// expects every line within 80 columns.
inline void expect_report_fits_80_columns(const std::string& case_rel) {
  ScratchDir scratch;
  const std::string config = shipped_case_config(source_path(case_rel));
  const std::string config_arg = config == "ascend910b" ? "" : " --config configs/" + config + ".yaml";
  const CliResult r = run_npusim("run " + case_rel + config_arg, scratch, source_dir());
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) EXPECT_LE(line.size(), 80u) << case_rel << ":\n" << line;
  EXPECT_GT(lines, 20) << r.out;
}

}  // namespace npu::test
