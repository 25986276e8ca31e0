#include "cli/lib/progress.h"

#include <cstdio>
#include <cstdlib>

namespace npu::cli {

ProgressLine::ProgressLine() : delay_(2000) {
  if (const char* ms = std::getenv("NPUSIM_PROGRESS_DELAY_MS")) delay_ = std::chrono::milliseconds(std::atoll(ms));
  thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    if (shown_) std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  cv_.notify_all();
  thread_.join();
}

void ProgressLine::phase(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  phase_ = name;
  if (std::chrono::steady_clock::now() - start_ >= delay_) draw();
}

void ProgressLine::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, delay_, [this] { return stop_; });
  while (!stop_) {
    draw();
    cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; });
  }
}

void ProgressLine::draw() {
  if (stop_) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line = "npusim: " + phase_;
  if (cycle_ || instructions_)
    line += "  " + std::to_string(cycle_.load()) + " cycles  " + std::to_string(instructions_.load()) + " instructions";
  char t[32];
  std::snprintf(t, sizeof t, "  %.1f s", s);
  std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), t);
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace npu::cli
