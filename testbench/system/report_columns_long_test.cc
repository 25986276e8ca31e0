// The run report of every shipped case (kernels/cases/*.yaml) fits 80 columns.
#include <filesystem>

#include "testbench/system/report_columns.h"

namespace npu::test {
namespace {

TEST(ReportColumns, EveryShippedCaseFits80Columns) {
  int cases = 0;
  for (const auto& e : std::filesystem::directory_iterator(source_path("kernels/cases")))
    if (e.path().extension() == ".yaml") {
      expect_report_fits_80_columns("kernels/cases/" + e.path().filename().string());
      ++cases;
    }
  EXPECT_GE(cases, 7);
}

}  // namespace
}  // namespace npu::test
