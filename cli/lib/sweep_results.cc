// Sweep rows, results.csv and results.jsonl (sweep_results.h).
#include "cli/lib/sweep_results.h"

#include <algorithm>
#include <set>

#include "base/file_io.h"
#include "cli/lib/run_metrics.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const nlohmann::ordered_json& v) {
  std::string s = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<std::string> split_csv_line(const std::string& text, size_t* pos) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (; *pos < text.size(); ++*pos) {
    const char c = text[*pos];
    if (quoted) {
      if (c == '"' && *pos + 1 < text.size() && text[*pos + 1] == '"') fields.back() += '"', ++*pos;
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++*pos;
      break;
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// An axis value as written; in JSON a number when it is a JSON number ("16", "0.5"), else text.
nlohmann::ordered_json axis_value(const std::string& v) {
  const auto j = nlohmann::ordered_json::parse(v, nullptr, false);
  return !j.is_discarded() && j.is_number() ? j : nlohmann::ordered_json(v);
}

}  // namespace

Row point_row(const SweepPlan& plan, const PlannedPoint& p, const std::string& dir, const std::string& error) {
  Row r;
  r["point"] = p.point.index;
  for (size_t i = 0; i < plan.spec.axes.size(); ++i)
    r[plan.spec.axes[i].name] = axis_value(p.point.values[i]);
  r["hash"] = p.hash;
  if (!error.empty() || !point_complete(dir, p)) {
    r["status"] = "failed";
    r["error"] = error.empty() ? "not run" : error;
    return r;
  }
  const std::string pdir = point_dir(dir, p);
  const RunMetrics m = read_run_metrics_dir(pdir);
  nlohmann::json rec = nlohmann::json::parse(read_input_file(pdir + "/point.json"));
  r["status"] = "ok";
  r["cycles"] = m.cycles ? nlohmann::ordered_json(*m.cycles) : nlohmann::ordered_json();
  r["us"] = m.us ? nlohmann::ordered_json(*m.us) : nlohmann::ordered_json();
  r["bound"] = m.bound;
  for (const TensorL2& t : m.tensors) {
    r["l2_hits." + t.tensor] = t.hits;
    r["l2_misses." + t.tensor] = t.misses;
    r["l2_bypasses." + t.tensor] = t.bypasses;
    r["l2_hit_rate." + t.tensor] = t.hit_rate;
  }
  r["hbm_read_bytes"] = m.hbm_read_bytes;
  r["hbm_write_bytes"] = m.hbm_write_bytes;
  r["hbm_gbps"] = m.hbm_gbps;
  r["verdict"] = m.verdict;
  r["wall_s"] = rec.value("wall_s", 0.0);
  r["npusim_version"] = rec.value("npusim_version", std::string());
  return r;
}

void write_results(const std::string& stem, const std::vector<std::string>& axes, const std::vector<Row>& rows) {
  std::set<std::string> tensors;  // the union over the rows, by name
  for (const Row& r : rows)
    for (auto it = r.begin(); it != r.end(); ++it)
      if (it.key().rfind("l2_hits.", 0) == 0) tensors.insert(it.key().substr(8));
  std::vector<std::string> head = {"point"};
  head.insert(head.end(), axes.begin(), axes.end());
  for (const char* c : {"hash", "status", "cycles", "us", "bound"}) head.push_back(c);
  for (const std::string& t : tensors)
    for (const char* m : {"l2_hits.", "l2_misses.", "l2_bypasses.", "l2_hit_rate."}) head.push_back(m + t);
  for (const char* c : {"hbm_read_bytes", "hbm_write_bytes", "hbm_gbps", "verdict", "wall_s", "npusim_version", "error"})
    head.push_back(c);

  std::string csv, jsonl;
  for (size_t i = 0; i < head.size(); ++i) csv += (i ? "," : "") + csv_field(head[i]);
  csv += "\n";
  for (const Row& r : rows) {
    Row full;
    for (size_t i = 0; i < head.size(); ++i) {
      const auto it = r.find(head[i]);
      full[head[i]] = it == r.end() ? nlohmann::ordered_json() : *it;
      csv += (i ? "," : "") + csv_field(full[head[i]]);
    }
    csv += "\n";
    jsonl += full.dump() + "\n";
  }
  write_file_atomic(stem + ".csv", csv);
  write_file_atomic(stem + ".jsonl", jsonl);
}

int Table::column(const std::string& name) const {
  auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

Table read_results_csv(const std::string& dir) {
  const std::string path = dir + "/results.csv";
  std::string text;
  try {
    text = read_input_file(path, 1ull << 30);
  } catch (const InputFileError& e) {
    throw Error(path + ": error: cannot read the sweep's results: " + e.reason);
  }
  Table t;
  size_t pos = 0;
  t.columns = split_csv_line(text, &pos);
  for (int line = 2; pos < text.size(); ++line) {
    t.rows.push_back(split_csv_line(text, &pos));
    if (t.rows.back().size() != t.columns.size())
      throw Error(path + ":" + std::to_string(line) + ":1: error: " + std::to_string(t.rows.back().size()) +
                  " fields, the header has " + std::to_string(t.columns.size()));
  }
  return t;
}

}  // namespace npu::cli
