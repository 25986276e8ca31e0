#include "base/host_phases.h"

#include <ctime>

namespace npu {
namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace

void HostPhases::mark(const std::string& name) {
  finish();
  open_ = name;
  running_ = true;
  wall0_ = std::chrono::steady_clock::now();
  cpu0_ = thread_cpu_seconds();
}

void HostPhases::finish() {
  if (!running_) return;
  running_ = false;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  done_.push_back(Phase{open_, wall, thread_cpu_seconds() - cpu0_});
}

}  // namespace npu
