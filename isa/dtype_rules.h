#pragma once
// Dtype legality: the dtypes each dtype field of an instruction may name. Every DT field of
// isa/instructions.def names a DtypeRule; the rules themselves are the table in
// isa/dtype_rules.cc. Used by isa/validate.cc (assembler and loader), the semantics
// (isa/sem/execute.cc, for instructions that never went through the assembler), the
// calibration tables and docs/isa.md, so none of them keeps its own list.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "isa/isa.h"

namespace npu::isa {

// An ordered list of dtypes (the order is the one error messages and docs print).
struct DtypeList {
  std::array<Dtype, 10> v{};
  int n = 0;
  constexpr DtypeList() = default;
  constexpr DtypeList(std::initializer_list<Dtype> l) {
    for (Dtype d : l) v[n++] = d;
  }
  constexpr bool has(Dtype d) const {
    for (int i = 0; i < n; ++i)
      if (v[i] == d) return true;
    return false;
  }
  std::string names() const;  // "f32, f16, bf16"
};

// Conversion rules: legal destinations for one source dtype.
struct Conversion {
  Dtype from;
  DtypeList to;
};

struct DtypeRuleDef {
  DtypeRule rule;
  DtypeList any;  // one-dtype rules: legal on every architecture
  DtypeList a5;   // ... and legal on a5 in addition
  // Conversion rules (the field is the destination, the instruction's first dtype field the
  // source): sources not listed are illegal. nconv == 0 for one-dtype rules.
  std::array<Conversion, 2> conv{};
  int nconv = 0;
};

const DtypeRuleDef& dtype_rule(DtypeRule r);

// The dtypes rule r allows on arch (one-dtype rules), in message order.
std::string allowed_names(DtypeRule r, Arch arch);
bool dtype_allowed(DtypeRule r, Dtype d, Arch arch);
// Conversion rules: may `from` be converted to `to`?
bool conversion_allowed(DtypeRule r, Dtype from, Dtype to);
// "f32 -> bf16, f16, f32; s32 -> f32, bf16, f16, s32"
std::string conversion_names(DtypeRule r);

// Whether every dtype field of `in` names a dtype its rule allows on arch; the messages
// ("'vexp' does not support dtype s32 (allowed: f32, f16, bf16)") otherwise.
std::vector<std::string> dtype_errors(const Instr& in, Arch arch);
// The first of those messages, "" when every dtype is legal (no allocation then).
std::string first_dtype_error(const Instr& in, Arch arch);

}  // namespace npu::isa
