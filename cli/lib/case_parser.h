#pragma once
// Internal to the case parser (case_parse.cc, case_parse_golden.cc) and the sweep-spec parser
// (sweep_spec.cc): the parser classes and their helpers. Users include cli/lib/case_spec.h.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>

#include "cli/lib/case_spec.h"
#include "hw/config/yaml_document.h"
#include "isa/error.h"
#include "isa/types.h"

namespace npu::cli::detail {

inline std::string dir_of(const std::string& path) {
  size_t s = path.find_last_of('/');
  return s == std::string::npos ? "" : path.substr(0, s == 0 ? 1 : s);
}

inline std::string resolve(const std::string& dir, const std::string& p) {
  if (p.empty() || p[0] == '/' || dir.empty()) return p;
  return dir + "/" + p;
}

inline bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

inline std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

inline std::string kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return "nothing";
    default: return "'" + n.Scalar() + "'";
  }
}

// Decimal numbers only (strtod would also take nan, inf and hex floats).
inline bool parse_number(const std::string& s, double* out) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-'))
      return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

inline std::vector<std::string> dtype_names() {
  std::vector<std::string> v;
  for (int i = 0; i < isa::enum_count(isa::EnumType::Dtype); ++i)
    v.emplace_back(isa::keyword(isa::EnumType::Dtype, i));
  return v;
}

struct Entry {
  std::string key;
  YAML::Node k, v;
};

// The strict YAML reading shared by the case parser and the sweep-spec parser (sweep_spec.cc):
// positions as FILE:LINE:COL, errors collected (one per line, the parser keeps going), mappings
// read in file order with duplicate and unknown keys refused.
class StrictYamlReader {
 public:
  explicit StrictYamlReader(std::string name) : name_(std::move(name)) {}

 protected:
  std::string name_;
  std::vector<std::string> errors_;

  // The root of a one-document YAML text; a syntax error (or a second document) is thrown as
  // "FILE:LINE:COL: error: YAML syntax: ...".
  YAML::Node load_root(const std::string& text) const {
    try {
      return hw::load_one_yaml_document(text);
    } catch (const YAML::ParserException& e) {
      throw Error(at(e.mark).str() + ": error: YAML syntax: " + e.msg);
    }
  }
  static std::string join_lines(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "\n" : "") + v[i];
    return s;
  }
  SourceLoc at(const YAML::Mark& m) const {
    if (m.line < 0) return SourceLoc{name_, 1, 1};
    return SourceLoc{name_, m.line + 1, m.column + 1};
  }
  // A value's position, or its key's when the value is empty (yaml-cpp gives null no mark).
  SourceLoc at(const YAML::Node& v, const YAML::Node& k) const {
    return at(v && v.Mark().line >= 0 ? v.Mark() : k.Mark());
  }
  void error(const SourceLoc& l, const std::string& path, const std::string& msg) {
    errors_.push_back(l.str() + ": error: " + (path.empty() ? "" : path + ": ") + msg);
  }
  static std::string sub(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  // Entries of a mapping in file order; non-scalar, duplicate and (when `allowed` is not empty)
  // unknown keys are errors and dropped.
  std::vector<Entry> entries(const YAML::Node& map, const std::string& path,
                             const std::vector<std::string>& allowed) {
    std::vector<Entry> out;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      // Copies: yaml-cpp's it-> is a temporary proxy, a reference into it would dangle.
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      if (!k.IsScalar()) {
        error(at(k.Mark()), path, "keys must be plain names");
        continue;
      }
      std::string key = k.Scalar();
      if (!seen.insert(key).second) {
        error(at(k.Mark()), sub(path, key), "duplicate key");
        continue;
      }
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(at(k.Mark()), sub(path, key), "unknown key (expected one of: " + join(allowed) + ")");
        continue;
      }
      out.push_back(Entry{key, k, v});
    }
    return out;
  }

  bool want_map(const Entry& e, const std::string& path, const char* what) {
    if (e.v.IsMap()) return true;
    error(at(e.v, e.k), path, std::string("expected ") + what + ", got " + kind_of(e.v));
    return false;
  }
  std::optional<std::string> string_value(const Entry& e, const std::string& path) {
    if (e.v.IsScalar() && !e.v.Scalar().empty()) return e.v.Scalar();
    error(at(e.v, e.k), path, "expected a string, got " + kind_of(e.v));
    return std::nullopt;
  }
};

