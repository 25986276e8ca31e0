#pragma once
// `npusim run --html FILE` and `npusim trace-summary FILE --html OUT`: one self-contained HTML
// page (no network, no external script or style: the CSS and the canvas-drawing script are
// inline, written here) with
//   - a zoomable timeline (canvas): one track per core and unit that has events, instructions
//     coloured by semantic label, the stall before each instruction (flag / cross-core / barrier
//     / queue-full waits and memory stalls) in the colour of its reason; wheel zooms around the
//     pointer, drag pans, double-click resets;
//   - HBM bandwidth and L2 hit rate over time (the trace's counters), on the timeline's x axis;
//   - the per-label table (instructions and busy cycles per pipe, summed over cores);
//   - from a run: the bound (units by share of their roofline), the numerics verdicts and the
//     text report.
// After drawing, the script writes what it drew into <div id="drawn" data-tracks data-events
// data-waits data-counters> (tests read it from the DOM). The output depends only on its
// inputs (no dates, no random colours), so it is deterministic.
#include <string>
#include <vector>

#include "cli/lib/trace_summary_read.h"

namespace npu::cli {

struct RunResult;

// A table of the page besides the timeline (cells are text; the page escapes them).
struct HtmlTable {
  std::string heading;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

struct HtmlReport {
  std::string title;                // "npusim run cases/x.yaml"
  std::vector<HtmlTable> tables;    // after the per-label table (bound, numerics)
  std::string text_report;          // shown verbatim at the end ("" = none)
};

// The bound and numerics tables and the text report of a run (format_report).
HtmlReport html_report_of_run(const RunResult& r);

std::string render_html_report(const TraceData& d, const HtmlReport& report);

// The page's inline stylesheet and script (html_report_assets.cc).
extern const char* const kHtmlReportCss;
extern const char* const kHtmlReportJs;

}  // namespace npu::cli
