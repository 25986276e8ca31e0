#pragma once
// The progress line of `npusim run` on a terminal (README "What a run gives you"): once a run has
// taken kProgressDelay (2 s; NPUSIM_PROGRESS_DELAY_MS overrides it, for tests), one line on
// stderr, rewritten in place every quarter second:
//   "npusim: simulation  1200000 cycles  3456789 instructions  4.2 s"
// with the phase (inputs, simulation, golden, compare, writing outputs), the simulated cycle and
// the instructions issued so far (SystemC model; in a launch sequence, of the current launch) and
// the elapsed time. No estimate of the time left: a kernel's cycle count is not known before it
// ends.
// The line is erased when the run ends, before the report is printed. cmd_run creates one only
// when stderr is a terminal and -q is not given.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace npu::cli {

class ProgressLine {
 public:
  ProgressLine();   // starts the drawing thread
  ~ProgressLine();  // stops it and erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void phase(const std::string& name);  // redraws at once when the line is showing
  void simulated(uint64_t cycle, uint64_t instructions) {
    cycle_ = cycle;
    instructions_ = instructions;
  }

 private:
  void loop();
  void draw();  // mu_ held

  std::mutex mu_;
  std::condition_variable cv_;
  std::string phase_ = "starting";
  std::atomic<uint64_t> cycle_{0}, instructions_{0};
  bool stop_ = false, shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::milliseconds delay_;
  std::thread thread_;
};

}  // namespace npu::cli
