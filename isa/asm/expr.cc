#include "isa/asm/expr.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace npu::isa::detail {

namespace {

struct Fail {};  // unwinds the parser after *err is set

class Parser {
 public:
  Parser(std::string_view t, const NameLookup& l, ExprError* e) : s_(t), lookup_(l), err_(e) {}

  int64_t parse_all() {
    int64_t v = static_cast<int64_t>(int_expr(0));
    skip();
    if (p_ < s_.size()) fail(p_, fmt::format("unexpected '{}' in expression", s_[p_]));
    return v;
  }

 private:
  std::string_view s_;
  const NameLookup& lookup_;
  ExprError* err_;
  size_t p_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(size_t pos, std::string msg) {
    err_->pos = pos;
    err_->message = std::move(msg);
    throw Fail{};
  }
  void skip() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(p_, tok.size()) != tok) return false;
    // "<" must not match the start of "<<" etc. (only the two-char shifts exist).
    p_ += tok.size();
    return true;
  }
  void enter() {
    if (++depth_ > kMaxExprDepth) fail(p_, "expression nested too deeply");
  }

  // Binary levels, loosest first: | ^ & (<< >>) (+ -) (* / %).
  uint64_t int_expr(int level) {
    enter();
    uint64_t v = level == 5 ? int_unary() : int_expr(level + 1);
    for (;;) {
      skip();
      size_t at = p_;
      int op = 0;
      if (level == 0 && eat("|")) op = '|';
      else if (level == 1 && eat("^")) op = '^';
      else if (level == 2 && eat("&")) op = '&';
      else if (level == 3 && eat("<<")) op = 'l';
      else if (level == 3 && eat(">>")) op = 'r';
      else if (level == 4 && eat("+")) op = '+';
      else if (level == 4 && eat("-")) op = '-';
      else if (level == 5 && eat("*")) op = '*';
      else if (level == 5 && eat("/")) op = '/';
      else if (level == 5 && eat("%")) op = '%';
      if (!op) break;
      uint64_t r = level == 5 ? int_unary() : int_expr(level + 1);
      int64_t sv = static_cast<int64_t>(v), sr = static_cast<int64_t>(r);
      switch (op) {
        case '|': v |= r; break;
        case '^': v ^= r; break;
        case '&': v &= r; break;
        case 'l':
        case 'r':
          if (sr < 0 || sr > 63) fail(at, fmt::format("shift amount {} out of range (0..63)", sr));
          v = op == 'l' ? v << sr : static_cast<uint64_t>(sv >> sr);
          break;
        case '+': v += r; break;
        case '-': v -= r; break;
        case '*': v *= r; break;
        case '/':
        case '%':
          if (sr == 0) fail(at, "division by zero");
          if (sv == INT64_MIN && sr == -1) v = op == '/' ? v : 0;  // wraps like the rest
          else v = static_cast<uint64_t>(op == '/' ? sv / sr : sv % sr);
          break;
      }
    }
    --depth_;
    return v;
  }

  uint64_t int_unary() {
    enter();
    uint64_t v;
    if (eat("-")) v = 0 - int_unary();
    else if (eat("+")) v = int_unary();
    else if (eat("~")) v = ~int_unary();
    else v = int_primary();
    --depth_;
    return v;
  }

  std::string_view number_token() {
    size_t b = p_;
    bool hex = s_.substr(p_, 2) == "0x" || s_.substr(p_, 2) == "0X";
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (is_ident_char(c) || c == '.') {
        ++p_;
      } else if ((c == '+' || c == '-') && !hex && p_ > b && (s_[p_ - 1] == 'e' || s_[p_ - 1] == 'E')) {
        ++p_;
      } else {
        break;
      }
    }
    return s_.substr(b, p_ - b);
  }

  uint64_t parse_int_literal(std::string_view tok, size_t at) {
    std::string digits;
    int base = 10;
    std::string_view body = tok;
    if (tok.size() > 1 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) base = 16, body = tok.substr(2);
    else if (tok.size() > 1 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B')) base = 2, body = tok.substr(2);
    for (char c : body)
      if (c != '_') digits += c;
    if (base == 10 && (tok.find('.') != std::string_view::npos || tok.find_first_of("eE") != std::string_view::npos))
      fail(at, fmt::format("float literal '{}' is only allowed inside f32()", tok));
    if (digits.empty() || body.front() == '_') fail(at, fmt::format("bad number '{}'", tok));
    uint64_t v = 0;
    for (char c : digits) {
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
      if (d >= base) fail(at, fmt::format("bad number '{}'", tok));
      if (v > (UINT64_MAX - d) / base) fail(at, fmt::format("integer literal '{}' too large (64 bits)", tok));
      v = v * base + d;
    }
    return v;
  }

  std::string_view ident() {
    size_t b = p_;
    while (p_ < s_.size() && is_ident_char(s_[p_])) ++p_;
    return s_.substr(b, p_ - b);
  }

  int64_t name_value(std::string_view name, size_t at) {
    bool reported = false;
    auto v = lookup_(name, &reported);
    if (!v) {
      if (reported) fail(at, "");
      if (name.size() > 1 && name[0] == 'r' && name.find_first_not_of("0123456789", 1) == std::string_view::npos)
        fail(at, fmt::format("register '{}' cannot be used in an expression", name));
      if (name.substr(0, kTargetPrefix.size()) == kTargetPrefix)
        fail(at, fmt::format("undefined constant '{}': CFG_ constants come from the target hardware config "
                             "(assemble with one, e.g. npusim asm --config; docs/kernels.md lists them)", name));
      fail(at, fmt::format("undefined constant '{}'", name));
    }
    return *v;
  }

  uint64_t int_primary() {
    skip();
    size_t at = p_;
    if (p_ >= s_.size()) fail(at, "expected an expression");
    char c = s_[p_];
    if (c >= '0' && c <= '9') return parse_int_literal(number_token(), at);
    if (c == '.' && p_ + 1 < s_.size() && s_[p_ + 1] >= '0' && s_[p_ + 1] <= '9')
      fail(at, fmt::format("float literal '{}' is only allowed inside f32()", number_token()));
    if (c == '(') {
      ++p_;
      uint64_t v = int_expr(0);
      if (!eat(")")) fail(p_, "expected ')'");
      return v;
    }
    if (is_ident_start(c)) {
      std::string_view name = ident();
      skip();
      if (p_ < s_.size() && s_[p_] == '(') {
        ++p_;
        if (name == "kib") {
          uint64_t v = int_expr(0);
          if (!eat(")")) fail(p_, "expected ')'");
          return v * 1024;
        }
        if (name == "f32") {
          size_t arg = p_;
          double d = float_expr(0);
          size_t end = p_;
          if (!eat(")")) fail(p_, "expected ')'");
          float f = static_cast<float>(d);
          // A lone literal is rounded once, directly to fp32.
          std::string lit(s_.substr(arg, end - arg));
          char* e = nullptr;
          float direct = std::strtof(lit.c_str(), &e);
          if (e && *e == '\0' && !lit.empty() && lit.find_first_of(" \t") == std::string::npos) f = direct;
          uint32_t bits;
          std::memcpy(&bits, &f, 4);
          return bits;
        }
        fail(at, fmt::format("unknown function '{}' (functions: f32, kib)", name));
      }
      return static_cast<uint64_t>(name_value(name, at));
    }
    fail(at, fmt::format("unexpected '{}' in expression", c));
  }

  // f32(...) argument: + - * / and parentheses over float and integer literals and constants.
  double float_expr(int level) {
    enter();
    double v = level == 1 ? float_unary() : float_expr(1);
    for (;;) {
      skip();
      size_t at = p_;
      char op = 0;
      if (level == 0 && (eat("+") || eat("-"))) op = s_[p_ - 1];
      else if (level == 1 && (eat("*") || eat("/"))) op = s_[p_ - 1];
      if (!op) break;
      double r = level == 1 ? float_unary() : float_expr(1);
      if (op == '+') v += r;
      else if (op == '-') v -= r;
      else if (op == '*') v *= r;
      else {
        if (r == 0) fail(at, "division by zero");
        v /= r;
      }
    }
    skip();
    if (level == 0 && p_ < s_.size() && s_[p_] != ')')
      fail(p_, fmt::format("operator '{}' is not allowed inside f32() (only + - * /)", s_[p_]));
    --depth_;
    return v;
  }

  double float_unary() {
    enter();
    double v;
    if (eat("-")) v = -float_unary();
    else if (eat("+")) v = float_unary();
    else v = float_primary();
    --depth_;
    return v;
  }

  double float_primary() {
    skip();
    size_t at = p_;
    if (p_ >= s_.size()) fail(at, "expected an expression");
    char c = s_[p_];
    if ((c >= '0' && c <= '9') || c == '.') {
      std::string_view tok = number_token();
      if (tok.size() > 1 && tok[0] == '0' && std::strchr("xXbB", tok[1]))
        return static_cast<double>(static_cast<int64_t>(parse_int_literal(tok, at)));
      std::string t;
      for (char ch : tok)
        if (ch != '_') t += ch;
      char* e = nullptr;
      double d = std::strtod(t.c_str(), &e);
      if (t.empty() || *e != '\0') fail(at, fmt::format("bad number '{}'", tok));
      return d;
    }
    if (c == '(') {
      ++p_;
      double v = float_expr(0);
      if (!eat(")")) fail(p_, "expected ')'");
      return v;
    }
    if (is_ident_start(c)) {
      std::string_view name = ident();
      if (name == "inf") return INFINITY;
      if (name == "nan") return NAN;
      return static_cast<double>(name_value(name, at));
    }
    fail(at, fmt::format("unexpected '{}' in expression", c));
  }
};

}  // namespace

std::optional<int64_t> eval_expr(std::string_view text, const NameLookup& lookup, ExprError* err) {
  Parser p(text, lookup, err);
  try {
    return p.parse_all();
  } catch (const Fail&) {
    return std::nullopt;
  }
}

}  // namespace npu::isa::detail
