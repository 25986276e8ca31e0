#pragma once
// The results of a sweep: one tidy row per point (results.csv, and the same rows as JSON lines in
// results.jsonl), in grid order, so the same sweep always gives the same files (wall_s aside).
// Columns: point (grid index), every axis, hash, status (ok / failed), cycles, us, bound, per
// tensor T l2_hits.T, l2_misses.T, l2_bypasses.T, l2_hit_rate.T (tensors by name), hbm_read_bytes,
// hbm_write_bytes, hbm_gbps, verdict (PASS / FAIL / timing-only), wall_s, npusim_version, error.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/lib/sweep_plan.h"

namespace npu::cli {

using Row = nlohmann::ordered_json;  // column -> value, in column order

// The row of one point from its directory (point.json + stats.json, via read_run_metrics), or a
// failed row with `error` when the point did not complete.
Row point_row(const SweepPlan& plan, const PlannedPoint& p, const std::string& dir, const std::string& error = "");

// Writes STEM.csv and STEM.jsonl (atomically; STEM = DIR/results) from rows in grid order. Every row
// gets every column (the union of the tensors); a missing value is empty in the CSV, null in JSON.
void write_results(const std::string& stem, const std::vector<std::string>& axes, const std::vector<Row>& rows);

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;  // -1 when absent
};
// Reads DIR/results.csv (as write_results writes it); npu::Error naming the file.
Table read_results_csv(const std::string& dir);

}  // namespace npu::cli
