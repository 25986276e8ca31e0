#pragma once
// One event line of the Chrome trace `npusim run --trace` writes, read without building a JSON
// document: an object of scalar members and at most one level of nested objects ("args"), no
// whitespace, strings of printable ASCII without escapes, numbers non-negative. Anything else
// (including duplicate keys) is refused, and the reader parses that line with nlohmann::json
// instead, which defines the semantics: for every line this accepts, a FlatJson answers the
// questions the trace reader asks exactly as the parsed nlohmann::json would.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu::cli {

class FlatJson {
 public:
  bool is_object() const { return kind_ == Kind::Object; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_number_unsigned() const { return kind_ == Kind::Unsigned; }
  bool is_number_integer() const { return kind_ == Kind::Unsigned; }
  bool is_number() const { return kind_ == Kind::Unsigned || kind_ == Kind::Float; }
  const char* type_name() const;  // nlohmann's names: "object", "string", "number"
  std::string dump() const;       // a number's text as written

  // Members of an object (nullptr when absent), and all of them in key order as
  // nlohmann::json (a std::map) iterates them.
  const FlatJson* find(const char* key) const;
  std::vector<std::pair<std::string, FlatJson>> items() const;

  template <class T>
  T get() const;

  // Parses [first, last) into *this (reusing its storage); false when the line is not of the
  // accepted form (*this is then unspecified).
  bool parse(const char* first, const char* last);

 private:
  enum class Kind : uint8_t { Object, String, Unsigned, Float };
  bool parse_object(const char*& p, const char* last, int depth);
  bool parse_value(const char*& p, const char* last, int depth);

  Kind kind_ = Kind::Object;
  std::string_view text_;  // a string's characters, a number's text
  uint64_t u_ = 0;
  double f_ = 0;
  std::vector<std::pair<std::string_view, FlatJson>> members_;  // slots; the first used_ are this object's
  size_t used_ = 0;
};

template <>
std::string FlatJson::get<std::string>() const;
template <>
uint64_t FlatJson::get<uint64_t>() const;
template <>
int64_t FlatJson::get<int64_t>() const;
template <>
double FlatJson::get<double>() const;

}  // namespace npu::cli
