// base/output_file.h: an AtomicOutputFile appears whole at commit() or not at all, and SIGINT /
// SIGTERM (real signals, to a forked child) remove every registered temporary and end the
// process with the signal's status.
#include "base/output_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "base/file_io.h"
#include "testbench/support/cli_support.h"

namespace npu {
namespace {

using test::ScratchDir;
using test::slurp;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(AtomicOutputFile, CommitReplacesThePreviousFileWhole) {
  ScratchDir s;
  std::ofstream(s.path("t.json")) << "previous";
  {
    AtomicOutputFile out(s.path("t.json"));
    std::fputs("new contents", out.stream());
    std::fflush(out.stream());
    EXPECT_EQ(slurp(s.path("t.json")), "previous");  // nothing in place before commit
    EXPECT_THAT(out.temp_path(), StartsWith(s.path("t.json.tmp.")));
    EXPECT_EQ(slurp(out.temp_path()), "new contents");
    out.commit();
  }
  EXPECT_EQ(slurp(s.path("t.json")), "new contents");
  EXPECT_EQ(s.entries(), std::vector<std::string>{"t.json"});
}

TEST(AtomicOutputFile, WithoutCommitNothingChanges) {
  ScratchDir s;
  std::ofstream(s.path("t.csv")) << "previous";
  {
    AtomicOutputFile out(s.path("t.csv"));
    std::fputs("half a trace", out.stream());
  }
  EXPECT_EQ(slurp(s.path("t.csv")), "previous");
  EXPECT_EQ(s.entries(), std::vector<std::string>{"t.csv"});
}

TEST(AtomicOutputFile, CreationFailureNamesThePath) {
  ScratchDir s;
  try {
    AtomicOutputFile out(s.path("no_dir/t.json"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot create '" + s.path("no_dir/t.json") + "': No such file or directory");
  }
  EXPECT_TRUE(s.entries().empty());
}

// A child with a streamed output file, a registered scratch file and a registered staging
// directory holding files is killed by `sig` while they exist: every temporary is gone, the
// previous output untouched, and the child died of the signal.
void check_signal_cleanup(int sig) {
  ScratchDir s;
  std::ofstream(s.path("trace.json")) << "previous";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(sig, SIG_DFL);  // a background ctest may ignore SIGINT; the handler keeps that
    install_temporary_cleanup();
    AtomicOutputFile out(s.path("trace.json"));
    std::fputs("partial", out.stream());
    std::fflush(out.stream());
    TempPath scratch(s.path("scratch.tmp"));
    std::ofstream(scratch.path()) << "x";
    TempPath stage(s.path(".out.tmp"), TempPath::Kind::Directory);
    std::filesystem::create_directory(stage.path());
    for (int i = 0; i < 300; ++i) std::ofstream(stage.path() + "/f" + std::to_string(i)) << i;  // > 1 getdents buffer
    (void)!::write(ready[1], "r", 1);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  EXPECT_EQ(s.entries().size(), 4u);  // trace.json, its temporary, scratch.tmp, .out.tmp
  ASSERT_EQ(::kill(pid, sig), 0);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), sig);
  EXPECT_EQ(s.entries(), std::vector<std::string>{"trace.json"});
  EXPECT_EQ(slurp(s.path("trace.json")), "previous");
}

TEST(AtomicOutputFile, SigintRemovesTheTemporaries) { check_signal_cleanup(SIGINT); }
TEST(AtomicOutputFile, SigtermRemovesTheTemporaries) { check_signal_cleanup(SIGTERM); }

TEST(WriteFileAtomic, ReplacesWholeAndLeavesNoTemporary) {
  ScratchDir s;
  write_file_atomic(s.path("a.txt"), "one");
  write_file_atomic(s.path("a.txt"), "two");
  EXPECT_EQ(slurp(s.path("a.txt")), "two");
  EXPECT_EQ(s.entries(), std::vector<std::string>{"a.txt"});
  EXPECT_THROW(write_file_atomic(s.path("no_dir/a.txt"), "x"), Error);
}

}  // namespace
}  // namespace npu
