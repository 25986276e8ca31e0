#pragma once
// The progress line of `npusim run` on a terminal (README "What a run gives you"): once a run has
// taken kProgressDelay (2 s; NPUSIM_PROGRESS_DELAY_MS overrides it, for tests), one line on
// stderr, rewritten in place every quarter second:
//   "npusim: simulation  launch 2/4  1200000 cycles  3456789 instructions  cores 12/48 ended
//    4.2 s  ~6.0 s left"
// with the phase (inputs, simulation, golden, compare, writing outputs), in a launch sequence
// which launch runs, the simulated cycle and the instructions issued so far (SystemC model; in a
// launch sequence, of the current launch), how many of the launch's cores have ended, and the
// elapsed time. The time left is estimated only in a launch sequence, from the launches done
// (their mean wall time times the launches left, less the current one's time so far): a single
// kernel's cycle count is not known before it ends, so no fraction of it can be given honestly.
// The line stays inside the terminal's width (80 columns when unknown): the least useful parts
// are left out first. It is erased when the run ends, before the report is printed. cmd_run
// creates one only when stderr is a terminal and -q is not given.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "hw/top/run.h"

namespace npu::cli {

class ProgressLine {
 public:
  ProgressLine();   // starts the drawing thread
  ~ProgressLine();  // stops it and erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void phase(const std::string& name);  // redraws at once when the line is showing
  void launch(size_t k, size_t n);      // launch k (1-based) of n starts; redraws likewise
  void simulated(const hw::RunProgress& p) {
    cycle_ = p.cycle;
    instructions_ = p.instructions;
    cores_ended_ = p.cores_ended;
    cores_total_ = p.cores_total;
  }

  // The line for these figures, at most `width` columns (pure: tested directly).
  struct Figures {
    std::string phase;
    size_t launch = 0, launches = 0;  // 0 launches: not a sequence
    uint64_t cycle = 0, instructions = 0;
    int cores_ended = 0, cores_total = 0;
    double elapsed_s = 0;
    double left_s = -1;  // < 0: no estimate
  };
  static std::string format(const Figures& f, size_t width);

 private:
  using Clock = std::chrono::steady_clock;
  void loop();
  void draw();  // mu_ held
  bool due() const { return Clock::now() - start_ >= delay_; }

  std::mutex mu_;
  std::condition_variable cv_;
  std::string phase_ = "starting";
  std::atomic<uint64_t> cycle_{0}, instructions_{0};
  std::atomic<int> cores_ended_{0}, cores_total_{0};
  size_t launch_ = 0, launches_ = 0;
  Clock::time_point first_launch_, this_launch_;
  bool stop_ = false, shown_ = false;
  Clock::time_point start_ = Clock::now();
  std::chrono::milliseconds delay_;
  std::thread thread_;
};

}  // namespace npu::cli
