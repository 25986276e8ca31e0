// The sweep driver: plan, run the points in child processes, resume, shard, merge (sweep_run.h).
#include "cli/lib/sweep_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "base/file_io.h"
#include "base/output_file.h"
#include "cli/lib/run_case.h"
#include "cli/lib/sweep_plan.h"
#include "cli/lib/sweep_results.h"
#include "isa/error.h"

#ifndef NPUSIM_VERSION
#define NPUSIM_VERSION "unknown"
#endif

namespace npu::cli {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void note_stop_signal(int sig) { g_stop_signal = sig; }

// DIR must be new, empty, or a sweep directory (a sweep.json): never a directory npusim did not make.
void prepare_sweep_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw Error("--out " + dir + ": error: not a directory");
    if (!fs::is_empty(dir, ec) && !fs::exists(dir + "/sweep.json", ec))
      throw Error("--out " + dir + ": error: neither empty nor a sweep directory (no sweep.json); refusing to write into it");
  }
  fs::create_directories(points_dir(dir), ec);
  if (ec) throw Error("--out " + dir + ": error: cannot create " + points_dir(dir) + ": " + ec.message());
}

std::string log_path(const std::string& dir, const PlannedPoint& p) { return points_dir(dir) + "/." + p.hash + ".log"; }

// The child: run the point as `npusim run` would, then mark it complete. Never returns.
[[noreturn]] void run_point_child(const std::string& dir, const PlannedPoint& p) {
  for (int sig : {SIGINT, SIGTERM}) std::signal(sig, SIG_DFL);
  install_temporary_cleanup();  // the run's staging directory goes on SIGINT / SIGTERM
  const int log = ::open(log_path(dir, p).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log >= 0) {
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
  }
  int status = kExitBadInput;
  try {
    RunOptions o = p.point.run;
    o.out_dir = point_dir(dir, p);
    const auto t0 = Clock::now();
    RunResult r = run_case(o);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
    nlohmann::json rec = {{"index", p.point.index}, {"hash", p.hash},      {"values", p.point.values},
                          {"inputs", p.inputs},     {"command", run_command_line(o)},
                          {"exit_code", r.exit_code}, {"wall_s", wall},    {"npusim_version", NPUSIM_VERSION}};
    write_file_atomic(o.out_dir + "/point.json", rec.dump(2) + "\n");
    status = r.exit_code;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
  }
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(status);
}

// The first line of what a failed point printed (its log), for the row and the message.
std::string failure_of(const std::string& dir, const PlannedPoint& p, int wstatus) {
  if (WIFSIGNALED(wstatus)) return std::string("killed by signal ") + std::to_string(WTERMSIG(wstatus));
  std::string text;
  try {
    text = read_input_file(log_path(dir, p), 1 << 20);
  } catch (const Error&) {
  }
  std::string first = text.substr(0, text.find('\n'));
  return first.empty() ? "exit status " + std::to_string(WEXITSTATUS(wstatus)) : first;
}

