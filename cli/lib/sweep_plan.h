#pragma once
// A sweep's plan: every point resolved and checked before anything runs, named by a short hash
// of its resolved inputs, and the directory layout of a sweep (docs/sweeps.md):
//   DIR/sweep.json            the plan (axes, every point's index, hash and values)
//   DIR/points/HASH/          the point's `npusim run --out` (stats.json, config.yaml, ...)
//   DIR/points/HASH/point.json  written last, atomically: the point is complete
//   DIR/results.csv, DIR/results.jsonl   (a shard K of N: results.K-of-N.csv, .jsonl)
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/lib/sweep_spec.h"

namespace npu::cli {

struct PlannedPoint {
  SweepPoint point;
  std::string hash;        // 12 hex digits of FNV-1a 64 over `inputs`
  nlohmann::json inputs;   // what the hash covers (see resolve_plan)
};

struct SweepPlan {
  SweepSpec spec;
  std::vector<PlannedPoint> points;  // grid order
  int shard = 0, shards = 1;         // this invocation runs the points with index % shards == shard
  bool in_shard(const PlannedPoint& p) const { return static_cast<int>(p.point.index % shards) == shard; }
};

// Expands the spec and resolves each point as `npusim run` would (case with its vars, cache and
// launch overrides, the config with its --set overrides), so a bad value fails here, naming the
// point, before any point runs. The hash covers the bytes of the case and kernel files, the
// resolved config, and the point's vars, cache policies, block_dim and timing_only: the same
// point of an edited kernel or config gets a new directory. The config path defaults as for
// `npusim run`.
SweepPlan resolve_plan(SweepSpec spec, int shard, int shards);

std::string points_dir(const std::string& dir);                        // DIR/points
std::string point_dir(const std::string& dir, const PlannedPoint& p);  // DIR/points/HASH
bool point_complete(const std::string& dir, const PlannedPoint& p);    // its point.json exists

nlohmann::json plan_json(const SweepPlan& plan);  // what sweep.json holds
// The command line that runs one point by hand (`npusim run CASE --var ... --out DIR`).
std::string run_command_line(const RunOptions& o);

}  // namespace npu::cli

namespace npu::cli {
// The plan as sweep.json records it (axes by name, points with index, hash and values), enough
// to read results back and to merge shards; npu::Error naming DIR/sweep.json.
SweepPlan read_plan(const std::string& dir);
}  // namespace npu::cli
