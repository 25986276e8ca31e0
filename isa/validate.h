#pragma once
// Static checks of a program: of each instruction against the table, the architecture and the
// core type it will run on (operand forms and ranges, enum values, arch/core availability,
// dtype combinations, pipes that exist on the core), and of the program as a whole (names,
// limits, branch targets, parameter indices, semantic labels). The assembler applies the same
// rules as it reads the source (each message becomes a file:line:col error) and checks its
// result with validate_program; the object loader (isa/object.h) applies validate_program.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "isa/isa.h"
#include "isa/program.h"

namespace npu::isa {

inline constexpr size_t kMaxSectionSize = (size_t{1} << 20) - 1;  // Target fields are 20 bits
inline constexpr size_t kMaxParams = 256;                          // Param fields are 8 bits

// Names: kernel, parameter, label and constant names are identifiers ([A-Za-z_][A-Za-z0-9_]*),
// parameter and constant names also not a register spelling (r + 1 to 3 digits); semantic labels are letters, digits and
// _ . - / (non-empty).
bool is_ident_start(char c);
bool is_ident_char(char c);
bool is_identifier(std::string_view s);
// The kernel name a source without .kernel gets: its file name's stem ("dir/my-k.s" -> "my_k"),
// made an identifier; "kernel" when nothing is left.
std::string default_kernel_name(std::string_view filename);
bool is_register_spelling(std::string_view s);
bool is_semantic_label_name(std::string_view s);

// Every problem with `in` on (arch, core); empty when it is valid. Messages do not name the
// location (the caller adds it). Targets and parameter indices need the program: see below.
std::vector<std::string> validate(const Instr& in, Arch arch, CoreType core);

// Every problem with the program on `arch`; empty when it is valid. validate() for every
// instruction of every present section (prefixed "aic pc 12 (disassembly): "), branch targets
// inside the section (0..size), parameter indices < params.size(); then the kernel name (empty
// or an identifier: a source without .kernel), the parameters (names, unique, at most
// kMaxParams), at least one section, at most kMaxSectionSize instructions per section, and the
// semantic labels (names, pcs strictly increasing and at most the section size).
std::vector<std::string> validate_program(const Program& p, Arch arch);

}  // namespace npu::isa
