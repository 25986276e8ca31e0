// Fuzz target: the assembler (isa/asm/assembler.h) on arbitrary source text, for A2 or A5 by
// the parity of the input's length (one assembly per input). It must answer with a program or
// diagnostics, never throw; an accepted program must survive the object-file round trip.
#include "isa/asm/assembler.h"
#include "isa/object.h"
#include "testbench/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  const std::string text = fuzz::text_of(data, size);
  // Named as if it were in kernels/, so the seeds' `.include "lib/..."` lines resolve.
  const std::string name = std::string(NPUSIM_SOURCE_DIR) + "/kernels/fuzz_input.s";
  const isa::AsmResult r = isa::assemble(text, name, size % 2 ? isa::Arch::A5 : isa::Arch::A2);
  if (r.program.has_value() == !r.diags.empty()) fuzz::finding("a program and diagnostics, or neither");
  (void)r.format_diags();
  if (!r.program) return 0;
  fuzz::tolerate_input_errors([&] {
    const std::vector<uint8_t> bytes = isa::write_object(*r.program);
    if (isa::write_object(isa::read_object(bytes)) != bytes) fuzz::finding("object round trip changed the program");
  });
  return 0;
}
