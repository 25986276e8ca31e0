#pragma once
// Running a sweep (docs/sweeps.md): `npusim sweep SPEC --out DIR [--jobs N] [--shard K/N]` and
// `npusim sweep merge DIR... --out DIR`.
//
// Each point runs in a child process (fork) that calls run_case() with the point's RunOptions:
// the same function `npusim run` calls, not a copy or a command line. A process per point because
// SystemC has one simulation kernel per process; fork rather than exec because the point needs
// no serialising into arguments and the parent never starts SystemC (it only parses and plans,
// single-threaded), so the child starts clean. --jobs N keeps N children running.
//
// Resuming: a point whose directory holds point.json (written atomically after the run's output
// directory was committed) is skipped. SIGINT / SIGTERM stop the sweep: running children are
// signalled, their staging directories removed (base/output_file.h), no point they ran is marked
// complete, and npusim ends with the signal's status; no results file is written then.
#include <string>
#include <vector>

namespace npu::cli {

struct SweepRunOptions {
  std::string spec_path, out_dir;
  int jobs = 1;
  int shard = 0, shards = 1;  // --shard K/N: the points with index % N == K
};

// Exit status: 0 every point ran and passed (or ran timing-only), 1 a comparison failed, 2 a
// point failed (its row says why) or bad input (npu::Error).
int run_sweep(const SweepRunOptions& o);

// Joins shard directories of one sweep into out (which may be one of them): copies the complete
// points, writes sweep.json and results for every point; npu::Error when the directories hold
// different sweeps or a point is complete in none of them.
int merge_sweeps(const std::vector<std::string>& dirs, const std::string& out);

}  // namespace npu::cli
