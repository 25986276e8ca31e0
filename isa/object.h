#pragma once
// The npusim object file (.npuo): what `npusim asm` writes and the simulators load.
//
// Little-endian. Layout:
//   "NPUSIMO3"                          8-byte magic (format version 3)
//   u64   ISA fingerprint               isa::isa_fingerprint() of the assembler; a file built
//                                       for another ISA is refused on load
//   str   kernel name                   str = u32 length + bytes
//   u32   nparams, then per param: str name, u8 kind (0 gm, 1 int, 2 f32), u8 has_dtype, u8 dtype
//   str   target config                 the config the CFG_ constants came from ("" when none)
//   u32   ntarget, then per constant the source used: str name, u64 value (two's complement);
//         a run on a config whose constants differ is refused (isa::mismatched_target)
//   u8    sections present (bit 0 aic, bit 1 aiv), then per present section, aic first:
//         u32 ninstr, ninstr x (u64 bits 63..0, u64 bits 127..64)   (isa/encoding.h)
//         u32 nlabels, per label: u32 pc, str name                  (sorted by pc)
// Nothing may follow the last section. Version 2 files ("NPUSIMO2", no target constants) and
// version 1 files ("NPUSIMO1", no fingerprint either, the rest the same) are still read: they
// predate the fingerprint but not the opcodes, which are pinned since (isa/instructions.def),
// so they decode as they were written; they used no target constants.
#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"

namespace npu::isa {

std::vector<uint8_t> write_object(const Program& p);          // throws npu::Error if not encodable

// Reads and validates an object exactly as the assembler validates a program for `arch`
// (validate_program, isa/validate.h). Throws npu::Error on a bad file: one line per problem,
// "aic pc 12 (disassembly): ..." for an instruction, the byte offset for a truncated file. The
// default, a5, accepts what is valid on some arch (a5's instruction set includes a2's); a run
// passes its config's arch.
Program read_object(const std::vector<uint8_t>& bytes, Arch arch = Arch::A5);

// File helpers. Writing goes to "<path>.tmp.<pid>" then renames, so no partial file is left.
// Reading prefixes every line of an error with the path. An object file may hold this much: two
// sections of at most 2^20 - 1 sixteen-byte instructions, and their label and parameter tables.
inline constexpr uint64_t kMaxObjectFileBytes = 40ull << 20;
Program read_object_file(const std::string& path, Arch arch = Arch::A5);
void write_object_file(const std::string& path, const Program& p);

}  // namespace npu::isa
