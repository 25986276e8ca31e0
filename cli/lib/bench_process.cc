#include "cli/lib/bench_process.h"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/file_io.h"
#include "base/output_file.h"
#include "isa/error.h"

extern char** environ;

namespace npu::cli {
namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double seconds(const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); }

}  // namespace

std::unique_ptr<HostPhases> bench_child_phases() {
  const char* file = std::getenv(kBenchPhasesFileEnv);
  const char* spawn = std::getenv(kBenchSpawnEnv);
  if (!file || !*file || !spawn || !*spawn) return nullptr;
  auto p = std::make_unique<HostPhases>();
  rusage u{};
  getrusage(RUSAGE_SELF, &u);  // the process so far: loading and initialisers, one thread
  p->add({"process start", 1e-9 * double(steady_ns() - std::atoll(spawn)), seconds(u.ru_utime) + seconds(u.ru_stime)});
  return p;
}

void write_bench_child_phases(HostPhases& p) {
  p.finish();
  std::ostringstream out;
  for (const HostPhases::Phase& ph : p.phases()) out << ph.name << '\t' << ph.wall_s << '\t' << ph.cpu_s << '\n';
  write_file_atomic(std::getenv(kBenchPhasesFileEnv), out.str());
}

ProcessRun run_bench_child(const std::vector<std::string>& args) {
  const TempPath file(
      (std::filesystem::temp_directory_path() / ("npusim-bench-phases." + std::to_string(getpid()) + ".tsv")).string());
  const std::string exe = "/proc/self/exe";
  std::vector<std::string> env_strings = {std::string(kBenchPhasesFileEnv) + "=" + file.path()};
  std::vector<char*> argv = {const_cast<char*>("npusim")}, envp;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (char** e = environ; *e; ++e) {
    const std::string s = *e;
    if (s.rfind(std::string(kBenchPhasesFileEnv) + "=", 0) && s.rfind(std::string(kBenchSpawnEnv) + "=", 0))
      envp.push_back(*e);
  }
  ProcessRun r;
  const int64_t t0 = steady_ns();
  env_strings.push_back(std::string(kBenchSpawnEnv) + "=" + std::to_string(t0));
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()))
    throw Error("bench: cannot start " + exe + ": error " + std::to_string(err));
  int status = 0;
  rusage u{};
  if (wait4(pid, &status, 0, &u) != pid) throw Error("bench: lost the child process");
  r.wall_s = 1e-9 * double(steady_ns() - t0);
  r.cpu_s = seconds(u.ru_utime) + seconds(u.ru_stime);
  if (!WIFEXITED(status)) throw Error("bench: the child `npusim run` ended by signal " + std::to_string(WTERMSIG(status)));
  r.exit_code = WEXITSTATUS(status);
  std::ifstream in(file.path());
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    HostPhases::Phase p;
    std::string wall, cpu;
    if (std::getline(f, p.name, '\t') && std::getline(f, wall, '\t') && std::getline(f, cpu)) {
      p.wall_s = std::atof(wall.c_str());
      p.cpu_s = std::atof(cpu.c_str());
      r.phases.push_back(p);
    }
  }
  std::error_code ignored;
  std::filesystem::remove(file.path(), ignored);
  return r;
}

}  // namespace npu::cli
