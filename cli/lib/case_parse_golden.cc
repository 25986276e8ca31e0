// The golden and tolerances sections of a case file (case_parser.h).
#include "base/file_io.h"
#include "cli/lib/case_parser.h"

namespace npu::cli::detail {

void CaseParser::parse_golden(const Entry& e) {
  GoldenBinding& g = spec_.golden;
  g.loc = at(e.k.Mark());
  if (!want_map(e, "golden", "a mapping {name, inputs, outputs, <attributes>}")) return;
  auto keys = entries(e.v, "golden", {});
  const Entry *name = nullptr, *inputs = nullptr, *outputs = nullptr;
  for (const Entry& k : keys) {
    if (k.key == "name") name = &k;
    else if (k.key == "inputs") inputs = &k;
    else if (k.key == "outputs") outputs = &k;
  }
  if (!name) {
    error(g.loc, "golden", "missing key 'name'");
    return;
  }
  auto n = string_value(*name, "golden.name");
  if (!n) return;
  const golden::GoldenInfo* info = nullptr;
  for (const golden::GoldenInfo& gi : golden::golden_list())
    if (gi.name == *n) info = &gi;
  if (!info) {
    std::vector<std::string> names;
    for (const golden::GoldenInfo& gi : golden::golden_list()) names.push_back(gi.name);
    error(at(name->v, name->k), "golden.name", "unknown golden '" + *n + "' (goldens: " + join(names) + ")");
    return;
  }
  g.present = true;
  g.name = *n;
  // Attributes: every other key.
  std::vector<std::string> attr_names;
  for (const golden::AttrSpec& a : info->attrs) attr_names.push_back(a.name);
  std::map<std::string, bool> enabled;  // bool attributes, given or default
  for (const golden::AttrSpec& a : info->attrs)
    if (a.type == "bool") enabled[a.name] = a.default_value == "true";
  for (const Entry& k : keys) {
    if (&k == name || &k == inputs || &k == outputs) continue;
    const std::string path = "golden." + k.key;
    const golden::AttrSpec* spec = nullptr;
    for (const golden::AttrSpec& a : info->attrs)
      if (a.name == k.key) spec = &a;
    if (!spec) {
      error(at(k.k.Mark()), path, "unknown key (golden '" + g.name + "' takes name, inputs, outputs" +
                                      (attr_names.empty() ? "" : " and the attributes " + join(attr_names)) + ")");
      continue;
    }
    if (!k.v.IsScalar()) {
      error(at(k.v, k.k), path, "expected a " + spec->type + ", got " + kind_of(k.v));
      continue;
    }
    const std::string& s = k.v.Scalar();
    double d;
    if (spec->type == "float" && !parse_number(s, &d)) {
      error(at(k.v, k.k), path, "expected a number, got " + kind_of(k.v));
      continue;
    }
    if (spec->type == "bool") {
      if (s != "true" && s != "false") {
        error(at(k.v, k.k), path, "expected true or false, got " + kind_of(k.v));
        continue;
      }
      enabled[k.key] = s == "true";
    }
    if (spec->type == "enum" && std::find(spec->choices.begin(), spec->choices.end(), s) == spec->choices.end()) {
      error(at(k.v, k.k), path, "bad value " + kind_of(k.v) + " (expected one of: " + join(spec->choices) + ")");
      continue;
    }
    g.attrs[k.key] = s;
  }
  if (!inputs) error(g.loc, "golden", "missing key 'inputs' (golden input name -> tensor)");
  else parse_golden_tensors(*inputs, *info, false, enabled);
  if (!outputs) error(g.loc, "golden", "missing key 'outputs' (golden output name -> output tensor)");
  else parse_golden_tensors(*outputs, *info, true, enabled);
}

void CaseParser::parse_golden_tensors(const Entry& e, const golden::GoldenInfo& info, bool outputs,
                                      const std::map<std::string, bool>& enabled) {
  const std::string path = outputs ? "golden.outputs" : "golden.inputs";
  const auto& specs = outputs ? info.outputs : info.inputs;
  auto& map = outputs ? spec_.golden.outputs : spec_.golden.inputs;
  auto& locs = outputs ? spec_.golden.output_locs : spec_.golden.input_locs;
  auto on = [&](const golden::TensorSpec& t) { return t.when.empty() || enabled.at(t.when); };
  std::vector<std::string> names;
  for (const golden::TensorSpec& t : specs)
    names.push_back(t.name + (t.when.empty() ? "" : " [if " + t.when + "]"));
  if (!want_map(e, path, outputs ? "a mapping {golden output: output tensor}" : "a mapping {golden input: tensor}"))
    return;
  std::map<std::string, std::string> used;  // tensor -> golden output (outputs only)
  for (const Entry& k : entries(e.v, path, {})) {
    const std::string kp = path + "." + k.key;
    const golden::TensorSpec* ts = nullptr;
    for (const golden::TensorSpec& t : specs)
      if (t.name == k.key) ts = &t;
    if (!ts) {
      error(at(k.k.Mark()), kp, std::string("golden '") + info.name + "' has no " +
                                    (outputs ? "output" : "input") + " '" + k.key + "' (" +
                                    (outputs ? "outputs: " : "inputs: ") + join(names) + ")");
      continue;
    }
    if (!on(*ts)) {
      error(at(k.k.Mark()), kp, "given but " + ts->when + " is false");
      continue;
    }
    auto tn = string_value(k, kp);
    if (!tn) continue;
    const CaseTensor* t = spec_.tensor(*tn);
    if (!t) {
      std::vector<std::string> all;
      for (const CaseTensor& c : spec_.tensors) all.push_back(c.name);
      error(at(k.v, k.k), kp, "no tensor named '" + *tn + "' (tensors: " + join(all) + ")");
      continue;
    }
    if (outputs) {
      if (t->role != TensorRole::Output) {
        error(at(k.v, k.k), kp, "tensor '" + *tn + "' is an " + role_name(t->role) + ", not an output (give it role: output)");
        continue;
      }
      if (used.count(*tn)) {
        error(at(k.v, k.k), kp, "tensor '" + *tn + "' is already compared with golden output '" + used[*tn] + "'");
        continue;
      }
      if (!t->golden_file.empty()) {
        error(at(k.v, k.k), kp, "tensor '" + *tn + "' already has a golden file (tensors." + *tn + ".golden)");
        continue;
      }
      used[*tn] = k.key;
    }
    map[k.key] = *tn;
    locs[k.key] = at(k.k.Mark());
  }
  if (!outputs) {
    for (const golden::TensorSpec& t : specs)
      if (on(t) && !map.count(t.name))
        error(at(e.k.Mark()), path, "missing golden input '" + t.name + "'" + (t.when.empty() ? "" : " (" + t.when + " is true)"));
  } else if (map.empty() && errors_.empty()) {
    error(at(e.v, e.k), path, "no outputs to compare (outputs: " + join(names) + ")");
  }
}

void CaseParser::parse_tolerances(const Entry& e) {
  if (!want_map(e, "tolerances", "a mapping {output tensor: {atol, rtol, max_error_ratio}}")) return;
  for (const Entry& k : entries(e.v, "tolerances", {})) {
    const std::string path = "tolerances." + k.key;
    const CaseTensor* t = spec_.tensor(k.key);
    if (!t || t->role != TensorRole::Output) {
      std::vector<std::string> outs;
      for (const CaseTensor& c : spec_.tensors)
        if (c.role == TensorRole::Output) outs.push_back(c.name);
      error(at(k.k.Mark()), path, "no output tensor named '" + k.key + "' (outputs: " +
                                      (outs.empty() ? "none" : join(outs)) + ")");
      continue;
    }
    if (!want_map(k, path, "a mapping {atol, rtol, max_error_ratio}")) continue;
    if (spec_.tolerances.count(k.key)) {
      error(at(k.k.Mark()), path, "already given in tensors." + k.key + ".golden");
      continue;
    }
    spec_.tolerances[k.key] = parse_tolerance_fields(k.v, path, t->dtype);
  }
}

golden::Tolerance CaseParser::parse_tolerance_fields(const YAML::Node& map, const std::string& path, isa::Dtype dtype,
                                                     const std::vector<std::string>& others) {
  golden::Tolerance tol = golden::default_tolerance(dtype);
  std::vector<std::string> allowed = others;
  for (const char* f : {"atol", "rtol", "max_error_ratio"}) allowed.push_back(f);
  for (const Entry& f : entries(map, path, allowed)) {
    if (std::find(others.begin(), others.end(), f.key) != others.end()) continue;
    auto v = number_node(f.v, f.k, path + "." + f.key);
    if (!v) continue;
    if (*v < 0 || (f.key == "max_error_ratio" && *v > 1)) {
      error(at(f.v, f.k), path + "." + f.key,
            std::string("value out of range ") + (f.key == "max_error_ratio" ? "[0, 1]" : "[0, inf)"));
      continue;
    }
    (f.key == "atol" ? tol.atol : f.key == "rtol" ? tol.rtol : tol.max_error_ratio) = *v;
  }
  return tol;
}

void CaseParser::parse_file_golden(const Entry& e, const std::string& path, CaseTensor& t) {
  t.golden_loc = at(e.k.Mark());
  if (t.role != TensorRole::Output) {
    error(t.golden_loc, path, std::string("only an output has a golden (this tensor is an ") + role_name(t.role) +
                                  "; give it role: output)");
    return;
  }
  if (!want_map(e, path, "a mapping {file: F.npy, atol, rtol, max_error_ratio}")) return;
  const std::vector<Entry> keys = entries(e.v, path, {"file", "atol", "rtol", "max_error_ratio"});  // outlives `file`
  const Entry* file = nullptr;
  for (const Entry& k : keys)
    if (k.key == "file") file = &k;
  if (!file) {
    error(t.golden_loc, path, "missing key 'file' (the reference values, F.npy)");
    return;
  }
  auto s = string_value(*file, path + ".file");
  if (!s) return;
  t.golden_loc = at(file->v, file->k);
  t.golden_file = resolve(dir_, *s);
  try {
    check_input_file(t.golden_file, kMaxBinaryInputBytes);
  } catch (const InputFileError& err) {
    error(t.golden_loc, path + ".file", "cannot read '" + t.golden_file + "': " + err.reason);
  }
  if (e.v.size() > 1) spec_.tolerances[t.name] = parse_tolerance_fields(e.v, path, t.dtype, {"file"});
}

}  // namespace npu::cli::detail
