// The strict sweep-spec parser and the grid expansion (sweep_spec.h, docs/sweeps.md).
#include "cli/lib/sweep_spec.h"

#include "base/file_io.h"
#include "cli/lib/case_parser.h"

namespace npu::cli {
namespace detail {
namespace {

const std::vector<std::string> kTopKeys = {"description", "case", "config", "timing_only", "set", "var",
                                           "cache", "axes", "zip", "repeat"};
const std::vector<std::string> kAxisKinds = {"var", "set", "cache", "kernel", "block_dim"};

class SweepParser : public StrictYamlReader {
 public:
  SweepParser(std::string name, std::string dir) : StrictYamlReader(std::move(name)), dir_(std::move(dir)) {}

  SweepSpec run(const std::string& text) {
    spec_.path = name_;
    YAML::Node root = load_root(text);
    const SourceLoc top{name_, 1, 1};
    if (!root.IsMap())
      throw Error(top.str() + ": error: expected a mapping (case, axes, ...), got " + kind_of(root));
    std::vector<Entry> keys = entries(root, "", kTopKeys);
    for (const char* req : {"case", "axes"})
      if (std::none_of(keys.begin(), keys.end(), [&](const Entry& e) { return e.key == req; }))
        error(top, "", std::string("missing key '") + req + "'");
    const Entry* zip = nullptr;
    const Entry* repeat = nullptr;
    for (const Entry& e : keys) {
      if (e.key == "description") {
        if (auto s = string_value(e, e.key)) spec_.description = *s;
      } else if (e.key == "case") {
        if (auto s = string_value(e, e.key)) spec_.case_path = existing_file(e, *s);
      } else if (e.key == "config") {
        if (auto s = string_value(e, e.key)) spec_.config_path = existing_file(e, *s);
      } else if (e.key == "timing_only") {
        parse_bool(e, &spec_.timing_only);
      } else if (e.key == "set" || e.key == "var" || e.key == "cache") {
        parse_fixed(e, e.key == "set" ? &spec_.sets : e.key == "var" ? &spec_.vars : &spec_.caches);
      } else if (e.key == "axes") {
        parse_axes(e);
      } else if (e.key == "zip") {
        zip = &e;
      } else if (e.key == "repeat") {
        repeat = &e;
      }
    }
    if (repeat) parse_repeat(*repeat);
    parse_zip(zip);
    if (!errors_.empty()) throw Error(join_lines(errors_));
    return std::move(spec_);
  }

 private:
  std::string dir_;
  SweepSpec spec_;

  std::string existing_file(const Entry& e, const std::string& p) {
    std::string path = resolve(dir_, p);
    try {
      check_input_file(path, hw::kMaxYamlFileBytes);
    } catch (const InputFileError& err) {
      error(at(e.v, e.k), e.key, "cannot read '" + path + "': " + err.reason);
    }
    return path;
  }

  void parse_bool(const Entry& e, bool* out) {
    if (e.v.IsScalar() && (e.v.Scalar() == "true" || e.v.Scalar() == "false")) *out = e.v.Scalar() == "true";
    else error(at(e.v, e.k), e.key, "expected true or false, got " + kind_of(e.v));
  }

  // set / var / cache: {KEY: VALUE, ...} -> "KEY=VALUE" (checked when the points are resolved).
  void parse_fixed(const Entry& e, std::vector<std::string>* out) {
    if (!want_map(e, e.key, "a mapping of names to values")) return;
    for (const Entry& kv : entries(e.v, e.key, {})) {
      if (kv.v.IsScalar() && !kv.v.Scalar().empty()) out->push_back(kv.key + "=" + kv.v.Scalar());
      else error(at(kv.v, kv.k), sub(e.key, kv.key), "expected a value, got " + kind_of(kv.v));
    }
  }

  // A non-empty sequence of distinct scalars.
  bool scalar_list(const YAML::Node& v, const YAML::Node& k, const std::string& path,
                   std::vector<std::string>* out) {
    if (!v.IsSequence() || v.size() == 0) {
      error(at(v, k), path, "expected a non-empty list of values, got " + kind_of(v));
      return false;
    }
    for (const YAML::Node& item : v) {
      if (!item.IsScalar() || item.Scalar().empty()) {
        error(at(item, k), path, "expected a value, got " + kind_of(item));
        return false;
      }
      if (std::find(out->begin(), out->end(), item.Scalar()) != out->end()) {
        error(at(item, k), path, "value '" + item.Scalar() + "' is listed twice");
        return false;
      }
      out->push_back(item.Scalar());
    }
    return true;
  }

  bool axis_name_free(const std::string& name, const YAML::Node& k, const std::string& path) {
    for (const SweepAxis& a : spec_.axes)
      if (a.name == name) {
        error(at(k.Mark()), path, "axis '" + name + "' is defined twice (first at " + a.loc.str() + ")");
        return false;
      }
    return true;
  }

