#include "cli/lib/trace_json_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
  for (size_t i = 0; i < used_; ++i)
    if (members_[i].first == k) return &members_[i].second;
  return nullptr;
}

std::vector<std::pair<std::string, FlatJson>> FlatJson::items() const {
  std::vector<std::pair<std::string, FlatJson>> v;
  for (size_t i = 0; i < used_; ++i) v.emplace_back(std::string(members_[i].first), members_[i].second);
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

// A string without escapes: printable ASCII up to the closing quote. 16 characters at a time
// where SSE2 is (every x86-64): the first quote, backslash, control character or non-ASCII byte.
bool scan_string(const char*& p, const char* last, std::string_view* out) {
  if (p == last || *p != '"') return false;
  const char* s = ++p;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20),
                del = _mm_set1_epi8(0x7F);
  for (; last - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed: bytes 0x80 and up are negative, so "below 0x20" takes them with the controls.
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                      _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
    if (const int m = _mm_movemask_epi8(stop)) {
      p += __builtin_ctz(static_cast<unsigned>(m));
      break;
    }
  }
#endif
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
  used_ = 0;  // a slot that held an object on an earlier line has no members now
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

// Members are parsed into the slots of earlier lines (a nested object keeps its own slots), so a
// reused FlatJson allocates only when a line has more members than any before it.
bool FlatJson::parse_object(const char*& p, const char* last, int depth) {
  kind_ = Kind::Object;
  used_ = 0;
  if (p == last || *p != '{') return false;
  ++p;
  if (p != last && *p == '}') {
    ++p;
    return true;
  }
  uint64_t seen = 0;  // one bit per (length, last character) class of the keys so far
  while (true) {
    std::string_view key;
    if (!scan_string(p, last, &key)) return false;
    const uint64_t bit = uint64_t(1) << ((key.size() * 7 + (key.empty() ? 0 : key.back())) % 64);
    if (seen & bit)  // perhaps a duplicate: nlohmann keeps the last; left to it
      for (size_t i = 0; i < used_; ++i)
        if (members_[i].first == key) return false;
    seen |= bit;
    if (p == last || *p != ':') return false;
    ++p;
    if (used_ == members_.size()) members_.emplace_back();
    auto& [name, value] = members_[used_++];
    name = key;
    if (!value.parse_value(p, last, depth)) return false;
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
