// The ctest environment of testbench/CMakeLists.txt reaches the tests, every variable of it:
// the CLI tests find the binary through NPUSIM_BIN, and in sanitizer builds ASAN_OPTIONS and
// UBSAN_OPTIONS make a sanitizer report in a CLI subprocess exit with its own status instead of
// npusim's 1 ("comparison failed").
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}

TEST(TestEnvironment, EveryVariableReachesTheTests) {
  EXPECT_EQ(env("SC_COPYRIGHT_MESSAGE"), "DISABLE");
  EXPECT_EQ(env("NPUSIM_SOURCE_DIR"), NPUSIM_SOURCE_DIR);
  EXPECT_EQ(env("NPUSIM_BIN"), NPUSIM_BINARY_DIR "/bin/npusim");
}

TEST(TestEnvironment, SanitizerReportsHaveTheirOwnExitStatus) {
#ifdef NPUSIM_SANITIZER_EXIT_CODE
  const std::string exitcode = "exitcode=" + std::to_string(NPUSIM_SANITIZER_EXIT_CODE);
  EXPECT_NE(env("ASAN_OPTIONS").find(exitcode), std::string::npos) << env("ASAN_OPTIONS");
  EXPECT_NE(env("UBSAN_OPTIONS").find(exitcode), std::string::npos) << env("UBSAN_OPTIONS");
#else
  GTEST_SKIP() << "not a sanitizer build (NPUSIM_SANITIZE=OFF)";
#endif
}

}  // namespace
