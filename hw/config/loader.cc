// Strict YAML -> HwConfig. Walks the YAML tree against the schema, so every key is checked
// where it is written, and remembers where each value came from for cross-field messages.
#include "hw/config/loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "base/file_io.h"
#include "hw/config/buffer_table.h"
#include "hw/config/l2_rules.h"
#include "hw/config/schema.h"
#include "hw/config/yaml_document.h"
#include "hw/pluggable/replacement_policy.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Every proper prefix ("section") of a schema key: "l2", "mte.gm_ub", ...
const std::set<std::string>& sections() {
  static const std::set<std::string> s = [] {
    std::set<std::string> out;
    for (const KeySpec& k : config_schema())
      for (size_t dot = k.path.find('.'); dot != std::string::npos; dot = k.path.find('.', dot + 1))
        out.insert(k.path.substr(0, dot));
    return out;
  }();
  return s;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string range_text(const KeySpec& k) {
  if (k.type == KeyType::Size)
    return "[" + format_size(static_cast<int64_t>(k.min)) + ", " +
           format_size(static_cast<int64_t>(k.max)) + "]";
  return "[" + format_float(k.min) + ", " + format_float(k.max) + "]";
}

std::string type_expectation(KeyType t) {
  switch (t) {
    case KeyType::Int: return "an integer";
    case KeyType::Float: return "a number";
    case KeyType::Bool: return "true or false";
    case KeyType::String: return "a string";
    case KeyType::Size: return "a size";
    case KeyType::Enum: return "a name";
    case KeyType::PerDtype: return "a number or a map {default: x, <dtype>: y}";
  }
  return "a value";
}

std::string node_kind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Null: return "nothing";
    default: return n.Tag() == "!" ? "the quoted string \"" + n.Scalar() + "\"" : "'" + n.Scalar() + "'";
  }
}

bool parse_int(const std::string& s, int64_t& out) {
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size() || s.size() - i > 18) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (s[j] < '0' || s[j] > '9') return false;
  out = std::stoll(s);
  return true;
}

bool parse_float(const std::string& s, double& out) {
  // Decimal only: no nan/inf/hex, which strtod would accept.
  bool digit = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') return false;
  }
  if (!digit) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(out);
}

// Parses and range-checks one value. Returns "" or an error message (without location / key).
// `key` receives the key path to blame (it grows a dtype suffix inside per-dtype maps).
// `at` receives the node to blame (an entry inside a per-dtype map).
std::string parse_value(const KeySpec& k, const YAML::Node& n, KeyValue& v, std::string& key,
                        YAML::Mark& at) {
  at = n.Mark();
  if (k.type == KeyType::PerDtype) {
    if (n.IsMap()) {
      for (const auto& kv : n) {
        std::string dt = kv.first.Scalar();
        key = k.path + "." + dt;
        at = kv.first.Mark();
        if (dt != "default" && std::find(dtype_key_names().begin(), dtype_key_names().end(), dt) ==
                                   dtype_key_names().end())
          return "unknown dtype '" + dt + "' (expected default or one of " + join(dtype_key_names()) + ")";
        if (v.table.count(dt)) return "duplicate key";
        KeyValue one;
        KeySpec entry = k;
        entry.type = KeyType::Float;
        std::string sub;
        std::string err = parse_value(entry, kv.second, one, sub, at);
        if (!err.empty()) return err;
        v.table[dt] = one.f;
      }
      key = k.path;
      at = n.Mark();
      if (!v.table.count("default")) return "a per-dtype map needs a 'default' entry";
      return "";
    }
    if (!n.IsScalar()) return "expected " + type_expectation(k.type) + ", got " + node_kind(n);
    KeySpec entry = k;
    entry.type = KeyType::Float;
    KeyValue one;
    std::string err = parse_value(entry, n, one, key, at);
    key = k.path;
    if (!err.empty()) return err;
    v.table["default"] = one.f;
    return "";
  }
  key = k.path;
  if (!n.IsScalar()) return "expected " + type_expectation(k.type) + ", got " + node_kind(n);
  const std::string& s = n.Scalar();
  const bool quoted = n.Tag() == "!";
  const std::string wrong = "expected " + type_expectation(k.type) + ", got " + node_kind(n);
  switch (k.type) {
    case KeyType::Int:
      if (quoted || !parse_int(s, v.i)) return wrong;
      break;
    case KeyType::Size: {
      std::string err = parse_size(s, v.i);
      if (!err.empty()) return err;
      break;
    }
    case KeyType::Float:
      if (quoted || !parse_float(s, v.f)) return wrong;
      break;
    case KeyType::Bool:
      if (quoted || (s != "true" && s != "false")) return wrong;
      v.b = s == "true";
      return "";
    case KeyType::String:
      if (s.empty()) return "expected a non-empty string";
      v.s = s;
      return "";
    case KeyType::Enum:
      if (std::find(k.choices.begin(), k.choices.end(), s) == k.choices.end())
        return "'" + s + "' is not one of: " + join(k.choices);
      v.s = s;
      return "";
    case KeyType::PerDtype: break;
  }
  const double x = k.type == KeyType::Float ? v.f : static_cast<double>(v.i);
  if (x < k.min || x > k.max) {
    std::string shown = k.type == KeyType::Size ? format_size(v.i) : s;
    return "value " + shown + " is out of range " + range_text(k);
  }
  return "";
}

