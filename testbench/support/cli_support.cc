#include "testbench/support/cli_support.h"

#include <fcntl.h>
#include <signal.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace npu::test {

namespace fs = std::filesystem;

const nlohmann::json& stats_item(const nlohmann::json& list, const std::string& key, const std::string& value) {
  if (list.is_array())
    for (const nlohmann::json& item : list)
      if (item.is_object() && item.contains(key) && item[key] == value) return item;
  throw std::runtime_error("no item with " + key + " = " + value + " in " + list.dump());
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ScratchDir::ScratchDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = fs::path(::testing::TempDir()) /
         ("npusim_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(::getpid()));
  fs::remove_all(dir_);
  fs::create_directories(dir_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::vector<std::string> ScratchDir::entries() const {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

CliResult run_npusim(const std::string& args, const ScratchDir& scratch, const std::string& cwd) {
  const std::string out = scratch.path(".stdout"), err = scratch.path(".stderr");
  const std::string cmd = (cwd.empty() ? "" : "cd " + cwd + " && ") + npusim_bin() + " " + args + " > " + out + " 2> " + err;
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
#ifdef NPUSIM_SANITIZER_EXIT_CODE
  if (r.status == NPUSIM_SANITIZER_EXIT_CODE)
    ADD_FAILURE() << "sanitizer report (exit " << r.status << ") from npusim " << args << ":\n" << r.err;
#endif
  return r;
}

CliScratchTest::CliScratchTest() { fs::create_directories(path("work")); }

std::string CliScratchTest::write(const std::string& f, const std::string& text) const {
  std::ofstream(path(f), std::ios::binary) << text;
  return path(f);
}

int CliScratchTest::npusim(const std::string& args) {
  CliResult r = run_npusim(args, scratch_, path("work"));
  out_ = std::move(r.out);
  err_ = std::move(r.err);
  return r.status;
}

pid_t spawn_npusim(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s = {npusim_bin()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // A background job of a non-interactive shell ignores SIGINT, and exec keeps that: the
    // child must see the signals the tests send.
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace npu::test
