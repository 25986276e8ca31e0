// SVG charts of sweep results (sweep_plot.h).
#include "cli/lib/sweep_plot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "base/file_io.h"
#include "cli/lib/sweep_plan.h"
#include "cli/lib/sweep_results.h"
#include "hw/config/schema.h"
#include "isa/error.h"

extern char** environ;

namespace npu::cli {
namespace {

// A number or a size ("6MiB" -> bytes).
bool numeric(const std::string& s, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  if (!s.empty() && end && *end == '\0' && std::isfinite(*v)) return true;
  int64_t bytes = 0;
  if (hw::parse_size(s, bytes).empty()) {
    *v = static_cast<double>(bytes);
    return true;
  }
  return false;
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return o;
}

std::string num(double v) {
  char buf[32];
  if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-2)) std::snprintf(buf, sizeof buf, "%.3g", v);
  else std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// About five round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi) {
  if (hi <= lo) hi = lo + 1;
  const double raw = (hi - lo) / 5, mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(v);
  return t;
}

const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

bool on_path(const std::string& exe) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "";
  for (size_t a = 0; a <= p.size();) {
    size_t b = p.find(':', a);
    if (b == std::string::npos) b = p.size();
    if (b > a && ::access((p.substr(a, b - a) + "/" + exe).c_str(), X_OK) == 0) return true;
    a = b + 1;
  }
  return false;
}

}  // namespace