class Loader {
 public:
  explicit Loader(std::string name) : name_(std::move(name)) {}

  HwConfig run(const std::string& text, const std::vector<std::string>& overrides) {
    YAML::Node root;
    try {
      root = load_one_yaml_document(text);
    } catch (const YAML::ParserException& e) {
      throw Error(where(e.mark) + ": error: YAML syntax: " + e.msg);
    }
    if (!root.IsMap())
      throw Error(name_ + ":1:1: error: expected a mapping of sections (chip, buffers, ...), got " +
                  node_kind(root));
    section_marks_[""] = root.Mark();
    walk_base(root, 0);
    walk(root, "");
    fill_missing();
    for (const std::string& o : overrides) apply_override(o);
    derive_and_check();
    cfg_.source_path = name_;
    return cfg_;
  }

 private:
  std::string where(const YAML::Mark& m) const {
    if (m.line < 0) return name_ + ":1:1";
    return name_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  [[noreturn]] void fail(const std::string& loc, const std::string& key, const std::string& msg) const {
    throw Error(loc + ": error: " + (key.empty() ? "" : key + ": ") + msg);
  }
  static std::string unknown_msg(const std::string& full) {
    std::string near = closest_key(full);
    return "unknown key" + (near.empty() ? "" : " (did you mean " + near + "?)");
  }

  // `base: FILE` (top level, a path relative to this file's directory): a variant of another
  // config. The base file is read first (it may have a base itself); this file's keys then
  // replace the base's, each at most once.
  void walk_base(const YAML::Node& root, int depth) {
    const YAML::Node b = root["base"];
    if (!b) return;
    if (!b.IsScalar() || b.Scalar().empty()) fail(where(b.Mark()), "base", "expected a config file name");
    if (depth >= 8) fail(where(b.Mark()), "base", "more than 8 levels of base configs (a cycle?)");
    const std::string dir = name_.find('/') == std::string::npos ? "" : name_.substr(0, name_.rfind('/') + 1);
    const std::string path = b.Scalar()[0] == '/' ? b.Scalar() : dir + b.Scalar();
    std::string text;
    try {
      text = read_input_file(path, kMaxYamlFileBytes);
    } catch (const InputFileError& e) {
      fail(where(b.Mark()), "base", "cannot read " + path + ": " + e.reason);
    }
    const std::string child = name_;
    name_ = path;
    YAML::Node base_root;
    try {
      base_root = load_one_yaml_document(text);
    } catch (const YAML::ParserException& e) {
      throw Error(where(e.mark) + ": error: YAML syntax: " + e.msg);
    }
    if (!base_root.IsMap()) fail(name_ + ":1:1", "", "expected a mapping of sections, got " + node_kind(base_root));
    walk_base(base_root, depth + 1);
    walk(base_root, "");
    for (const auto& [key, at] : origin_) from_base_.insert(key);
    name_ = child;
  }

  // A key this file sets a second time; one its base set may be set again, once.
  bool set_before(const std::string& key) {
    return origin_.count(key) && from_base_.erase(key) == 0;
  }

  void walk(const YAML::Node& map, const std::string& prefix) {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const YAML::Node& kn = kv.first;
      const YAML::Node& vn = kv.second;
      if (!kn.IsScalar()) fail(where(kn.Mark()), prefix, "keys must be plain names");
      if (prefix.empty() && kn.Scalar() == "base") continue;  // walk_base
      const std::string full = prefix.empty() ? kn.Scalar() : prefix + "." + kn.Scalar();
      if (!seen.insert(kn.Scalar()).second) fail(where(kn.Mark()), full, "duplicate key");
      if (const KeySpec* k = find_key(full); k && vn.IsMap() && sections().count(full + "_params")) {
        walk_inline_choice(*k, vn, in_file());
      } else if (k) {
        if (vn.IsNull()) fail(where(kn.Mark()), full, "missing value (expected " + type_expectation(k->type) + ")");
        // Only an inline choice (below) can have set it already.
        if (set_before(full)) fail(where(kn.Mark()), full, "set twice (also at " + origin_.at(full) + ")");
        set_key(*k, vn);
      } else if (sections().count(full)) {
        if (!vn.IsMap())
          fail(where(vn.Mark().line >= 0 ? vn.Mark() : kn.Mark()), full,
               "expected a mapping of keys, got " + node_kind(vn));
        section_marks_[full] = vn.Mark();
        walk(vn, full);
      } else {
        fail(where(kn.Mark()), full, unknown_msg(full));
      }
    }
  }

