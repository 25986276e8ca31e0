// The one input whose limit is too large for the quick tier (input_errors_test.cc has the
// others): a trace for `npusim trace-summary` may be up to 1 GiB, so /dev/zero is refused only
// after 1 GiB has been read.
#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

using InputErrorsLong = CliScratchTest;

TEST_F(InputErrorsLong, EndlessTraceFileIsRefusedAtItsLimit) {
  EXPECT_EQ(npusim("trace-summary /dev/zero"), 2) << err_;
  EXPECT_NE(err_.find("cannot read trace file '/dev/zero': larger than the 1 GiB limit for this kind of input"),
            std::string::npos) << err_;
}

}  // namespace
}  // namespace npu::test
