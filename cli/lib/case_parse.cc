// The strict case-file parser (case_spec.h, docs/case-format.md): top level, vars, kernel,
// tensors and params. The golden and tolerance sections are in case_parse_golden.cc.
#include "base/file_io.h"
#include "cli/lib/case_parser.h"
#include "hw/config/yaml_document.h"
#include "isa/asm/assembler.h"
#include "isa/object.h"

namespace npu::cli {
namespace detail {

CaseSpec CaseParser::run(const std::string& text) {
  spec_.path = name_;
  spec_.dir = dir_;
  YAML::Node root = load_root(text);
  SourceLoc top{name_, 1, 1};
  if (!root.IsMap())
    throw Error(top.str() + ": error: expected a mapping (kernel, block_dim, tensors, ...), got " +
                kind_of(root));
  spec_.params_loc = spec_.tensors_loc = top;
  auto top_keys = entries(root, "", {"description", "kernel", "block_dim", "vars", "params",
                                     "tensors", "golden", "tolerances", "flops", "launches",
                                     "l2_between_launches", "gm_layout", "checks"});
  auto find = [&](const char* k) -> const Entry* {
    for (const Entry& e : top_keys)
      if (e.key == k) return &e;
    return nullptr;
  };
  for (const char* req : {"kernel", "block_dim", "tensors"})
    if (!find(req)) error(top, "", std::string("missing key '") + req + "'");

  if (const Entry* e = find("vars")) parse_vars(*e);
  else apply_var_overrides({});
  if (const Entry* e = find("checks")) parse_checks(*e);
  if (const Entry* e = find("description")) {
    if (auto s = string_value(*e, "description")) spec_.description = *s;
  }
  if (const Entry* e = find("kernel")) parse_kernel(*e, "kernel", spec_.kernel_path, spec_.kernel_loc);
  if (const Entry* e = find("block_dim")) parse_block_dim(*e, "block_dim", spec_.block_dim, spec_.block_dim_loc);
  if (const Entry* e = find("flops")) parse_flops(*e);
  if (const Entry* e = find("gm_layout")) parse_gm_layout(*e);
  if (const Entry* e = find("tensors")) parse_tensors(*e);
  if (const Entry* e = find("params")) parse_params(*e);
  if (const Entry* e = find("launches")) parse_launches(*e, find("l2_between_launches"));
  else if (const Entry* b = find("l2_between_launches"))
    error(at(b->k.Mark()), "l2_between_launches", "only with a `launches` sequence");
  if (const Entry* e = find("golden")) parse_golden(*e);
  if (const Entry* e = find("tolerances")) parse_tolerances(*e);

  if (!errors_.empty()) throw Error(join_lines(errors_));
  return std::move(spec_);
}

void CaseParser::parse_vars(const Entry& e) {
  std::vector<std::pair<Entry, std::string>> texts;
  if (want_map(e, "vars", "a mapping of names to integers")) {
    for (const Entry& v : entries(e.v, "vars", {})) {
      if (!is_identifier(v.key) || v.key == "min" || v.key == "max" || v.key == "cdiv") {
        error(at(v.k.Mark()), "vars." + v.key, "bad name (letters, digits and _; not min, max or cdiv)");
        continue;
      }
      if (!v.v.IsScalar()) {
        error(at(v.v, v.k), "vars." + v.key, "expected an integer, got " + kind_of(v.v));
        continue;
      }
      texts.emplace_back(v, v.v.Scalar());
    }
  }
  apply_var_overrides(texts);
}

void CaseParser::apply_var_overrides(std::vector<std::pair<Entry, std::string>> texts) {
  std::vector<bool> overridden(texts.size(), false);
  for (const std::string& o : var_overrides_) {
    size_t eq = o.find('=');
    std::string name = o.substr(0, eq);
    bool found = false;
    for (size_t i = 0; i < texts.size() && eq != std::string::npos; ++i) {
      if (texts[i].first.key == name) {
        texts[i].second = o.substr(eq + 1);
        overridden[i] = found = true;
      }
    }
    if (eq == std::string::npos) {
      errors_.push_back("--var " + o + ": error: expected NAME=VALUE");
    } else if (!found) {
      std::vector<std::string> names;
      for (auto& t : texts) names.push_back(t.first.key);
      errors_.push_back("--var " + o + ": error: the case has no var '" + name + "' (vars: " +
                        (names.empty() ? "none" : join(names)) + ")");
    }
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string msg;
    auto r = eval_case_expr(texts[i].second, spec_.vars, &msg);
    const Entry& v = texts[i].first;
    if (!r) {
      if (overridden[i]) errors_.push_back("--var " + v.key + "=" + abbreviate_expr(texts[i].second) + ": error: " + msg);
      else error(at(v.v, v.k), "vars." + v.key, "bad integer '" + abbreviate_expr(texts[i].second) + "': " + msg);
      continue;
    }
    spec_.vars[v.key] = *r;
  }
}

void CaseParser::parse_kernel(const Entry& e, const std::string& path, std::string& kernel, SourceLoc& loc) {
  loc = at(e.v, e.k);
  auto s = string_value(e, path);
  if (!s) return;
  kernel = resolve(dir_, *s);
  try {
    check_input_file(kernel, std::max(isa::kMaxSourceFileBytes, isa::kMaxObjectFileBytes));
  } catch (const InputFileError& err) {
    error(loc, path, "cannot read '" + kernel + "': " + err.reason);
  }
}

void CaseParser::parse_block_dim(const Entry& e, const std::string& path, int& block_dim, SourceLoc& loc) {
  loc = at(e.v, e.k);
  if (auto v = int_value(e, path, 1)) {
    if (*v > 1000000) error(loc, path, "value " + std::to_string(*v) + " is too large");
    else block_dim = static_cast<int>(*v);
  }
}

void CaseParser::parse_flops(const Entry& e) {
  double d;
  if (e.v.IsScalar() && parse_number(e.v.Scalar(), &d)) {
    if (d <= 0) error(at(e.v, e.k), "flops", "must be positive");
    else spec_.flops = d;
    return;
  }
  if (auto v = int_value(e, "flops", 1)) spec_.flops = static_cast<double>(*v);
}

void CaseParser::parse_gm_layout(const Entry& e) {
  if (!want_map(e, "gm_layout", "a mapping {first, align, guard}")) return;
  GmLayout& l = spec_.gm_layout;
  for (const Entry& k : entries(e.v, "gm_layout", {"first", "align", "guard"})) {
    const std::string path = "gm_layout." + k.key;
    const std::optional<int64_t> v = int_value(k, path, k.key == "align" ? 1 : 0);
    if (!v) continue;
    if (*v > kMaxGmLayoutBytes) {
      error(at(k.v, k.k), path, "value " + std::to_string(*v) + " is too large (at most 2^40)");
    } else if (k.key == "align" && (*v & (*v - 1)) != 0) {
      error(at(k.v, k.k), path, "must be a power of two, got " + std::to_string(*v));
    } else {
      (k.key == "first" ? l.first : k.key == "align" ? l.align : l.guard) = static_cast<uint64_t>(*v);
    }
  }
}

void CaseParser::parse_tensors(const Entry& e) {
  spec_.tensors_loc = at(e.k.Mark());
  if (!want_map(e, "tensors", "a mapping of tensor names to {dtype, shape, ...}")) return;
  auto list = entries(e.v, "tensors", {});
  if (list.empty()) error(at(e.v, e.k), "tensors", "no tensors");
  for (const Entry& t : list) parse_tensor(t);
  check_quantized(spec_);
}

void CaseParser::parse_tensor(const Entry& e) {
  const std::string path = "tensors." + e.key;
  CaseTensor t;
  t.name = e.key;
  t.loc = t.dtype_loc = at(e.k.Mark());
  if (!is_identifier(e.key)) {
    error(t.loc, path, "bad tensor name (letters, digits and _, as the kernel's .param)");
    return;
  }
  if (!want_map(e, path, "a mapping {dtype, shape, role, init, cache, golden}")) return;
  auto keys = entries(e.v, path, {"dtype", "shape", "role", "init", "cache", "golden"});
  const Entry *init = nullptr, *golden = nullptr;
  bool has_dtype = false, has_shape = false, ok = true, role_ok = true;
  for (const Entry& k : keys) {
    const std::string kp = path + "." + k.key;
    if (k.key == "dtype") {
      has_dtype = true;
      t.dtype_loc = at(k.v, k.k);
      auto d = k.v.IsScalar() ? isa::parse_keyword(isa::EnumType::Dtype, k.v.Scalar()) : std::nullopt;
      if (!d) {
        error(t.dtype_loc, kp, (k.v.IsScalar() ? "bad dtype " + kind_of(k.v) : "expected a dtype, got " + kind_of(k.v)) +
                                  " (dtypes: " + join(dtype_names()) + ")");
        ok = false;
      } else {
        t.dtype = static_cast<isa::Dtype>(*d);
      }
    } else if (k.key == "shape") {
      has_shape = true;
      ok &= parse_shape(k, kp, &t.shape);
    } else if (k.key == "role") {
      std::string r = k.v.IsScalar() ? k.v.Scalar() : "";
      if (r == "input") t.role = TensorRole::Input;
      else if (r == "output") t.role = TensorRole::Output;
      else if (r == "workspace") t.role = TensorRole::Workspace;
      else {
        error(at(k.v, k.k), kp, (k.v.IsScalar() ? "bad role " + kind_of(k.v) : "expected a role, got " + kind_of(k.v)) +
                                    " (roles: input, output, workspace)");
        role_ok = false;
      }
    } else if (k.key == "init") {
      init = &k;
    } else if (k.key == "golden") {
      golden = &k;
    } else if (k.key == "cache") {
      auto h = k.v.IsScalar() ? isa::parse_keyword(isa::EnumType::CacheHint, k.v.Scalar()) : std::nullopt;
      if (!h)
        error(at(k.v, k.k), kp, (k.v.IsScalar() ? "bad cache policy " + kind_of(k.v) : "expected a cache policy, got " + kind_of(k.v)) +
                                    " (policies: normal, none_cacheable, prefetch)");
      else t.cache = static_cast<isa::CacheHint>(*h);
    }
  }
  if (!has_dtype) error(t.loc, path, "missing key 'dtype'");
  if (!has_shape) error(t.loc, path, "missing key 'shape'");
  if (init) parse_init(*init, path + ".init", &t.init);
  else if (t.role == TensorRole::Input && role_ok)
    error(t.loc, path, "missing key 'init' (an input needs {uniform|normal: [a, b], seed: N}, {fill: v} or {file: F.npy}; or give it role: output or workspace)");
  if (has_shape && ok) check_plants(t, path + ".init.plant");
  if (golden && role_ok) parse_file_golden(*golden, path + ".golden", t);
  if (has_dtype && has_shape && ok) {
    // Size limit: GM addresses are 64-bit, but a case tensor must also fit host memory.
    long double bytes = static_cast<long double>(t.numel()) * isa::dtype_size(t.dtype);
    if (bytes > static_cast<long double>(1ull << 40)) error(t.loc, path, "tensor larger than 1 TiB");
  }
  spec_.tensors.push_back(std::move(t));
}

bool CaseParser::parse_shape(const Entry& k, const std::string& kp, std::vector<int64_t>* shape) {
  if (!k.v.IsSequence() || k.v.size() == 0) {
    error(at(k.v, k.k), kp, "expected a list of dimensions like [16, 4096], got " + kind_of(k.v));
    return false;
  }
  bool ok = true;
  long double numel = 1;
  for (size_t i = 0; i < k.v.size(); ++i) {
    auto d = int_node(k.v[i], k.k, kp + "[" + std::to_string(i) + "]", 1);
    if (!d) {
      ok = false;
      continue;
    }
    numel *= *d;
    shape->push_back(*d);
  }
  if (ok && numel > static_cast<long double>(INT64_MAX / 8)) {
    error(at(k.v, k.k), kp, "too many elements");
    return false;
  }
  return ok;
}

void CaseParser::parse_init(const Entry& e, const std::string& path, InitSpec* init) {
  init->loc = at(e.v, e.k);
  const char* forms = "{uniform: [lo, hi], seed: N}, {normal: [mean, std], seed: N}, {fill: v}, {file: F.npy}, {scales_of: NAME} or zeros";
  if (e.v.IsScalar() && e.v.Scalar() == "zeros") {
    init->kind = InitSpec::Kind::Zeros;
    return;
  }
  if (!e.v.IsMap()) {
    error(init->loc, path, std::string("expected one of ") + forms + ", got " + kind_of(e.v));
    return;
  }
  auto keys = entries(e.v, path, {"uniform", "normal", "fill", "file", "scales_of", "seed", "quantize", "plant"});
  const Entry* kind = nullptr;
  const Entry* seed = nullptr;
  const Entry* quantize = nullptr;
  for (const Entry& k : keys) {
    if (k.key == "seed") {
      seed = &k;
      continue;
    }
    if (k.key == "quantize") {
      quantize = &k;
      continue;
    }
    if (k.key == "plant") {
      parse_plants(k, path + ".plant", init);
      continue;
    }
    if (kind) {
      error(at(k.k.Mark()), path + "." + k.key, "more than one of uniform, normal, fill, file, scales_of (already: " + kind->key + ")");
      return;
    }
    kind = &k;
  }
  if (!kind) {
    error(init->loc, path, std::string("expected one of ") + forms);
    return;
  }
  const std::string kp = path + "." + kind->key;
  bool random = kind->key == "uniform" || kind->key == "normal";
  if (quantize) {
    const std::string q = quantize->v.IsScalar() ? quantize->v.Scalar() : "";
    if (!random)
      error(at(quantize->k.Mark()), path + ".quantize", "quantize applies only to uniform and normal");
    else if (q != "per_channel")
      error(at(quantize->v, quantize->k), path + ".quantize", "expected per_channel, got " + kind_of(quantize->v));
    else
      init->quantize_per_channel = true;
  }
  if (kind->key == "scales_of") {
    init->kind = InitSpec::Kind::ScalesOf;
    init->loc = at(kind->v, kind->k);
    if (seed) error(at(seed->k.Mark()), path + ".seed", "a seed applies only to uniform and normal");
    if (auto s = string_value(*kind, kp)) init->source = *s;
    return;
  }
  if (random) {
    init->kind = kind->key == "uniform" ? InitSpec::Kind::Uniform : InitSpec::Kind::Normal;
    if (!kind->v.IsSequence() || kind->v.size() != 2) {
      error(at(kind->v, kind->k), kp,
            std::string("expected two numbers ") + (kind->key == "uniform" ? "[lo, hi]" : "[mean, std]") +
                ", got " + kind_of(kind->v));
    } else {
      auto a = number_node(kind->v[0], kind->k, kp + "[0]");
      auto b = number_node(kind->v[1], kind->k, kp + "[1]");
      if (a && b) {
        init->a = *a;
        init->b = *b;
        if (kind->key == "uniform" && !(*a < *b))
          error(at(kind->v, kind->k), kp, "lo must be below hi");
        if (kind->key == "normal" && !(*b > 0))
          error(at(kind->v, kind->k), kp, "std must be positive");
      }
    }
    if (!seed) error(init->loc, path, "missing key 'seed' (random data needs a seed)");
    else if (auto s = int_value(*seed, path + ".seed", 0)) init->seed = static_cast<uint64_t>(*s);
    return;
  }
  if (seed) error(at(seed->k.Mark()), path + ".seed", "a seed applies only to uniform and normal");
  if (kind->key == "fill") {
    init->kind = InitSpec::Kind::Fill;
    if (auto v = number_node(kind->v, kind->k, kp)) init->value = *v;
  } else {
    init->kind = InitSpec::Kind::File;
    if (auto s = string_value(*kind, kp)) {
      init->path = resolve(dir_, *s);
      init->loc = at(kind->v, kind->k);
      try {
        check_input_file(init->path, kMaxBinaryInputBytes);
      } catch (const InputFileError& e) {
        error(init->loc, kp, "cannot read '" + init->path + "': " + e.reason);
      }
    }
  }
}

void CaseParser::parse_plants(const Entry& e, const std::string& path, InitSpec* init) {
  const char* form = "a list of {at: [i, ...], value: v}";
  if (!e.v.IsSequence() || e.v.size() == 0) {
    error(at(e.v, e.k), path, std::string("expected ") + form + ", got " + kind_of(e.v));
    return;
  }
  for (size_t n = 0; n < e.v.size(); ++n) {
    const std::string pp = path + "[" + std::to_string(n) + "]";
    const YAML::Node item = e.v[n];
    InitPlant pl;
    pl.loc = at(item, e.k);
    if (!item.IsMap()) {
      error(pl.loc, pp, std::string("expected {at: [i, ...], value: v}, got ") + kind_of(item));
      continue;
    }
    bool ok = true, has_at = false, has_value = false;
    for (const Entry& k : entries(item, pp, {"at", "value"})) {
      if (k.key == "at") {
        has_at = true;
        if (!k.v.IsSequence() || k.v.size() == 0) {
          error(at(k.v, k.k), pp + ".at", "expected a list of indices like [3] or [3, 17], got " + kind_of(k.v));
          ok = false;
          continue;
        }
        for (size_t i = 0; i < k.v.size(); ++i) {
          auto v = int_node(k.v[i], k.k, pp + ".at[" + std::to_string(i) + "]", 0);
          if (v) pl.at.push_back(*v);
          else ok = false;
        }
      } else {
        has_value = true;
        if (auto v = number_node(k.v, k.k, pp + ".value")) pl.value = *v;
        else ok = false;
      }
    }
    if (!has_at) error(pl.loc, pp, "missing key 'at'");
    if (!has_value) error(pl.loc, pp, "missing key 'value'");
    if (ok && has_at && has_value) init->plants.push_back(std::move(pl));
  }
}

// The per-channel quantisation pairs: `quantize: per_channel` on an s8 [rows, cols] tensor, and
// `{scales_of: NAME}` on an f32 tensor of rows elements naming one.
void CaseParser::check_quantized(const CaseSpec& spec) {
  for (const CaseTensor& t : spec.tensors) {
    const std::string path = "tensors." + t.name + ".init";
    if (t.init.quantize_per_channel && (t.dtype != isa::Dtype::S8 || t.shape.size() != 2))
      error(t.init.loc, path + ".quantize", "per_channel needs an s8 [rows, cols] tensor, not " +
                                                std::string(isa::dtype_name(t.dtype)) + golden::shape_str(t.shape));
    if (t.init.kind != InitSpec::Kind::ScalesOf || t.init.source.empty()) continue;
    const CaseTensor* src = spec.tensor(t.init.source);
    if (!src || !src->init.quantize_per_channel) {
      error(t.init.loc, path + ".scales_of", "'" + t.init.source +
                                                 "' is not a tensor with init quantize: per_channel");
      continue;
    }
    if (t.dtype != isa::Dtype::F32 || src->shape.empty() || t.numel() != src->shape[0])
      error(t.init.loc, path + ".scales_of",
            "the scales of " + t.init.source + golden::shape_str(src->shape) + " are f32 with " +
                std::to_string(src->shape.empty() ? 0 : src->shape[0]) + " elements, not " +
                std::string(isa::dtype_name(t.dtype)) + golden::shape_str(t.shape));
  }
}

void CaseParser::check_plants(const CaseTensor& t, const std::string& path) {
  for (size_t n = 0; n < t.init.plants.size(); ++n) {
    const InitPlant& pl = t.init.plants[n];
    const std::string pp = path + "[" + std::to_string(n) + "].at";
    if (pl.at.size() > t.shape.size()) {
      error(pl.loc, pp, std::to_string(pl.at.size()) + " indices for a tensor of rank " +
                            std::to_string(t.shape.size()) + " " + golden::shape_str(t.shape));
      continue;
    }
    for (size_t i = 0; i < pl.at.size(); ++i)
      if (pl.at[i] >= t.shape[i])
        error(pl.loc, pp + "[" + std::to_string(i) + "]",
              "index " + std::to_string(pl.at[i]) + " is out of range for dimension " +
                  std::to_string(i) + " of " + golden::shape_str(t.shape));
  }
}

void CaseParser::parse_params(const Entry& e) {
  spec_.params_loc = at(e.k.Mark());
  spec_.params = param_map(e, "params");
}

std::vector<CaseParam> CaseParser::param_map(const Entry& e, const std::string& where) {
  std::vector<CaseParam> out;
  if (!want_map(e, where, "a mapping of kernel parameter names to values")) return out;
  for (const Entry& p : entries(e.v, where, {})) {
    const std::string path = where + "." + p.key;
    CaseParam cp;
    cp.name = p.key;
    cp.loc = at(p.k.Mark());
    if (!p.v.IsScalar()) {
      error(at(p.v, p.k), path, "expected an integer or a number, got " + kind_of(p.v));
      continue;
    }
    std::string msg;
    double d;
    if (auto i = eval_case_expr(p.v.Scalar(), spec_.vars, &msg)) {
      cp.i = *i;
      cp.f = static_cast<double>(*i);
    } else if (parse_number(p.v.Scalar(), &d)) {
      cp.is_float = true;
      cp.f = d;
    } else {
      error(at(p.v, p.k), path, "bad value '" + abbreviate_expr(p.v.Scalar()) + "': " + msg);
      continue;
    }
    out.push_back(std::move(cp));
  }
  return out;
}

}  // namespace detail

CaseSpec parse_case_string(const std::string& text, const std::string& name, const std::string& dir,
                           const std::vector<std::string>& var_overrides) {
  return detail::CaseParser(name, dir, var_overrides).run(text);
}

CaseSpec parse_case_file(const std::string& path, const std::vector<std::string>& var_overrides) {
  std::string text;
  try {
    text = read_input_file(path, hw::kMaxYamlFileBytes);
  } catch (const InputFileError& e) {
    throw Error(path + ": error: cannot read the case file: " + e.reason);
  }
  return parse_case_string(text, path, detail::dir_of(path), var_overrides);
}

}  // namespace npu::cli
