// Recursive-descent evaluator for case-file integer expressions (see case_expr.h).
#include "cli/lib/case_expr.h"

#include <cctype>

#include "isa/asm/expr.h"

namespace npu::cli {
namespace {

struct Failure {
  std::string message;
};

class Parser {
 public:
  Parser(std::string_view text, const CaseVars& vars) : t_(text), vars_(vars) {}

  int64_t parse_all() {
    int64_t v = sum();
    skip();
    if (p_ != t_.size()) fail("unexpected '" + std::string(t_.substr(p_, 1)) + "'");
    return v;
  }

 private:
  std::string_view t_;
  const CaseVars& vars_;
  size_t p_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& m) { throw Failure{m}; }
  void skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }

  // Counts the recursion of sum() and unary(), which every nesting goes through.
  struct Nest {
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.depth_ > isa::kMaxExprDepth)
        p_.fail("expression nested too deeply (limit " + std::to_string(isa::kMaxExprDepth) + " levels)");
    }
    ~Nest() { --p_.depth_; }
    Parser& p_;
  };

  static void check(bool overflow) {
    if (overflow) throw Failure{"integer overflow"};
  }
  int64_t sum() {
    Nest n(*this);
    int64_t v = product();
    for (;;) {
      int64_t r;
      if (eat('+')) {
        r = product();
        check(__builtin_add_overflow(v, r, &v));
      } else if (eat('-')) {
        r = product();
        check(__builtin_sub_overflow(v, r, &v));
      } else {
        return v;
      }
    }
  }
  int64_t product() {
    int64_t v = unary();
    for (;;) {
      if (eat('*')) {
        int64_t r = unary();
        check(__builtin_mul_overflow(v, r, &v));
      } else if (eat('/')) {
        int64_t r = unary();
        if (r == 0) fail("division by zero");
        if (v == INT64_MIN && r == -1) fail("integer overflow");
        v = v / r;
      } else if (eat('%')) {
        int64_t r = unary();
        if (r == 0) fail("division by zero");
        if (v == INT64_MIN && r == -1) fail("integer overflow");
        v = v % r;
      } else {
        return v;
      }
    }
  }
  int64_t unary() {
    Nest n(*this);
    if (eat('-')) {
      int64_t v = unary();
      if (v == INT64_MIN) fail("integer overflow");
      return -v;
    }
    if (eat('+')) return unary();
    return primary();
  }
  int64_t primary() {
    skip();
    if (p_ >= t_.size()) fail("expected a number, a name or '('");
    char c = t_[p_];
    if (c == '(') {
      ++p_;
      int64_t v = sum();
      if (!eat(')')) fail("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (p_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[p_]))) {
        int d = t_[p_++] - '0';
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
          fail("number too large");
      }
      if (p_ < t_.size() && (std::isalpha(static_cast<unsigned char>(t_[p_])) || t_[p_] == '.'))
        fail("not an integer: '" + abbreviate_expr(t_) + "'");
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t s = p_;
      while (p_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_')) ++p_;
      std::string name(t_.substr(s, p_ - s));
      if (name == "min" || name == "max" || name == "cdiv") return call(name);
      auto it = vars_.find(name);
      if (it == vars_.end()) {
        std::string known;
        for (const auto& kv : vars_) known += (known.empty() ? "" : ", ") + kv.first;
        fail("unknown name '" + name + "' (vars: " + (known.empty() ? "none" : known) + ")");
      }
      return it->second;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }
  int64_t call(const std::string& fn) {
    if (!eat('(')) fail("expected '(' after " + fn);
    int64_t a = sum();
    if (!eat(',')) fail(fn + " takes two arguments");
    int64_t b = sum();
    if (!eat(')')) fail("expected ')'");
    if (fn == "min") return a < b ? a : b;
    if (fn == "max") return a > b ? a : b;
    if (b <= 0) fail("cdiv by a non-positive number");
    if (a >= 0) return a / b + (a % b != 0);
    return -((-a) / b);
  }
};

}  // namespace

std::optional<int64_t> eval_case_expr(std::string_view text, const CaseVars& vars,
                                      std::string* error) {
  try {
    return Parser(text, vars).parse_all();
  } catch (const Failure& f) {
    if (error) *error = f.message;
    return std::nullopt;
  }
}

std::string abbreviate_expr(std::string_view text) {
  return text.size() <= 60 ? std::string(text) : std::string(text.substr(0, 40)) + "...";
}

}  // namespace npu::cli