class CaseParser : public StrictYamlReader {
 public:
  CaseParser(std::string name, std::string dir, std::vector<std::string> var_overrides)
      : StrictYamlReader(std::move(name)), dir_(std::move(dir)), var_overrides_(std::move(var_overrides)) {}

  CaseSpec run(const std::string& text);

 private:
  std::string dir_;
  std::vector<std::string> var_overrides_;
  CaseSpec spec_;

  std::optional<int64_t> int_node(const YAML::Node& v, const YAML::Node& k, const std::string& path,
                                  int64_t min) {
    if (!v.IsScalar()) {
      error(at(v, k), path, "expected an integer, got " + kind_of(v));
      return std::nullopt;
    }
    std::string msg;
    auto r = eval_case_expr(v.Scalar(), spec_.vars, &msg);
    if (!r) {
      error(at(v, k), path, "bad integer '" + abbreviate_expr(v.Scalar()) + "': " + msg);
      return std::nullopt;
    }
    if (*r < min) {
      error(at(v, k), path, "value " + std::to_string(*r) + " is below the minimum " + std::to_string(min));
      return std::nullopt;
    }
    return r;
  }
  std::optional<int64_t> int_value(const Entry& e, const std::string& path, int64_t min) {
    return int_node(e.v, e.k, path, min);
  }
  std::optional<double> number_node(const YAML::Node& v, const YAML::Node& k, const std::string& path) {
    double d;
    if (v.IsScalar() && parse_number(v.Scalar(), &d)) return d;
    error(at(v, k), path, "expected a number, got " + kind_of(v));
    return std::nullopt;
  }

  // Sections, in the order run() visits them. vars are evaluated in file order (a var may use
  // earlier ones), after the --var replacements.
  void parse_vars(const Entry& e);
  void apply_var_overrides(std::vector<std::pair<Entry, std::string>> texts);
  // `kernel` / `block_dim` (top level or in a launch): the resolved, readable file; >= 1.
  void parse_kernel(const Entry& e, const std::string& path, std::string& kernel, SourceLoc& loc);
  void parse_block_dim(const Entry& e, const std::string& path, int& block_dim, SourceLoc& loc);
  void parse_flops(const Entry& e);
  void parse_gm_layout(const Entry& e);
  void parse_tensors(const Entry& e);
  void parse_tensor(const Entry& e);
  bool parse_shape(const Entry& k, const std::string& kp, std::vector<int64_t>* shape);
  void parse_init(const Entry& e, const std::string& path, InitSpec* init);
  void parse_plants(const Entry& e, const std::string& path, InitSpec* init);
  void check_plants(const CaseTensor& t, const std::string& path);
  void check_quantized(const CaseSpec& spec);
  void parse_params(const Entry& e);
  std::vector<CaseParam> param_map(const Entry& e, const std::string& path);  // a `params` mapping
  void parse_launches(const Entry& e, const Entry* between);
  void parse_checks(const Entry& e);
  void parse_golden(const Entry& e);
  void parse_golden_tensors(const Entry& e, const golden::GoldenInfo& info, bool outputs,
                            const std::map<std::string, bool>& enabled);
  void parse_tolerances(const Entry& e);
  // The fields of one tolerance mapping (any of atol, rtol, max_error_ratio besides `others`),
  // starting from the dtype's default; the others are left to the caller.
  golden::Tolerance parse_tolerance_fields(const YAML::Node& map, const std::string& path, isa::Dtype dtype,
                                           const std::vector<std::string>& others = {});
  // A tensor's `golden: {file: F.npy, atol, rtol, max_error_ratio}` (an output's reference values).
  void parse_file_golden(const Entry& e, const std::string& path, CaseTensor& t);
};

}  // namespace npu::cli::detail
