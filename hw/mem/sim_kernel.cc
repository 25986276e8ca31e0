#include "hw/mem/sim_kernel.h"

#include "base/sanitizer.h"
#include "isa/error.h"

#if defined(NPUSIM_ASAN)
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/syscall.h>
#include <unistd.h>

// SystemC 2.3.4 maps each coroutine stack with mmap and unmaps it when the process is deleted
// with its context. A coroutine that never returned (a thread still waiting when the run ended:
// every unit's thread after a run stopped at a run limit or a fault) leaves its frames' red
// zones in ASan's shadow, and this ASan keeps the shadow of unmapped memory as it was. The next
// mapping at those addresses (the next simulation's coroutine stacks, a core's buffers) then
// inherits the stale red zones and ASan reports stack-buffer-overflows on valid accesses. So
// every munmap in a sanitizer build (SystemC's calls resolve to this definition first) clears
// the shadow of what it unmapped.
extern "C" int munmap(void* addr, size_t length) {
  const long r = syscall(SYS_munmap, addr, length);
  if (r == 0) ASAN_UNPOISON_MEMORY_REGION(addr, length);
  return static_cast<int>(r);
}
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
#if defined(NPUSIM_ASAN)
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
