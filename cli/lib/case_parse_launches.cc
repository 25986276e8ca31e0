// The `launches` sequence of a case (docs/case-format.md, "Launch sequences"): each entry may
// name its own kernel, block_dim and params and a repeat count. Its params are merged over the
// top-level ones when it runs the top-level kernel; another kernel takes only its own.
#include "cli/lib/case_parser.h"


namespace npu::cli::detail {

void CaseParser::parse_launches(const Entry& e, const Entry* between) {
  spec_.launches_loc = at(e.k.Mark());
  if (between) {
    auto s = string_value(*between, "l2_between_launches");
    if (s && *s != "warm" && *s != "cold")
      error(at(between->v, between->k), "l2_between_launches", "expected warm or cold, got '" + *s + "'");
    else if (s) spec_.l2_cold_between_launches = *s == "cold";
  }
  if (!e.v.IsSequence() || e.v.size() == 0) {
    error(at(e.v, e.k), "launches", "expected a non-empty sequence of {kernel, block_dim, params, repeat}, got " +
                                        kind_of(e.v));
    return;
  }
  for (size_t i = 0; i < e.v.size(); ++i) {
    const YAML::Node node = e.v[i];
    const std::string path = "launches[" + std::to_string(i) + "]";
    CaseLaunch l;
    l.loc = at(node.Mark());
    l.kernel_path = spec_.kernel_path;
    l.kernel_loc = spec_.kernel_loc;
    l.block_dim = spec_.block_dim;
    l.block_dim_loc = spec_.block_dim_loc;
    l.params = spec_.params;
    if (!node.IsMap()) {
      error(l.loc, path, "expected a mapping {kernel, block_dim, params, repeat}, got " + kind_of(node));
      continue;
    }
    if (const YAML::Node k = node["kernel"]; k && k.IsScalar() && resolve(dir_, k.Scalar()) != spec_.kernel_path)
      l.params.clear();  // another kernel: only the launch's own params
    for (const Entry& f : entries(node, path, {"kernel", "block_dim", "params", "repeat"})) {
      const std::string fp = path + "." + f.key;
      if (f.key == "kernel") {
        parse_kernel(f, fp, l.kernel_path, l.kernel_loc);
      } else if (f.key == "block_dim") {
        parse_block_dim(f, fp, l.block_dim, l.block_dim_loc);
      } else if (f.key == "repeat") {
        if (auto v = int_value(f, fp, 1)) {
          if (*v > kMaxLaunches) error(at(f.v, f.k), fp, "value " + std::to_string(*v) + " is above " + std::to_string(kMaxLaunches));
          else l.repeat = static_cast<int>(*v);
        }
      } else {  // params: by name over the top-level ones (none of them for another kernel)
        for (CaseParam& p : param_map(f, fp)) {
          auto it = std::find_if(l.params.begin(), l.params.end(), [&](const CaseParam& q) { return q.name == p.name; });
          if (it != l.params.end()) *it = std::move(p);
          else l.params.push_back(std::move(p));
        }
      }
    }
    spec_.launches.push_back(std::move(l));
  }
  int64_t total = 0;
  for (const CaseLaunch& l : spec_.launches) total += l.repeat;
  if (total > kMaxLaunches)
    error(spec_.launches_loc, "launches", std::to_string(total) + " launches in all, more than " + std::to_string(kMaxLaunches));
}

}  // namespace npu::cli::detail
