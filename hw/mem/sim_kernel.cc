#include "hw/mem/sim_kernel.h"

#include "isa/error.h"

namespace npu::hw {

SimContext::SimContext() : ctx_(new sc_core::sc_simcontext) {
  sc_core::sc_curr_simcontext = ctx_;
  sc_core::sc_default_global_context = ctx_;
}

SimContext::~SimContext() {
  if (sc_core::sc_curr_simcontext == ctx_) {
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
  }
  delete ctx_;
}

}  // namespace npu::hw

// libsystemc.so refers to sc_main (its own main() calls it). Programs of this project have
// their own main() (the CLI, gtest), so provide a weak fallback; a real sc_main overrides it.
__attribute__((weak)) int sc_main(int, char**) {
  throw npu::Error("sc_main called, but this program drives SystemC from its own main()");
}
