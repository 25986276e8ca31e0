#pragma once
// Where a job's host time goes, phase by phase, on the thread that marks them: each mark ends
// the phase before it and starts the named one; finish() ends the last. Wall time (steady
// clock) and the marking thread's CPU time (user + sys), so a phase that waits for another
// thread (the golden) shows wall without CPU. `npusim bench` prints them for its `npusim run`
// jobs (docs/performance.md); nothing else pays for them (callers hold a null pointer).
#include <chrono>
#include <string>
#include <vector>

namespace npu {

class HostPhases {
 public:
  struct Phase {
    std::string name;
    double wall_s = 0, cpu_s = 0;
  };
  void mark(const std::string& name);
  void finish();
  void add(const Phase& p) {  // a phase measured elsewhere (ends any open one first)
    finish();
    done_.push_back(p);
  }
  const std::vector<Phase>& phases() const { return done_; }

 private:
  std::vector<Phase> done_;
  std::string open_;
  bool running_ = false;
  std::chrono::steady_clock::time_point wall0_;
  double cpu0_ = 0;
};

// Marks `name` on p when there is one.
inline void mark_phase(HostPhases* p, const std::string& name) {
  if (p) p->mark(name);
}

}  // namespace npu