  // Where a YAML node of the config file or of a --set value is: "FILE:L:C", or
  // "--set TEXT (column C)" (the column of the value's node within TEXT).
  using Locate = std::function<std::string(const YAML::Mark&)>;
  Locate in_file() const {
    return [this](const YAML::Mark& m) { return where(m); };
  }

  // `replacement: {impl: srrip, rrpv_bits: 3}`: the choice and its parameters in one mapping,
  // the same as `replacement: srrip` plus `replacement_params: {srrip: {rrpv_bits: 3}}`. In a
  // file a key may be given once (inline or apart); a --set may replace what the file set.
  void walk_inline_choice(const KeySpec& k, const YAML::Node& map, const Locate& locate, bool is_override = false) {
    const YAML::Node impl = map["impl"];
    if (!impl) fail(locate(map.Mark()), k.path, "a mapping here needs `impl: <name>` (one of: " + join(k.choices) + ")");
    set_key(k, impl, locate, is_override);
    std::set<std::string> seen;
    for (const auto& kv : map) {
      if (!kv.first.IsScalar()) fail(locate(kv.first.Mark()), k.path, "keys must be plain names");
      const std::string name = kv.first.Scalar();
      if (!seen.insert(name).second) fail(locate(kv.first.Mark()), k.path + "." + name, "duplicate key");
      if (name == "impl") continue;
      const std::string param = k.path + "_params." + impl.Scalar() + "." + name;
      const KeySpec* p = find_key(param);
      if (!p) {
        std::vector<std::string> names;
        for (const KeySpec& q : config_schema())
          if (q.path.rfind(k.path + "_params." + impl.Scalar() + ".", 0) == 0) names.push_back(q.path.substr(q.path.rfind('.') + 1));
        fail(locate(kv.first.Mark()), k.path + "." + name,
             "unknown parameter of " + impl.Scalar() + " (its parameters: " + (names.empty() ? "none" : join(names)) + ")");
      }
      if (!is_override && set_before(param))
        fail(locate(kv.first.Mark()), param, "set twice (also at " + origin_.at(param) + ")");
      set_key(*p, kv.second, locate, is_override);
    }
  }

