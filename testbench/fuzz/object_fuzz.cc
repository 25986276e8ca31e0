// Fuzz target: the object-file loader (isa/object.h) on arbitrary bytes, then what the CLI and
// the simulators do with a loaded program: validate it, disassemble it, write it again.
#include "isa/disasm.h"
#include "isa/object.h"
#include "isa/validate.h"
#include "testbench/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  fuzz::tolerate_input_errors([&] {
    const isa::Program p = isa::read_object(std::vector<uint8_t>(data, data + size));
    for (isa::Arch arch : {isa::Arch::A2, isa::Arch::A5}) (void)isa::validate_program(p, arch);
    (void)isa::disassemble_program(p);
    (void)isa::write_object(p);
  });
  return 0;
}
