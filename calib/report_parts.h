#pragma once
// Pieces of the markdown reports (calib_report.cc, fidelity_anchors.cc): number formats, table
// cell escaping, and the whole-chip anchor sections of docs/fidelity.md.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "calib/calib.h"

namespace npu::calib {

inline std::string pct(double e) { return fmt::format("{:+.1f} %", 100 * e); }   // signed
inline std::string apct(double e) { return fmt::format("{:.1f} %", 100 * e); }   // unsigned

// A table cell: '|' escaped.
inline std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

// docs/fidelity.md's sections for the vendor GEMM series on kernels/gemm_chip.s, the decode
// weight-streaming and the b_trans anchors.
// `chip`: the config the anchors ran on (its figures in the prose).
std::string gemm_chip_section(const std::vector<ChipAnchor>& rows, const hw::HwConfig& chip);
std::string gemm_dtype_section(const std::vector<DtypeGemmAnchor>& rows, const hw::HwConfig& chip);
std::string decode_anchor_section(const std::vector<StreamAnchor>& rows);
std::string btrans_anchor_section(const std::vector<LayoutAnchor>& rows, const hw::HwConfig& chip);

// The range [lo, hi] of f over the rows (anchors with a size n) with n in [n_lo, n_hi], as "lo<sep>hi" (one value:
// "lo"; no row: "-"), each formatted with fmt_one.
template <class Row, class F>
std::string range(const std::vector<Row>& rows, double n_lo, double n_hi, const char* fmt_one, F f,
                  const char* sep = "-") {
  double lo = 1e300, hi = -1e300;
  for (const Row& a : rows)
    if (a.n >= n_lo && a.n <= n_hi) {
      lo = std::min(lo, f(a));
      hi = std::max(hi, f(a));
    }
  if (lo > hi) return "-";
  const std::string l = fmt::format(fmt::runtime(fmt_one), lo), h = fmt::format(fmt::runtime(fmt_one), hi);
  return l == h ? l : l + sep + h;
}

// Under `modulo` interleaving, how many of the config's L2 slices (and as many HBM channels) rows
// `stride_bytes` apart fall on: slices / gcd(stride / line, slices) for a whole number of lines.
uint64_t modulo_slices(uint64_t stride_bytes, const hw::HwConfig& c);
// Prose with figures filled in, re-wrapped: every paragraph (blank-line separated) of `text` as
// lines of at most `width` characters (a longer word stays whole); leading and trailing newlines
// are kept.
std::string wrap(const std::string& text, size_t width = 100);
// "a, b and c" (one: "a"; none: "").
std::string and_list(const std::vector<std::string>& items);
// The share of the row's bf16 peak that `tflops` is, in percent.
inline double share(double tflops, const ChipAnchor& a) { return a.peak > 0 ? 100 * tflops / a.peak : 0.0; }

}  // namespace npu::calib
