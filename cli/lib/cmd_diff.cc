// npusim diff OUT_A OUT_B: two runs side by side (run_metrics.h): total and per-label cycles,
// bound, per-tensor L2 hit rates and bypasses, HBM bytes and bandwidth, with B - A deltas.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/lib/commands.h"
#include "cli/lib/run_case.h"
#include "cli/lib/run_metrics.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

struct Line {
  std::string what, a, b, delta;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Integers with a signed difference and its ratio to A.
Line count_line(const std::string& what, double a, double b) {
  std::string d = b == a ? "=" : fmt("%+.0f", b - a);
  if (b != a && a != 0) d += fmt(" (%+.1f%%)", 100 * (b - a) / a);
  return {what, fmt("%.0f", a), fmt("%.0f", b), d};
}

Line rate_line(const std::string& what, double a, double b) {
  return {what, fmt("%.1f%%", 100 * a), fmt("%.1f%%", 100 * b), b == a ? "=" : fmt("%+.1f pp", 100 * (b - a))};
}

Line text_line(const std::string& what, const std::string& a, const std::string& b) {
  return {what, a.empty() ? "-" : a, b.empty() ? "-" : b, a == b ? "=" : "changed"};
}

std::vector<Line> diff_lines(const RunMetrics& a, const RunMetrics& b) {
  std::vector<Line> out;
  if (a.cycles && b.cycles) out.push_back(count_line("cycles", *a.cycles, *b.cycles));
  if (a.us && b.us) out.push_back({"time (us)", fmt("%.3f", *a.us), fmt("%.3f", *b.us), fmt("%+.3f", *b.us - *a.us)});
  out.push_back(text_line("bound", a.bound, b.bound));
  for (const LabelMetrics& la : a.labels)
    for (const LabelMetrics& lb : b.labels)
      if (la.label == lb.label && la.core_type == lb.core_type) {
        const std::string name = "label " + la.label + " (" + la.core_type + ")";
        out.push_back(count_line(name + " cycles", la.cycles, lb.cycles));
        out.push_back(text_line(name + " bound", la.bound, lb.bound));
      }
  for (const TensorL2& ta : a.tensors)
    for (const TensorL2& tb : b.tensors)
      if (ta.tensor == tb.tensor) {
        out.push_back(rate_line("L2 " + ta.tensor + " hit rate", ta.hit_rate, tb.hit_rate));
        out.push_back(count_line("L2 " + ta.tensor + " bypasses", ta.bypasses, tb.bypasses));
      }
  out.push_back(count_line("HBM read bytes", a.hbm_read_bytes, b.hbm_read_bytes));
  out.push_back(count_line("HBM write bytes", a.hbm_write_bytes, b.hbm_write_bytes));
  out.push_back({"HBM GB/s", fmt("%.1f", a.hbm_gbps), fmt("%.1f", b.hbm_gbps), fmt("%+.1f", b.hbm_gbps - a.hbm_gbps)});
  out.push_back(text_line("numerics", a.verdict, b.verdict));
  return out;
}

}  // namespace

void register_diff(CLI::App& app) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto* diff = app.add_subcommand("diff", "Two runs side by side (`npusim run --out` or sweep point directories): "
                                          "cycles, labels, bound, L2 per tensor, HBM, with deltas");
  diff->add_option("dirs", *dirs, "OUT_A OUT_B")->required()->expected(2);
  diff->callback([dirs] {
    std::vector<Line> lines;
    try {
      lines = diff_lines(read_run_metrics_dir((*dirs)[0]), read_run_metrics_dir((*dirs)[1]));
    } catch (const npu::Error& e) {
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    lines.insert(lines.begin(), Line{"", "A", "B", "B - A"});
    size_t w[3] = {0, 0, 0};
    for (const Line& l : lines) {
      w[0] = std::max(w[0], l.what.size());
      w[1] = std::max(w[1], l.a.size());
      w[2] = std::max(w[2], l.b.size());
    }
    std::cout << "A: " << (*dirs)[0] << "\nB: " << (*dirs)[1] << "\n\n";
    for (const Line& l : lines)
      std::cout << l.what << std::string(w[0] - l.what.size() + 2, ' ') << std::string(w[1] - l.a.size(), ' ') << l.a
                << "  " << std::string(w[2] - l.b.size(), ' ') << l.b << "  " << l.delta << "\n";
  });
}

}  // namespace npu::cli
