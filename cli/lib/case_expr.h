#pragma once
// Integer expressions in case files: shapes, block_dim and int parameters may be written as
// "M*K", "cdiv(N, 16) * 16" or plain numbers. 64-bit signed arithmetic with + - * / % (C
// precedence, / and % truncate toward zero), unary minus, parentheses, names of case `vars`,
// and the functions min(a, b), max(a, b), cdiv(a, b) (= ceil(a / b) for b > 0).
// Overflow, division by zero and unknown names are errors.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace npu::cli {

using CaseVars = std::map<std::string, int64_t>;

// Value of `text`, or nullopt with *error set ("unknown name 'Q' (vars: M, K)", ...).
std::optional<int64_t> eval_case_expr(std::string_view text, const CaseVars& vars,
                                      std::string* error);

// `text` for an error message: whole, or its first 40 characters and "..." when it is longer
// than 60 (a 100 k character expression must not become a 100 k character message).
std::string abbreviate_expr(std::string_view text);

}  // namespace npu::cli