  // Parses, checks and sets one key from its YAML value; remembers where it came from.
  void set_key(const KeySpec& k, const YAML::Node& vn) { set_key(k, vn, in_file()); }
  void set_key(const KeySpec& k, const YAML::Node& vn, const Locate& locate, bool is_override = false) {
    KeyValue v;
    std::string blame;
    YAML::Mark at;
    std::string err = parse_value(k, vn, v, blame, at);
    if (!err.empty()) fail(locate(at.line >= 0 ? at : vn.Mark()), blame, err);
    k.set(cfg_, v);
    origin_[k.path] = locate(vn.Mark());
    if (is_override) override_index_[k.path] = ++overrides_applied_;
  }

  // Optional keys take their schema default; a missing required key is an error that points at
  // the innermost section that is present.
  void fill_missing() {
    std::vector<std::string> missing;
    for (const KeySpec& k : config_schema()) {
      if (origin_.count(k.path)) continue;
      if (k.optional()) {
        KeyValue v;
        std::string blame;
        YAML::Mark at;
        std::string err = parse_value(k, YAML::Load(k.default_text), v, blame, at);
        if (!err.empty()) throw Error("schema default of " + k.path + ": " + err);  // a bug in schema.cc
        k.set(cfg_, v);
        origin_[k.path] = name_ + " (default)";
      } else {
        missing.push_back(k.path);
      }
    }
    if (missing.empty()) return;
    std::string section = missing[0];
    YAML::Mark mark;
    do {
      size_t dot = section.rfind('.');
      section = dot == std::string::npos ? "" : section.substr(0, dot);
    } while (!section_marks_.count(section));
    mark = section_marks_[section];
    std::string msg = "missing required key";
    if (missing.size() > 1) {
      std::vector<std::string> rest(missing.begin() + 1, missing.begin() + std::min<size_t>(missing.size(), 6));
      msg += " (also missing: " + join(rest) + (missing.size() > 6 ? ", ..." : "") + ")";
    }
    fail(where(mark), missing[0], msg);
  }

