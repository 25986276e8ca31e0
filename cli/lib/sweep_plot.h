#pragma once
// `npusim sweep plot DIR [--x AXIS] [--y METRIC] [--series AXIS] [--out FILE.svg]`: a chart of a
// sweep's results.csv, written as SVG directly (no plotting dependency; the file opens in any
// browser), plus a PNG beside it when rsvg-convert (Debian librsvg2-bin) is on PATH.
// A numeric x axis (numbers or sizes such as 6MiB) gives a line chart (log2 scale when the values
// span 16x or more), anything else grouped bars. Rows that differ only in axes that are neither x
// nor a series are averaged (the title says which).
#include <string>
#include <vector>

namespace npu::cli {

struct PlotOptions {
  std::string dir, x, y, series, out;  // "" = the default
};

// Returns the files written; npu::Error for an unknown column or a metric without numbers.
std::vector<std::string> write_sweep_plot(const PlotOptions& o);

}  // namespace npu::cli
