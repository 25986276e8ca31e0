#pragma once
// A sweep spec (docs/sweeps.md): one base case and config, and the axes a sweep varies. Parsed
// strictly like case files ("FILE:LINE:COL: error: key.path: message", every error of the file in
// one npu::Error). Expanding it gives the points in a fixed order: the full grid over the axes
// (first axis slowest), where the axes of a `zip` group move together as one.
#include <cstddef>
#include <string>
#include <vector>

#include "cli/lib/case_spec.h"
#include "cli/lib/run_case.h"

namespace npu::cli {

struct SweepAxis {
  enum class Kind { Var, Set, Cache, Kernel, BlockDim };
  std::string name;                 // the results column
  Kind kind = Kind::Var;
  std::string target;               // the var, config key or tensor (Var, Set, Cache)
  std::vector<std::string> values;  // as written (the column's values)
  std::vector<std::string> args;    // what the run gets: kernel paths resolved against the spec
  SourceLoc loc;                    // the axis's key
};

struct SweepSpec {
  std::string path;                 // the spec file as given
  std::string description;
  std::string case_path;            // resolved against the spec's directory
  std::string config_path;          // resolved; "" = npusim run's default config
  std::vector<std::string> sets, vars, caches;  // fixed overrides of every point (KEY=VALUE)
  bool timing_only = false;
  std::vector<SweepAxis> axes;      // file order; `repeat` adds its var axis last
  std::vector<std::vector<size_t>> groups;  // axis indices moving together, ordered by first axis
};

struct SweepPoint {
  size_t index = 0;                 // position in the grid order
  std::vector<std::string> values;  // one per axis, axis order
  RunOptions run;                   // what `npusim run` gets for this point (out_dir unset)
};

SweepSpec parse_sweep_string(const std::string& text, const std::string& name, const std::string& dir);
SweepSpec parse_sweep_file(const std::string& path);

// The points in grid order (SweepSpec's groups: the first group slowest).
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec);

// "M=16, w=none_cacheable": the point's axis values, for messages.
std::string describe_point(const SweepSpec& spec, const SweepPoint& p);

}  // namespace npu::cli
