// stats.json -> RunMetrics (run_metrics.h).
#include "cli/lib/run_metrics.h"

#include "base/file_io.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

using json = nlohmann::json;

double num(const json& j, const char* key) {
  if (!j.is_object()) return 0;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}
uint64_t count(const json& j, const char* key) { return static_cast<uint64_t>(num(j, key)); }

}  // namespace

RunMetrics read_run_metrics(const json& s) {
  RunMetrics m;
  if (s.contains("total_cycles") && s["total_cycles"].is_number()) m.cycles = s["total_cycles"].get<uint64_t>();
  if (s.contains("time_us") && s["time_us"].is_number()) m.us = s["time_us"].get<double>();
  if (s.contains("roofline") && s["roofline"].contains("bound") && s["roofline"]["bound"].is_object()) {
    m.bound = s["roofline"]["bound"].value("unit", std::string());
    m.bound_utilization = num(s["roofline"]["bound"], "utilization");
  }
  if (s.contains("l2") && s["l2"].is_object() && s["l2"].contains("regions") && s["l2"]["regions"].is_array())
    for (const json& r : s["l2"]["regions"])
      m.tensors.push_back(TensorL2{r.value("tensor", std::string()), count(r, "read_hits") + count(r, "write_hits"),
                                   count(r, "read_misses") + count(r, "write_misses"),
                                   count(r, "bypass_reads") + count(r, "bypass_writes"), num(r, "hit_rate")});
  if (s.contains("hbm")) {
    m.hbm_read_bytes = count(s["hbm"], "bytes_read");
    m.hbm_write_bytes = count(s["hbm"], "bytes_written");
    m.hbm_gbps = num(s["hbm"], "gbps");
  }
  m.verdict = s.contains("numerics") ? s["numerics"].value("verdict", std::string()) : std::string();
  if (s.contains("labels") && s["labels"].is_array())
    for (const json& l : s["labels"])
      m.labels.push_back(LabelMetrics{l.value("label", std::string()), l.value("core_type", std::string()),
                                      count(l, "cycles"),
                                      l.contains("bound") ? l["bound"].value("resource", std::string()) : ""});
  return m;
}

RunMetrics read_run_metrics_dir(const std::string& dir) {
  const std::string path = dir + "/stats.json";
  try {
    return read_run_metrics(json::parse(read_input_file(path, 256ull << 20)));
  } catch (const InputFileError& e) {
    throw Error(path + ": error: cannot read the run's statistics: " + e.reason);
  } catch (const json::exception& e) {
    throw Error(path + ": error: not a stats.json: " + e.what());
  }
}

}  // namespace npu::cli