  void parse_axes(const Entry& e) {
    if (!want_map(e, "axes", "a mapping of axis names to axes")) return;
    for (const Entry& a : entries(e.v, "axes", {})) {
      const std::string path = sub("axes", a.key);
      if (!is_identifier(a.key)) {
        error(at(a.k.Mark()), path, "bad axis name (letters, digits and _)");
        continue;
      }
      if (!want_map(a, path, "a mapping ({var: NAME, values: [...]}, {kernel: [...]}, ...)")) continue;
      SweepAxis axis;
      axis.name = a.key;
      axis.loc = at(a.k.Mark());
      std::vector<Entry> fields = entries(a.v, path, {"var", "set", "cache", "kernel", "block_dim", "values"});
      const Entry* kind = nullptr;
      const Entry* values = nullptr;
      bool ok = true;
      for (const Entry& f : fields) {
        if (f.key == "values") {
          values = &f;
        } else if (kind) {
          error(at(f.k.Mark()), sub(path, f.key), "an axis varies one thing ('" + kind->key + "' is already given)");
          ok = false;
        } else {
          kind = &f;
        }
      }
      if (!kind) {
        if (ok) error(axis.loc, path, "missing what the axis varies (one of: " + join(kAxisKinds) + ")");
        continue;
      }
      const bool listed = kind->key == "kernel" || kind->key == "block_dim";  // values under the kind's key
      axis.kind = kind->key == "var" ? SweepAxis::Kind::Var
                  : kind->key == "set" ? SweepAxis::Kind::Set
                  : kind->key == "cache" ? SweepAxis::Kind::Cache
                  : kind->key == "kernel" ? SweepAxis::Kind::Kernel
                                          : SweepAxis::Kind::BlockDim;
      if (listed) {
        if (values) {
          error(at(values->k.Mark()), sub(path, "values"), "a " + kind->key + " axis lists its values under '" +
                                                               kind->key + "'");
          continue;
        }
        if (!scalar_list(kind->v, kind->k, sub(path, kind->key), &axis.values)) continue;
      } else {
        auto target = string_value(*kind, sub(path, kind->key));
        if (!target) continue;
        axis.target = *target;
        if (!values) {
          error(axis.loc, path, "missing key 'values'");
          continue;
        }
        if (!scalar_list(values->v, values->k, sub(path, "values"), &axis.values)) continue;
      }
      for (const std::string& v : axis.values)
        axis.args.push_back(axis.kind == SweepAxis::Kind::Kernel ? resolve(dir_, v) : v);
      if (axis.kind == SweepAxis::Kind::BlockDim)
        for (const std::string& v : axis.values)
          if (v.empty() || v.size() > 7 || !std::all_of(v.begin(), v.end(), ::isdigit) || std::stoi(v) < 1) {
            error(at(kind->v, kind->k), sub(path, kind->key), "block_dim '" + v + "' is not an integer 1..1000000");
            ok = false;
          }
      if (ok && axis_name_free(axis.name, a.k, path)) spec_.axes.push_back(std::move(axis));
    }
  }

  // repeat: {var: SEED, count: N}: an axis SEED = 1..N, last (it varies fastest).
  void parse_repeat(const Entry& e) {
    if (!want_map(e, "repeat", "a mapping {var: NAME, count: N}")) return;
    std::optional<std::string> var;
    int count = 0;
    for (const Entry& f : entries(e.v, "repeat", {"var", "count"})) {
      if (f.key == "var") var = string_value(f, "repeat.var");
      else if (f.v.IsScalar() && f.v.Scalar().size() < 6 && !f.v.Scalar().empty() &&
               std::all_of(f.v.Scalar().begin(), f.v.Scalar().end(), ::isdigit) && std::stoi(f.v.Scalar()) >= 1)
        count = std::stoi(f.v.Scalar());
      else error(at(f.v, f.k), "repeat.count", "expected an integer 1..99999, got " + kind_of(f.v));
    }
    if (!var || count == 0) {
      if (errors_.empty()) error(at(e.k.Mark()), "repeat", "needs both 'var' and 'count'");
      return;
    }
    SweepAxis axis;
    axis.name = *var;
    axis.kind = SweepAxis::Kind::Var;
    axis.target = *var;
    axis.loc = at(e.k.Mark());
    for (int i = 1; i <= count; ++i) axis.values.push_back(std::to_string(i));
    axis.args = axis.values;
    if (axis_name_free(axis.name, e.k, "repeat")) spec_.axes.push_back(std::move(axis));
  }

