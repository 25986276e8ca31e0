// Resolving and naming the points of a sweep (sweep_plan.h).
#include "cli/lib/sweep_plan.h"

#include <cstdio>
#include <filesystem>
#include <map>

#include "base/file_io.h"
#include "hw/config/loader.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

uint64_t fnv1a(const std::string& bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(uint64_t v, int digits) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return std::string(buf).substr(0, digits);
}

std::string file_hash(const std::string& path) {
  return hex(fnv1a(read_input_file(path, 64ull << 20)), 16);
}

}  // namespace

SweepPlan resolve_plan(SweepSpec spec, int shard, int shards) {
  spec.config_path = resolve_config_path(spec.config_path);
  SweepPlan plan;
  plan.shard = shard;
  plan.shards = shards;
  std::map<std::vector<std::string>, std::string> config_hash;  // --set list -> resolved config
  std::map<std::string, std::string> files;                     // path -> content hash
  auto hashed = [&](const std::string& path) -> const std::string& {
    auto it = files.find(path);
    return it != files.end() ? it->second : files.emplace(path, file_hash(path)).first->second;
  };
  for (SweepPoint& p : expand_sweep(spec)) {
    p.run.config_path = spec.config_path;
    PlannedPoint pp;
    try {
      CaseSpec c = parse_case_file(p.run.case_path, p.run.vars);
      apply_cache_overrides(c, p.run.caches);
      apply_launch_overrides(c, p.run);
      auto it = config_hash.find(p.run.sets);
      if (it == config_hash.end())
        it = config_hash
                 .emplace(p.run.sets, hex(fnv1a(hw::dump_resolved_yaml(hw::load_config(spec.config_path, p.run.sets))), 16))
                 .first;
      pp.inputs = {{"case", hashed(p.run.case_path)}, {"kernel", hashed(c.kernel_path)},
                   {"config", it->second},           {"vars", p.run.vars},
                   {"caches", p.run.caches},         {"block_dim", c.block_dim},
                   {"timing_only", p.run.timing_only}};
    } catch (const Error& e) {
      throw Error(spec.path + ": error: point " + std::to_string(p.index) + " (" + describe_point(spec, p) +
                  "):\n" + e.what());
    }
    pp.hash = hex(fnv1a(pp.inputs.dump()), 12);
    pp.point = std::move(p);
    plan.points.push_back(std::move(pp));
  }
  plan.spec = std::move(spec);
  return plan;
}

std::string points_dir(const std::string& dir) { return dir + "/points"; }
std::string point_dir(const std::string& dir, const PlannedPoint& p) { return points_dir(dir) + "/" + p.hash; }
bool point_complete(const std::string& dir, const PlannedPoint& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(point_dir(dir, p) + "/point.json", ec);
}

nlohmann::json plan_json(const SweepPlan& plan) {
  nlohmann::json axes = nlohmann::json::array(), points = nlohmann::json::array();
  for (const SweepAxis& a : plan.spec.axes) axes.push_back(a.name);
  for (const PlannedPoint& p : plan.points)
    points.push_back({{"index", p.point.index}, {"hash", p.hash}, {"values", p.point.values}});
  // The same for every shard of a sweep (shards may share one directory).
  return {{"spec", plan.spec.path}, {"description", plan.spec.description}, {"axes", axes}, {"points", points}};
}

std::string run_command_line(const RunOptions& o) {
  std::string s = "npusim run " + o.case_path + " --config " + o.config_path;
  for (const std::string& v : o.vars) s += " --var " + v;
  for (const std::string& v : o.sets) s += " --set " + v;
  for (const std::string& v : o.caches) s += " --cache " + v;
  if (!o.kernel_path.empty()) s += " --kernel " + o.kernel_path;
  if (o.block_dim) s += " --block-dim " + std::to_string(o.block_dim);
  if (o.timing_only) s += " --timing-only";
  if (!o.out_dir.empty()) s += " --out " + o.out_dir;
  return s;
}

}  // namespace npu::cli

namespace npu::cli {

SweepPlan read_plan(const std::string& dir) {
  const std::string path = dir + "/sweep.json";
  SweepPlan plan;
  try {
    nlohmann::json j = nlohmann::json::parse(read_input_file(path, 256ull << 20));
    plan.spec.path = j.at("spec").get<std::string>();
    plan.spec.description = j.value("description", std::string());
    for (const auto& a : j.at("axes")) {
      SweepAxis axis;
      axis.name = a.get<std::string>();
      plan.spec.axes.push_back(axis);
    }
    for (const auto& p : j.at("points")) {
      PlannedPoint pp;
      pp.point.index = p.at("index").get<size_t>();
      pp.point.values = p.at("values").get<std::vector<std::string>>();
      pp.hash = p.at("hash").get<std::string>();
      plan.points.push_back(std::move(pp));
    }
  } catch (const InputFileError& e) {
    throw Error(path + ": error: not a sweep directory: " + e.reason);
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": error: not a sweep plan: " + e.what());
  }
  return plan;
}

}  // namespace npu::cli
