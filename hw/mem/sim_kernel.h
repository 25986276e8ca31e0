#pragma once
// Several simulations in one process. SystemC 2.3 cannot elaborate again after sc_start in the
// same simulation context; a fresh sc_simcontext can. Verified with Debian's libsystemc 2.3.4
// (also under ASan+UBSan): build a SimContext first, then the modules, run, and let the modules
// die before the context (declare the context first in the scope):
//
//   { npu::hw::SimContext ctx;
//     Top top("top", cfg);
//     sc_core::sc_start(); }   // top destroyed, then the context
//
// The context becomes the current (and default global) one; its destructor deletes it and
// leaves none current, so the next SimContext (or any SystemC call) starts afresh.
// Not thread-safe: one simulation at a time per process.
#include <systemc>

namespace npu::hw {

class SimContext {
 public:
  SimContext();
  ~SimContext();
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;
  sc_core::sc_simcontext* get() const { return ctx_; }

 private:
  sc_core::sc_simcontext* ctx_;
};

// Call right after every sc_start() returns. SystemC's coroutine stack switches are invisible
// to AddressSanitizer, which afterwards mistakes the main stack for a coroutine stack and reports
// false stack errors at the next C++ throw; this tells it the main stack is current again.
// A no-op in builds without ASan.
void resync_sanitizer_stack();

}  // namespace npu::hw
