#include "cli/lib/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace npu::cli {

namespace {

size_t terminal_width() {
  winsize ws{};
  // One column short of the width: a line filling the last column would wrap on some terminals.
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col - 1u;
  return 79;
}

std::string seconds(double s) {
  char t[32];
  std::snprintf(t, sizeof t, "%.1f s", s);
  return t;
}

}  // namespace

std::string ProgressLine::format(const Figures& f, size_t width) {
  // Parts in display order, each with its rank: when the line is too wide, the highest rank
  // goes first. The phase and the elapsed time always stay.
  struct Part {
    std::string text;
    int rank;
  };
  std::vector<Part> parts{{"npusim: " + f.phase, 0}};
  if (f.launches) parts.push_back({"launch " + std::to_string(f.launch) + "/" + std::to_string(f.launches), 1});
  if (f.cycle || f.instructions) {
    parts.push_back({std::to_string(f.cycle) + " cycles", 2});
    parts.push_back({std::to_string(f.instructions) + " instructions", 5});
  }
  if (f.cores_total)
    parts.push_back({"cores " + std::to_string(f.cores_ended) + "/" + std::to_string(f.cores_total) + " ended", 4});
  parts.push_back({seconds(f.elapsed_s), 0});
  if (f.left_s >= 0) parts.push_back({"~" + seconds(f.left_s) + " left", 3});
  for (int drop = 6;; --drop) {
    std::string line;
    for (const Part& p : parts)
      if (p.rank < drop) line += (line.empty() ? "" : "  ") + p.text;
    if (line.size() <= width || drop == 1) return line.size() <= width ? line : line.substr(0, width);
  }
}

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
  if (due()) draw();
}

void ProgressLine::launch(size_t k, size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  this_launch_ = Clock::now();
  if (k == 1) first_launch_ = this_launch_;
  launch_ = k;
  launches_ = n;
  cycle_ = instructions_ = 0;
  cores_ended_ = cores_total_ = 0;
  if (due()) draw();
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
  const Clock::time_point now = Clock::now();
  auto secs = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  Figures f{phase_, launch_, launches_, cycle_, instructions_, cores_ended_, cores_total_, secs(now - start_), -1};
  if (phase_ == "simulation" && launch_ > 1 && launch_ <= launches_) {  // launches 1 .. k-1 are done
    const double per_launch = secs(this_launch_ - first_launch_) / static_cast<double>(launch_ - 1);
    f.left_s = std::max(0.0, per_launch * static_cast<double>(launches_ - launch_ + 1) - secs(now - this_launch_));
  }
  std::fprintf(stderr, "\r\033[K%s", format(f, terminal_width()).c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace npu::cli
