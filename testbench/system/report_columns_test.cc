// The run report fits 80 columns: one shipped case with labels and several outputs (the long
// tier checks every shipped case: report_columns_long_test.cc).
#include "testbench/system/report_columns.h"

namespace npu::test {
namespace {

TEST(ReportColumns, QuantCaseFits80Columns) { expect_report_fits_80_columns("kernels/cases/quant_int8_bf16.yaml"); }

}  // namespace
}  // namespace npu::test
