// libsystemc.so refers to sc_main (its own main() would call it). npusim's programs (the CLI,
// the tests) have their own main() and drive SystemC through hw/mem/sim_kernel.h, so every
// executable links this definition; it is never called.
#include "isa/error.h"

extern "C" int sc_main(int, char**) {
  throw npu::Error("sc_main called, but this program drives SystemC from its own main()");
}