// "12/40 points, 1 failed, ETA 1m20s" on a terminal, nothing otherwise.
class Progress {
 public:
  Progress(size_t total, size_t skipped) : total_(total), done_(skipped), tty_(::isatty(STDERR_FILENO)) {}
  void point_done(bool failed) {
    ++done_;
    ++ran_;
    failed_ += failed;
    if (!tty_) return;
    const double per = std::chrono::duration<double>(Clock::now() - start_).count() / ran_;
    const long eta = static_cast<long>(per * (total_ - done_) + 0.5);
    std::fprintf(stderr, "\r\033[Ksweep: %zu/%zu points%s, ETA %ldm%02lds", done_, total_,
                 failed_ ? (", " + std::to_string(failed_) + " failed").c_str() : "", eta / 60, eta % 60);
  }
  void clear_line() const {
    if (tty_ && ran_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  size_t total_, done_, ran_ = 0, failed_ = 0;
  bool tty_;
  Clock::time_point start_ = Clock::now();
};

// The rows of the plan's points in this shard, written to STEM.csv / .jsonl: the exit status
// (2 a point failed, 1 a comparison failed, else 0).
int write_plan_results(const SweepPlan& plan, const std::string& dir, const std::string& stem,
                       const std::map<size_t, std::string>& failures) {
  std::vector<Row> rows;
  int status = kExitPass;
  for (const PlannedPoint& p : plan.points) {
    if (!plan.in_shard(p)) continue;
    auto f = failures.find(p.point.index);
    rows.push_back(point_row(plan, p, dir, f == failures.end() ? "" : f->second));
    if (rows.back()["status"] != "ok") status = kExitBadInput;
    else if (rows.back()["verdict"] == "FAIL" && status == kExitPass) status = kExitCompareFail;
  }
  std::vector<std::string> axes;
  for (const SweepAxis& a : plan.spec.axes) axes.push_back(a.name);
  write_results(stem, axes, rows);
  return status;
}

}  // namespace

int run_sweep(const SweepRunOptions& o) {
  if (o.jobs < 1) throw Error("--jobs " + std::to_string(o.jobs) + ": error: expected at least 1");
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    throw Error("--shard " + std::to_string(o.shard) + "/" + std::to_string(o.shards) + ": error: expected K/N with 0 <= K < N");
  const SweepPlan plan = resolve_plan(parse_sweep_file(o.spec_path), o.shard, o.shards);
  prepare_sweep_dir(o.out_dir);
  write_file_atomic(o.out_dir + "/sweep.json", plan_json(plan).dump(2) + "\n");

  std::vector<const PlannedPoint*> todo;
  size_t in_shard = 0;
  for (const PlannedPoint& p : plan.points)
    if (plan.in_shard(p)) {
      ++in_shard;
      if (!point_complete(o.out_dir, p)) todo.push_back(&p);
    }
  Progress progress(in_shard, in_shard - todo.size());
  std::map<pid_t, const PlannedPoint*> running;
  std::map<size_t, std::string> failures;  // point index -> why
  struct sigaction sa {}, old_int {}, old_term {};
  sa.sa_handler = note_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  std::cout.flush();
  size_t next = 0;
  bool stopping = false;
  while (next < todo.size() || !running.empty()) {
    while (!g_stop_signal && next < todo.size() && static_cast<int>(running.size()) < o.jobs) {
      const PlannedPoint* p = todo[next++];
      const pid_t pid = ::fork();
      if (pid == 0) run_point_child(o.out_dir, *p);
      if (pid < 0) throw Error(std::string("cannot start a point: fork failed: ") + std::strerror(errno));
      running[pid] = p;
    }
    if (g_stop_signal && !stopping) {  // pass the stop on (a `kill` may have reached only npusim)
      stopping = true;
      for (const auto& [child, _] : running) ::kill(child, g_stop_signal);
    }
    int ws = 0;
    const pid_t pid = ::waitpid(-1, &ws, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const PlannedPoint* p = running.at(pid);
    running.erase(pid);
    const bool ok = WIFEXITED(ws) && WEXITSTATUS(ws) <= kExitCompareFail && point_complete(o.out_dir, *p);
    if (!ok && !g_stop_signal) {
      failures[p->point.index] = failure_of(o.out_dir, *p, ws);
      progress.clear_line();
      std::cerr << "sweep: point " << p->point.index << " (" << describe_point(plan.spec, p->point)
                << ") failed: " << failures[p->point.index] << "\n";
    } else if (ok) {
      std::error_code ec;
      fs::remove(log_path(o.out_dir, *p), ec);
    }
    progress.point_done(!ok);
  }
  progress.clear_line();
  if (g_stop_signal) {  // end as the signal would have, with nothing half-counted
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    ::raise(g_stop_signal);
    return 128 + g_stop_signal;
  }
  install_temporary_cleanup();  // the results files below are temporaries until committed

  const std::string stem = o.shards == 1 ? "/results" : "/results." + std::to_string(o.shard) + "-of-" + std::to_string(o.shards);
  return write_plan_results(plan, o.out_dir, o.out_dir + stem, failures);
}

int merge_sweeps(const std::vector<std::string>& dirs, const std::string& out) {
  if (dirs.empty()) throw Error("sweep merge: error: no sweep directories given");
  std::vector<SweepPlan> plans;
  for (const std::string& d : dirs) plans.push_back(read_plan(d));
  const SweepPlan& plan = plans.front();
  auto same = [](const SweepPlan& a, const SweepPlan& b) {
    if (a.points.size() != b.points.size()) return false;
    for (size_t i = 0; i < a.points.size(); ++i)
      if (a.points[i].hash != b.points[i].hash || a.points[i].point.values != b.points[i].point.values) return false;
    for (size_t i = 0; i < a.spec.axes.size(); ++i)
      if (b.spec.axes.size() != a.spec.axes.size() || a.spec.axes[i].name != b.spec.axes[i].name) return false;
    return true;
  };
  for (size_t i = 1; i < plans.size(); ++i)
    if (!same(plan, plans[i]))
      throw Error(dirs[i] + "/sweep.json: error: a different sweep than " + dirs[0] + " (other points or axes)");
  prepare_sweep_dir(out);
  install_temporary_cleanup();
  std::vector<std::string> missing;
  for (const PlannedPoint& p : plan.points) {
    if (point_complete(out, p)) continue;
    auto src = std::find_if(dirs.begin(), dirs.end(), [&](const std::string& d) { return point_complete(d, p); });
    if (src == dirs.end()) {
      missing.push_back(std::to_string(p.point.index) + " (" + describe_point(plan.spec, p.point) + ")");
      continue;
    }
    // Copied beside, then renamed: the point appears complete or not at all.
    const std::string dst = point_dir(out, p), tmp = temp_name_beside(dst);
    TempPath guard(tmp, TempPath::Kind::Directory);
    std::error_code ec;
    fs::remove_all(dst, ec);
    fs::copy(point_dir(*src, p), tmp, fs::copy_options::recursive, ec);
    if (!ec) fs::rename(tmp, dst, ec);
    if (ec) {
      fs::remove_all(tmp);
      throw Error("sweep merge: error: cannot copy " + point_dir(*src, p) + " to " + dst + ": " + ec.message());
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 5; ++i) list += "\n  point " + missing[i];
    throw Error("sweep merge: error: " + std::to_string(missing.size()) + " of " + std::to_string(plan.points.size()) +
                " points are complete in none of the directories (no results written):" + list +
                (missing.size() > 5 ? "\n  ..." : ""));
  }
  write_file_atomic(out + "/sweep.json", plan_json(plan).dump(2) + "\n");
  return write_plan_results(plan, out, out + "/results", {});
}

}  // namespace npu::cli
