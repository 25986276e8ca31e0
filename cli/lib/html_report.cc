// The self-contained HTML report (html_report.h): the page skeleton, the tables, and the trace
// as compact JSON for the inline script.
#include "cli/lib/html_report.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/lib/run_report.h"
#include "cli/lib/run_result.h"
#include "isa/types.h"

namespace npu::cli {

namespace {

std::string html_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string pct(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * ratio);
  return buf;
}

std::string table_html(const HtmlTable& t) {
  std::string o = "<h2>" + html_escape(t.heading) + "</h2>\n<table><tr>";
  for (const std::string& c : t.columns) o += "<th>" + html_escape(c) + "</th>";
  o += "</tr>\n";
  for (const auto& row : t.rows) {
    o += "<tr>";
    for (const std::string& c : row) o += "<td>" + html_escape(c) + "</td>";
    o += "</tr>\n";
  }
  return o + "</table>\n";
}

// Per label: instructions and busy cycles per unit, summed over cores, and stall cycles.
HtmlTable label_table(const TraceData& d) {
  struct Agg {
    uint64_t instructions = 0, first = UINT64_MAX, last = 0, stall = 0;
    std::array<uint64_t, isa::kNumPipes> busy{};
  };
  std::map<int, Agg> by_label;
  std::array<bool, isa::kNumPipes> used{};
  for (const SummaryEvent& e : d.events) {
    if (e.dispatch) continue;
    Agg& a = by_label[e.label];
    ++a.instructions;
    a.first = std::min(a.first, e.start);
    a.last = std::max(a.last, e.end);
    a.busy[e.unit] += e.end - e.start;
    a.stall += e.stall;
    used[e.unit] = true;
  }
  HtmlTable t{"Per label (summed over cores)", {"label", "instructions", "span (cycles)"}, {}};
  for (int p = 0; p < isa::kNumPipes; ++p)
    if (used[p]) t.columns.push_back(std::string(isa::pipe_name(static_cast<isa::Pipe>(p))) + " busy");
  t.columns.push_back("stall cycles");
  for (const auto& [label, a] : by_label) {
    std::vector<std::string> row{d.labels[label].empty() ? "(none)" : d.labels[label], std::to_string(a.instructions),
                                 std::to_string(a.last - a.first)};
    for (int p = 0; p < isa::kNumPipes; ++p)
      if (used[p]) row.push_back(std::to_string(a.busy[p]));
    row.push_back(std::to_string(a.stall));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The trace for the script as compact JSON: tracks (core, unit) by core then unit, events as
// [track, start, end, label, kind (0 exec, 1 dispatch), stall, reason, text], strings interned.
// The members in nlohmann::json's (sorted) order; strings and counters through nlohmann::json
// (its escaping, ASCII only, invalid UTF-8 replaced), the events, all integers, written directly.
std::string trace_json(const TraceData& d) {
  using nlohmann::json;
  auto dump = [](const json& j) { return j.dump(-1, ' ', true, json::error_handler_t::replace); };
  std::map<std::pair<int, int>, int> track_of;
  json tracks = json::array(), texts = json::array();
  std::map<std::string, int> text_id;
  const std::array<const char*, 6> reasons = {"", "flag_wait", "cross_core", "memory", "queue_full", "barrier"};
  for (const SummaryEvent& e : d.events) track_of.emplace(std::pair{e.core, e.unit}, 0);
  for (auto& [core_unit, index] : track_of) {  // by core (trace order), then unit
    index = static_cast<int>(tracks.size());
    tracks.push_back(d.cores[core_unit.first] + " " + std::string(isa::pipe_name(static_cast<isa::Pipe>(core_unit.second))));
  }
  std::string events = "[";
  auto number = [&events](uint64_t v) {
    char buf[24];
    events.append(buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
  };
  for (const SummaryEvent& e : d.events) {
    const int track = track_of.at({e.core, e.unit});
    const std::string text = (e.dispatch ? "dispatch " : "") + e.disasm + (e.source.empty() ? "" : "  @ " + e.source);
    auto [tt, tfresh] = text_id.emplace(text, static_cast<int>(texts.size()));
    if (tfresh) texts.push_back(text);
    int reason = 0;
    for (size_t r = 0; r < reasons.size(); ++r)
      if (e.reason == reasons[r]) reason = static_cast<int>(r);
    if (events.size() > 1) events += ',';
    const uint64_t fields[8] = {static_cast<uint64_t>(track), e.start, e.end, static_cast<uint64_t>(e.label),
                                e.dispatch ? 1u : 0u, e.stall, static_cast<uint64_t>(reason),
                                static_cast<uint64_t>(tt->second)};
    events += '[';
    for (int f = 0; f < 8; ++f) {
      if (f) events += ',';
      number(fields[f]);
    }
    events += ']';
  }
  events += ']';
  json counters = json::object();
  for (const CounterSample& c : d.counters) {
    double v = 0;
    for (const auto& kv : c.values) v += kv.second;  // HBM: read + write
    counters[c.name].push_back(json::array({c.cycle, v}));
  }
  return "{\"counters\":" + dump(counters) + ",\"events\":" + events + ",\"labels\":" + dump(d.labels) +
         ",\"reasons\":" + dump(reasons) + ",\"texts\":" + dump(texts) + ",\"tracks\":" + dump(tracks) + "}";
}

}  // namespace

HtmlReport html_report_of_run(const RunResult& r) {
  HtmlReport h;
  h.title = "npusim run " + r.info.case_path;
  if (!r.roofline.units.empty()) {
    HtmlTable b{"Bound (share of each unit's roofline; the first is the bound)", {"unit", "utilisation"}, {}};
    for (const UnitUse& u : r.roofline.units) b.rows.push_back({u.unit, pct(u.utilization)});
    h.tables.push_back(std::move(b));
  }
  HtmlTable n{"Numerics (docs/numerics.md comparison rule)", {"output", "golden", "verdict"}, {}};
  for (const OutputVerdict& v : r.verdicts)
    n.rows.push_back({v.tensor, v.compared ? v.golden_output : "-",
                      v.compared ? golden::format_result(v.tensor, v.result) : "not compared (no golden)"});
  n.rows.push_back({"Result", "", r.sim.timing_only ? "TIMING ONLY" : verdict_name(r.verdict())});
  h.tables.push_back(std::move(n));
  h.text_report = format_report(r);
  return h;
}

std::string render_html_report(const TraceData& d, const HtmlReport& report) {
  std::string data = trace_json(d);
  // Inside <script> only "</" could end the element early.
  for (size_t i = 0; (i = data.find("</", i)) != std::string::npos; i += 3) data.replace(i, 2, "<\\/");
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                  html_escape(report.title) + "</title>\n<style>" + kHtmlReportCss + "</style></head>\n<body>\n<h1>" +
                  html_escape(report.title) + "</h1>\n";
  o += "<div id=\"drawn\"></div>\n<h2>Timeline</h2>\n<p class=\"help\">wheel: zoom around the pointer, drag: pan, "
       "double-click: whole run; hover an instruction for its disassembly and source line</p>\n"
       "<div id=\"legend\"></div>\n<div id=\"tip\"></div>\n<canvas id=\"timeline\"></canvas>\n"
       "<h2>Memory over time</h2>\n<canvas id=\"counters\"></canvas>\n";
  o += table_html(label_table(d));
  for (const HtmlTable& t : report.tables) o += table_html(t);
  if (!report.text_report.empty()) o += "<h2>Report</h2>\n<pre>" + html_escape(report.text_report) + "</pre>\n";
  o += "<script type=\"application/json\" id=\"trace-data\">" + data + "</script>\n<script>" + kHtmlReportJs +
       "</script>\n</body></html>\n";
  return o;
}

}  // namespace npu::cli
