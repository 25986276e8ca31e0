#include "hw/mem/sim_kernel.h"

#include "isa/error.h"

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace npu::hw {

SimContext::SimContext() : ctx_(new sc_core::sc_simcontext) {
  sc_core::sc_curr_simcontext = ctx_;
  sc_core::sc_default_global_context = ctx_;
}

SimContext::~SimContext() {
  // Delete while still current: the context's clean-up deletes leftover processes, and that asks
  // for the current context (sc_get_curr_simcontext), which would otherwise create and leak a
  // fresh one.
  const bool current = sc_core::sc_curr_simcontext == ctx_;
  delete ctx_;
  if (current) {
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
  }
}

void resync_sanitizer_stack() {
#if defined(__SANITIZE_ADDRESS__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* low = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &low, &size);
  pthread_attr_destroy(&attr);
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, low, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace npu::hw