std::vector<std::string> write_sweep_plot(const PlotOptions& o) {
  const Table t = read_results_csv(o.dir);
  const SweepPlan plan = read_plan(o.dir);
  std::vector<std::string> axes;  // the axes with more than one value in the results
  for (const SweepAxis& a : plan.spec.axes) {
    const int c = t.column(a.name);
    std::set<std::string> vals;
    for (const auto& r : t.rows) vals.insert(r[c]);
    if (vals.size() > 1) axes.push_back(a.name);
  }
  const std::string x = !o.x.empty() ? o.x : !axes.empty() ? axes[0] : plan.spec.axes.empty() ? "point" : plan.spec.axes[0].name;
  const std::string y = o.y.empty() ? "cycles" : o.y;
  for (const std::string& c : {x, y, o.series})
    if (!c.empty() && t.column(c) < 0) {
      std::string cols;
      for (const std::string& n : t.columns) cols += (cols.empty() ? "" : ", ") + n;
      throw Error("sweep plot: error: results.csv has no column '" + c + "' (columns: " + cols + ")");
    }
  // An axis zipped with x (its value follows from x's) is neither a series nor averaged.
  auto follows = [&](const std::string& a, const std::string& by) {
    if (by.empty()) return false;
    std::map<std::string, std::string> seen;
    for (const auto& r : t.rows)
      if (!seen.emplace(r[t.column(by)], r[t.column(a)]).second && seen[r[t.column(by)]] != r[t.column(a)]) return false;
    return true;
  };
  std::vector<std::string> series_axes, averaged;
  for (const std::string& a : axes)
    if (a != x && !follows(a, x) && (a == o.series || !follows(a, o.series)))
      (o.series.empty() || a == o.series ? series_axes : averaged).push_back(a);
  if (!o.series.empty() && o.series != x && series_axes.empty()) series_axes.push_back(o.series);

  // (series label, x text) -> y values; x values in first-seen order, series likewise.
  const int xc = t.column(x), yc = t.column(y);
  std::vector<std::string> xs, series;
  std::map<std::pair<std::string, std::string>, std::vector<double>> cell;
  for (const auto& r : t.rows) {
    double v;
    if (!numeric(r[yc], &v)) continue;  // a failed point
    std::string s;
    for (const std::string& a : series_axes) s += (s.empty() ? "" : ", ") + a + "=" + r[t.column(a)];
    if (std::find(xs.begin(), xs.end(), r[xc]) == xs.end()) xs.push_back(r[xc]);
    if (std::find(series.begin(), series.end(), s) == series.end()) series.push_back(s);
    cell[{s, r[xc]}].push_back(v);
  }
  if (cell.empty()) throw Error("sweep plot: error: column '" + y + "' has no numbers in " + o.dir + "/results.csv");
  bool line = true;
  std::map<std::string, double> xnum;
  for (const std::string& v : xs) line = line && numeric(v, &xnum[v]);
  if (line) std::sort(xs.begin(), xs.end(), [&](const auto& a, const auto& b) { return xnum[a] < xnum[b]; });
  const bool logx = line && xnum[xs.front()] > 0 && xnum[xs.back()] / xnum[xs.front()] >= 16;
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double d : v) s += d;
    return s / v.size();
  };
  double ymax = 0, ymin = 0;
  for (const auto& [k, v] : cell) ymax = std::max(ymax, mean(v)), ymin = std::min(ymin, mean(v));

  // Layout: 460 high, plot area inside the margins, the legend (as wide as its labels) on the right.
  size_t longest = 0;
  for (const std::string& sr : series) longest = std::max(longest, sr.size());
  const double R = series.size() > 1 ? 50 + 7.0 * longest : 30, W = 560 + R, H = 460, L = 90, T = 50, B = 70;
  const double pw = W - L - R, ph = H - T - B;
  const std::vector<double> yt = ticks(ymin, ymax * 1.05);
  const double y0 = std::min(ymin, yt.front()), y1 = std::max(ymax, yt.back());
  auto py = [&](double v) { return T + ph - (v - y0) / (y1 - y0) * ph; };
  const double xlo = line ? (logx ? std::log2(xnum[xs.front()]) : xnum[xs.front()]) : 0;
  const double xhi = line ? (logx ? std::log2(xnum[xs.back()]) : xnum[xs.back()]) : 1;
  auto px_line = [&](const std::string& v) {
    const double d = logx ? std::log2(xnum[v]) : xnum[v];
    return xhi > xlo ? L + (d - xlo) / (xhi - xlo) * pw : L + pw / 2;
  };
  std::string title = y + " vs " + x;
  if (!averaged.empty()) {
    title += " (mean over";
    for (const std::string& a : averaged) title += " " + a;
    title += ")";
  }
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W) + "\" height=\"" + num(H) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + num(W / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" + esc(title) + "</text>\n";
  if (!plan.spec.description.empty())
    svg += "<text x=\"" + num(W / 2) + "\" y=\"40\" text-anchor=\"middle\" fill=\"#555\">" + esc(plan.spec.description) + "</text>\n";
  for (double v : yt) {
    svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(L + pw) + "\" y1=\"" + num(py(v)) + "\" y2=\"" + num(py(v)) +
           "\" stroke=\"#ddd\"/>\n<text x=\"" + num(L - 6) + "\" y=\"" + num(py(v) + 4) + "\" text-anchor=\"end\">" +
           num(v) + "</text>\n";
  }
  svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(L) + "\" y1=\"" + num(T) + "\" y2=\"" + num(T + ph) + "\" stroke=\"black\"/>\n";
  svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(L + pw) + "\" y1=\"" + num(T + ph) + "\" y2=\"" + num(T + ph) + "\" stroke=\"black\"/>\n";
  svg += "<text x=\"" + num(L + pw / 2) + "\" y=\"" + num(H - 20) + "\" text-anchor=\"middle\">" + esc(x) +
         (logx ? " (log scale)" : "") + "</text>\n";
  svg += "<text transform=\"translate(18," + num(T + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" + esc(y) + "</text>\n";
  const double slot = pw / xs.size(), bar = slot * 0.8 / series.size();
  for (size_t i = 0; i < xs.size(); ++i) {
    const double cx = line ? px_line(xs[i]) : L + slot * (i + 0.5);
    svg += "<text x=\"" + num(cx) + "\" y=\"" + num(T + ph + 18) + "\" text-anchor=\"middle\">" + esc(xs[i]) + "</text>\n";
  }
  for (size_t s = 0; s < series.size(); ++s) {
    const char* colour = kColours[s % (sizeof kColours / sizeof *kColours)];
    std::string pts;
    for (size_t i = 0; i < xs.size(); ++i) {
      auto it = cell.find({series[s], xs[i]});
      if (it == cell.end()) continue;
      const double v = mean(it->second);
      if (line) {
        const double cx = px_line(xs[i]);
        pts += num(cx) + "," + num(py(v)) + " ";
        svg += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(py(v)) + "\" r=\"3.5\" fill=\"" + colour + "\"><title>" +
               esc(series[s] + " " + x + "=" + xs[i] + ": " + y + "=" + num(v)) + "</title></circle>\n";
      } else {
        const double bx = L + slot * i + slot * 0.1 + bar * s, top = py(std::max(v, 0.0)), base = py(std::min(v, 0.0));
        svg += "<rect x=\"" + num(bx) + "\" y=\"" + num(top) + "\" width=\"" + num(bar) + "\" height=\"" +
               num(base - top) + "\" fill=\"" + colour + "\"><title>" + esc(series[s] + " " + x + "=" + xs[i] + ": " + y +
               "=" + num(v)) + "</title></rect>\n";
      }
    }
    if (line) svg += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"/>\n";
    if (series.size() > 1) {
      const double ly = T + 10 + 20 * s;
      svg += "<rect x=\"" + num(W - R + 12) + "\" y=\"" + num(ly - 9) + "\" width=\"14\" height=\"10\" fill=\"" + colour +
             "\"/>\n<text x=\"" + num(W - R + 32) + "\" y=\"" + num(ly) + "\">" + esc(series[s]) + "</text>\n";
    }
  }
  svg += "</svg>\n";

  const std::string out = !o.out.empty() ? o.out : o.dir + "/plot-" + y + "-vs-" + x + ".svg";
  write_file_atomic(out, svg);
  std::vector<std::string> written = {out};
  if (on_path("rsvg-convert")) {  // optional PNG
    const std::string png = out.substr(0, out.size() - (out.size() > 4 && out.compare(out.size() - 4, 4, ".svg") == 0 ? 4 : 0)) + ".png";
    const char* argv[] = {"rsvg-convert", "-o", png.c_str(), out.c_str(), nullptr};
    pid_t pid;
    int ws = 0;
    if (::posix_spawnp(&pid, "rsvg-convert", nullptr, nullptr, const_cast<char**>(argv), environ) == 0 &&
        ::waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
      written.push_back(png);
  }
  return written;
}

}  // namespace npu::cli