  // zip: [[A, B], ...]: each group's axes have as many values and move together.
  void parse_zip(const Entry* e) {
    std::vector<int> group_of(spec_.axes.size(), -1);
    std::vector<std::vector<size_t>> zipped;
    if (e && !e->v.IsSequence()) error(at(e->v, e->k), "zip", "expected a list of axis lists, got " + kind_of(e->v));
    for (size_t g = 0; e && e->v.IsSequence() && g < e->v.size(); ++g) {
      const YAML::Node grp = e->v[g];
      const std::string path = "zip[" + std::to_string(g) + "]";
      if (!grp.IsSequence() || grp.size() < 2) {
        error(at(grp, e->k), path, "expected a list of two or more axis names, got " + kind_of(grp));
        continue;
      }
      std::vector<size_t> members;
      for (const YAML::Node& n : grp) {
        auto it = std::find_if(spec_.axes.begin(), spec_.axes.end(),
                               [&](const SweepAxis& a) { return n.IsScalar() && a.name == n.Scalar(); });
        if (it == spec_.axes.end()) {
          error(at(n, e->k), path, "no axis " + kind_of(n));
          continue;
        }
        const size_t i = it - spec_.axes.begin();
        if (group_of[i] >= 0) {
          error(at(n, e->k), path, "axis '" + it->name + "' is already in zip[" + std::to_string(group_of[i]) + "]");
          continue;
        }
        if (!members.empty() && spec_.axes[members[0]].values.size() != it->values.size()) {
          error(at(n, e->k), path, "axis '" + it->name + "' has " + std::to_string(it->values.size()) +
                                       " values but '" + spec_.axes[members[0]].name + "' has " +
                                       std::to_string(spec_.axes[members[0]].values.size()));
          continue;
        }
        group_of[i] = static_cast<int>(g);
        members.push_back(i);
      }
      zipped.push_back(members);
    }
    // Every axis in one group, groups in the order of their first axis.
    for (size_t i = 0; i < spec_.axes.size(); ++i) {
      if (group_of[i] < 0) spec_.groups.push_back({i});
      else if (i == *std::min_element(zipped[group_of[i]].begin(), zipped[group_of[i]].end()))
        spec_.groups.push_back(zipped[group_of[i]]);
    }
  }
};

}  // namespace
}  // namespace detail

SweepSpec parse_sweep_string(const std::string& text, const std::string& name, const std::string& dir) {
  return detail::SweepParser(name, dir).run(text);
}

SweepSpec parse_sweep_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, hw::kMaxYamlFileBytes);
  } catch (const InputFileError& e) {
    throw Error(path + ": error: cannot read the sweep spec: " + e.reason);
  }
  return parse_sweep_string(text, path, detail::dir_of(path));
}

std::vector<SweepPoint> expand_sweep(const SweepSpec& spec) {
  std::vector<size_t> sizes;
  size_t total = 1;
  for (const auto& g : spec.groups) {
    sizes.push_back(spec.axes[g.front()].values.size());
    total *= sizes.back();
  }
  std::vector<SweepPoint> points;
  for (size_t n = 0; n < total; ++n) {
    SweepPoint p;
    p.index = n;
    p.values.resize(spec.axes.size());
    RunOptions& o = p.run;
    o.case_path = spec.case_path;
    o.config_path = spec.config_path;
    o.sets = spec.sets;
    o.vars = spec.vars;
    o.caches = spec.caches;
    o.timing_only = spec.timing_only;
    size_t rest = n;
    std::vector<size_t> pick(spec.groups.size());
    for (size_t g = spec.groups.size(); g-- > 0;) {  // the last group varies fastest
      pick[g] = rest % sizes[g];
      rest /= sizes[g];
    }
    for (size_t g = 0; g < spec.groups.size(); ++g)
      for (size_t i : spec.groups[g]) {
        const SweepAxis& a = spec.axes[i];
        p.values[i] = a.values[pick[g]];
        const std::string& arg = a.args[pick[g]];
        switch (a.kind) {
          case SweepAxis::Kind::Var: o.vars.push_back(a.target + "=" + arg); break;
          case SweepAxis::Kind::Set: o.sets.push_back(a.target + "=" + arg); break;
          case SweepAxis::Kind::Cache: o.caches.push_back(a.target + "=" + arg); break;
          case SweepAxis::Kind::Kernel: o.kernel_path = arg; break;
          case SweepAxis::Kind::BlockDim: o.block_dim = std::stoi(arg); break;
        }
      }
    points.push_back(std::move(p));
  }
  return points;
}

std::string describe_point(const SweepSpec& spec, const SweepPoint& p) {
  std::string s;
  for (size_t i = 0; i < spec.axes.size(); ++i) s += (i ? ", " : "") + spec.axes[i].name + "=" + p.values[i];
  return s;
}

}  // namespace npu::cli
