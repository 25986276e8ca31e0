#pragma once
// Assembler expressions (docs/isa.md, "Expressions"): 64-bit wrapping integer arithmetic with
// C precedence, named constants, kib(n) and f32(float expression) -> fp32 bit pattern.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "isa/validate.h"  // is_ident_start, is_ident_char

namespace npu::isa {

// Recursion frames an expression parser may use (each parenthesis and each unary operator
// takes one or more), so hostile nesting is an error and not a stack overflow. Shared by the
// assembler's expressions and the case files' (cli/lib/case_expr.cc).
inline constexpr int kMaxExprDepth = 200;

}  // namespace npu::isa

namespace npu::isa::detail {

// Names starting with this are the target config's constants: predefined, never .equ'd.
inline constexpr std::string_view kTargetPrefix = "CFG_";

struct ExprError {
  size_t pos = 0;       // offset in the expression text
  std::string message;  // empty: failed, already reported elsewhere (a bad constant)
};

// Value of a named constant; nullopt with *err set (or left empty when already reported).
using NameLookup = std::function<std::optional<int64_t>(std::string_view name, bool* reported)>;

// Evaluates all of `text`; returns the value or sets *err.
std::optional<int64_t> eval_expr(std::string_view text, const NameLookup& lookup, ExprError* err);

}  // namespace npu::isa::detail
