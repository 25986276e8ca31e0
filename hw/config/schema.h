#pragma once
// The configuration schema: every YAML key, declared once (schema.cc), with its type, range,
// unit, description and the HwConfig member it fills. The loader, the resolved-config dump and
// docs/config.md are all derived from this list.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"

namespace npu::hw {

enum class KeyType {
  Int,       // plain integer
  Float,     // decimal number
  Bool,      // true | false
  String,    // free text
  Size,      // bytes: an integer with an optional unit (512, 64KiB, 192MB; KB = KiB = 1024)
  Enum,      // one of `choices`
  PerDtype,  // cycles: a number, or a map {default: x, <dtype>: y, ...}
};
std::string_view key_type_name(KeyType t);

// A parsed value of one key. Which member is meaningful depends on the KeyType:
// Int/Size -> i, Float -> f, Bool -> b, String/Enum -> s, PerDtype -> table ("default" + dtypes).
struct KeyValue {
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::map<std::string, double> table;
};

struct KeySpec {
  std::string path;  // dotted, e.g. "l2.size"
  KeyType type;
  double min = 0, max = 0;  // inclusive range (Int, Float, Size, and every PerDtype entry)
  std::vector<std::string> choices;  // Enum
  std::string unit;         // "bytes", "cycles", "B/cycle", "GHz", ...; "" if none
  std::string description;
  std::string default_text;  // non-empty: the key is optional, with this value (YAML text)
  std::function<void(HwConfig&, const KeyValue&)> set;
  std::function<KeyValue(const HwConfig&)> get;

  bool optional() const { return !default_text.empty(); }
};

// Every key, in the order of the YAML layout (and of the dump and the docs).
const std::vector<KeySpec>& config_schema();
// The spec of a dotted path, or nullptr.
const KeySpec* find_key(const std::string& path);
// The closest known key to a misspelt one (for "did you mean"), or "".
std::string closest_key(const std::string& path);

// Names accepted as dtype keys of PerDtype tables (isa keywords: f32, f16, bf16, s32, ...).
const std::vector<std::string>& dtype_key_names();

// Size text -> bytes. Returns an error message ("" on success).
std::string parse_size(const std::string& text, int64_t& bytes);
// Bytes -> the shortest exact text ("192MiB", "7KiB", "100").
std::string format_size(int64_t bytes);
// Shortest text that parses back to the same double ("1.8", "128", "0.5").
std::string format_float(double v);

}  // namespace npu::hw
