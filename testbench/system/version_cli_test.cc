// `npusim --version` and the build-info script behind it (cmake/build_info.cmake).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "base/build_info.h"
#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class VersionCli : public CliScratchTest {};

TEST_F(VersionCli, PrintsVersionAndGitHash) {
  ASSERT_EQ(npusim("--version"), 0) << err_;
  // A source tree with git metadata gives a 12-digit commit; one without gives "unknown".
  EXPECT_TRUE(std::regex_match(out_, std::regex(R"(npusim [0-9]+\.[0-9]+(\.[0-9]+)? \(git ([0-9a-f]{12}|unknown)\)\n)")))
      << out_;
  EXPECT_EQ(out_, std::string("npusim ") + build_version() + " (git " + build_git_hash() + ")\n");
}

TEST_F(VersionCli, BuildFromATreeWithoutGitSaysUnknown) {
  // A bare directory stands in for an unpacked tarball; git may not look above it.
  const std::string tree = path("tarball"), out = path("build_info.cc");
  std::filesystem::create_directories(tree);
  const std::string cmd = "GIT_CEILING_DIRECTORIES=" + dir_.string() + " " + std::string(NPUSIM_CMAKE_COMMAND) + " -DSRC=" + tree + " -DOUT=" + out +
                          " -DVERSION=9.8 -P " + source_path("cmake/build_info.cmake") + " > " + path("log") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(path("log"));
  const std::string text = slurp(out);
  EXPECT_NE(text.find("build_version() { return \"9.8\"; }"), std::string::npos) << text;
  EXPECT_NE(text.find("build_git_hash() { return \"unknown\"; }"), std::string::npos) << text;
}

}  // namespace
}  // namespace npu::test
