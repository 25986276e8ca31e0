#pragma once
// The figures a sweep row and `npusim diff` show for one run, read from its stats.json. This is
// the one place outside the run pipeline that reads run results (docs/stats.md): when the
// results' layout changes, only read_run_metrics follows.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace npu::cli {

struct TensorL2 {
  std::string tensor;
  uint64_t hits = 0, misses = 0, bypasses = 0;  // reads + writes
  double hit_rate = 0;
};

struct LabelMetrics {
  std::string label, core_type;
  uint64_t cycles = 0;
  std::string bound;                // the bounding resource ("MTE2", "wait (barrier)")
};

struct RunMetrics {
  std::optional<uint64_t> cycles;   // none on the ISS
  std::optional<double> us;
  std::string bound;                // "MTE2 (aic)"; "" when unknown
  double bound_utilization = 0;
  std::vector<TensorL2> tensors;    // by name
  uint64_t hbm_read_bytes = 0, hbm_write_bytes = 0;
  double hbm_gbps = 0;
  std::string verdict;              // PASS, FAIL or timing-only
  std::vector<LabelMetrics> labels; // the kernel's order
};

RunMetrics read_run_metrics(const nlohmann::json& stats);
// Reads DIR/stats.json (an `npusim run --out` or sweep point directory); npu::Error naming it.
RunMetrics read_run_metrics_dir(const std::string& dir);

}  // namespace npu::cli