  void apply_override(const std::string& text) {
    const std::string loc = "--set " + text;
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) fail(loc, "", "expected key.path=value");
    const std::string path = text.substr(0, eq);
    YAML::Node vn;
    try {
      vn = YAML::Load(text.substr(eq + 1));
    } catch (const YAML::ParserException& e) {
      fail(loc, path, "YAML syntax: " + e.msg);
    }
    const KeySpec* k = find_key(path);
    std::string entry;  // dtype of a per-dtype table entry ("vector.cycles_per_repeat.VecDiv.f16")
    if (!k) {
      const size_t dot = path.rfind('.');
      if (dot != std::string::npos) {
        const KeySpec* base = find_key(path.substr(0, dot));
        if (base && base->type == KeyType::PerDtype) k = base, entry = path.substr(dot + 1);
      }
    }
    if (!k) {
      if (sections().count(path)) fail(loc, path, "is a section; set its keys one by one");
      fail(loc, path, unknown_msg(path));
    }
    if (vn.IsNull()) fail(loc, path, "missing value (expected " + type_expectation(k->type) + ")");
    if (vn.IsMap() && entry.empty() && sections().count(k->path + "_params")) {
      // --set 'l2.replacement={impl: srrip, rrpv_bits: 3}': as in a file.
      const size_t value_col = eq + 1;  // 0-based column of the value within the --set text
      walk_inline_choice(*k, vn, [loc, value_col](const YAML::Mark& m) {
        return m.column < 0 ? loc : loc + " (column " + std::to_string(value_col + m.column + 1) + ")";
      }, true);
      return;
    }
    KeyValue v;
    std::string blame;
    std::string err;
    YAML::Mark at;  // unused: an override's location is the --set text
    if (entry.empty()) {
      err = parse_value(*k, vn, v, blame, at);
    } else {
      YAML::Node one;
      one[entry] = vn;
      KeyValue cur = k->get(cfg_);
      err = parse_value(*k, one, v, blame, at);  // checks the dtype name and the number
      if (err == "a per-dtype map needs a 'default' entry") err.clear();
      cur.table[entry] = v.table[entry];
      v = cur;
    }
    if (!err.empty()) fail(loc, blame, err);
    k->set(cfg_, v);
    origin_[k->path] = loc;
    override_index_[k->path] = ++overrides_applied_;
  }

  // A failed cross-field rule blames the last --set among `keys` (the likely culprit), else the
  // first key, at the place its value came from.
  void check(bool ok, const std::vector<std::string>& keys, const std::string& msg) const {
    if (ok) return;
    std::string blame = keys.front();
    int latest = -1;
    for (const std::string& k : keys) {
      auto it = override_index_.find(k);
      if (it != override_index_.end() && it->second > latest) latest = it->second, blame = k;
    }
    fail(origin_.at(blame), blame, msg);
  }

  void derive_and_check() {
    for (const BufferRow& row : kBufferRows) {
      const uint64_t size = cfg_.buffers.*row.size;
      const uint32_t align = cfg_.buffers.*row.align;
      const std::string p = std::string("buffers.") + row.key;
      check(is_pow2(align), {p + ".align"}, "must be a power of two, got " + std::to_string(align));
      check(size % align == 0, {p + ".size", p + ".align"},
            p + ".size " + format_size(size) + " is not a multiple of " + p + ".align " + std::to_string(align));
    }
    const L2Config& l2 = cfg_.l2;
    check(is_pow2(l2.line), {"l2.line"}, "must be a power of two, got " + std::to_string(l2.line));
    const std::string l2_problem = l2_geometry_problem(l2);
    check(l2_problem.empty(), {"l2.size", "l2.ways", "l2.line", "l2.slices"}, l2_problem);
    const HbmConfig& h = cfg_.hbm;
    check(is_pow2(h.interleave) && h.interleave % l2.line == 0, {"hbm.interleave", "l2.line"},
          "hbm.interleave " + std::to_string(h.interleave) +
              " must be a power of two and a multiple of l2.line " + std::to_string(l2.line));
    check(is_pow2(cfg_.vector.repeat_bytes), {"vector.repeat_bytes"},
          "must be a power of two, got " + std::to_string(cfg_.vector.repeat_bytes));
    check_replacement_params();
  }

  // Rules between a policy's parameters live in its factory: build the chosen policy once and,
  // if the factory refuses, blame the last parameter written out (later parameters are the ones
  // bounded by earlier ones, as srrip's insert_rrpv by rrpv_bits), or the last --set of one.
  void check_replacement_params() const {
    const L2Config& l2 = cfg_.l2;
    std::vector<std::string> keys;
    for (const ParamSpec& p : replacement_policies().find(l2.replacement)->params) {
      const std::string key = "l2.replacement_params." + l2.replacement + "." + p.name;
      if (origin_.at(key) != name_ + " (default)") keys.insert(keys.begin(), key);
    }
    if (keys.empty()) return;  // the defaults are valid (the registry test builds every policy)
    try {
      make_replacement_policy(l2.replacement, PolicyShape{}, params_for(l2.replacement_params, l2.replacement));
    } catch (const Error& e) {
      // A factory that names the parameter ("srrip: insert_rrpv 5 exceeds ...") is blamed there.
      const std::string msg = e.what(), prefix = "l2.replacement_params." + l2.replacement + ".";
      for (const std::string& key : keys)
        if (msg.rfind(l2.replacement + ": " + key.substr(prefix.size()) + " ", 0) == 0) check(false, {key}, msg);
      check(false, keys, msg);
    }
  }

  std::string name_;
  HwConfig cfg_;
  std::map<std::string, std::string> origin_;  // key -> "FILE:L:C" or "--set ..."
  std::map<std::string, YAML::Mark> section_marks_;
  std::set<std::string> from_base_;  // keys set by a base file and not (yet) by the variant
  std::map<std::string, int> override_index_;  // key -> order of its last --set
  int overrides_applied_ = 0;
};

}  // namespace

HwConfig load_config_string(const std::string& yaml_text, const std::vector<std::string>& overrides,
                            const std::string& name) {
  return Loader(name).run(yaml_text, overrides);
}

HwConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::string text;
  try {
    text = read_input_file(path, kMaxYamlFileBytes);
  } catch (const InputFileError& e) {
    throw Error(path + ": error: cannot read the configuration file: " + e.reason);
  }
  return load_config_string(text, overrides, path);
}

}  // namespace npu::hw
