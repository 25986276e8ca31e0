#include "cli/lib/trace_json_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace npu::cli {

const char* FlatJson::type_name() const {
  switch (kind_) {
    case Kind::Object: return "object";
    case Kind::String: return "string";
    default: return "number";
  }
}

std::string FlatJson::dump() const { return std::string(text_); }

const FlatJson* FlatJson::find(const char* key) const {
  const std::string_view k(key);
  for (const auto& [name, value] : members_)
    if (name == k) return &value;
  return nullptr;
}

std::vector<std::pair<std::string, FlatJson>> FlatJson::items() const {
  std::vector<std::pair<std::string, FlatJson>> v;
  for (const auto& [name, value] : members_) v.emplace_back(std::string(name), value);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return v;
}

template <>
std::string FlatJson::get<std::string>() const {
  return std::string(text_);
}
template <>
uint64_t FlatJson::get<uint64_t>() const {
  return kind_ == Kind::Float ? static_cast<uint64_t>(f_) : u_;
}
template <>
int64_t FlatJson::get<int64_t>() const {
  return kind_ == Kind::Float ? static_cast<int64_t>(f_) : static_cast<int64_t>(u_);
}
template <>
double FlatJson::get<double>() const {
  return kind_ == Kind::Float ? f_ : static_cast<double>(u_);
}

namespace {

// A string without escapes: printable ASCII up to the closing quote.
bool scan_string(const char*& p, const char* last, std::string_view* out) {
  if (p == last || *p != '"') return false;
  const char* s = ++p;
  while (p != last && *p != '"') {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c > 0x7E || c == '\\') return false;
    ++p;
  }
  if (p == last) return false;
  *out = std::string_view(s, static_cast<size_t>(p - s));
  ++p;
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

// JSON's number grammar without the sign: int (no leading zeros) [frac] [exp]. An integer of up to
// 19 digits is unsigned (as nlohmann reads it); with a fraction or exponent it is a double
// (correctly rounded, as nlohmann's strtod); longer integers and non-finite values are refused.
bool FlatJson::parse_value(const char*& p, const char* last, int depth) {
  if (p == last) return false;
  if (*p == '"') {
    kind_ = Kind::String;
    return scan_string(p, last, &text_);
  }
  if (*p == '{') {
    kind_ = Kind::Object;
    return depth < 1 && parse_object(p, last, depth + 1);
  }
  const char* s = p;
  if (!is_digit(*p)) return false;
  if (*p == '0') {
    ++p;
  } else {
    while (p != last && is_digit(*p)) ++p;
  }
  bool is_float = false;
  if (p != last && *p == '.') {
    ++p;
    if (p == last || !is_digit(*p)) return false;
    while (p != last && is_digit(*p)) ++p;
    is_float = true;
  }
  if (p != last && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p != last && (*p == '+' || *p == '-')) ++p;
    if (p == last || !is_digit(*p)) return false;
    while (p != last && is_digit(*p)) ++p;
    is_float = true;
  }
  text_ = std::string_view(s, static_cast<size_t>(p - s));
  if (is_float) {
    kind_ = Kind::Float;
    const auto [end, ec] = std::from_chars(s, p, f_);
    return ec == std::errc() && end == p && std::isfinite(f_);
  }
  if (p - s > 19) return false;
  kind_ = Kind::Unsigned;
  const auto [end, ec] = std::from_chars(s, p, u_);
  return ec == std::errc() && end == p;
}

bool FlatJson::parse_object(const char*& p, const char* last, int depth) {
  kind_ = Kind::Object;
  members_.clear();
  if (p == last || *p != '{') return false;
  ++p;
  if (p != last && *p == '}') {
    ++p;
    return true;
  }
  while (true) {
    std::string_view key;
    if (!scan_string(p, last, &key)) return false;
    for (const auto& m : members_)
      if (m.first == key) return false;  // nlohmann keeps the last; left to it
    if (p == last || *p != ':') return false;
    ++p;
    members_.emplace_back(key, FlatJson());
    if (!members_.back().second.parse_value(p, last, depth)) return false;
    if (p == last) return false;
    if (*p == '}') {
      ++p;
      return true;
    }
    if (*p != ',') return false;
    ++p;
  }
}

bool FlatJson::parse(const char* first, const char* last) {
  const char* p = first;
  return parse_object(p, last, 0) && p == last;
}

}  // namespace npu::cli
