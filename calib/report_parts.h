#pragma once
// Pieces of the markdown reports (calib_report.cc, fidelity_anchors.cc): number formats, table
// cell escaping, and the whole-chip anchor sections of docs/fidelity.md.
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
std::string gemm_chip_section(const std::vector<ChipAnchor>& rows);
std::string decode_anchor_section(const std::vector<StreamAnchor>& rows);
std::string btrans_anchor_section(const std::vector<LayoutAnchor>& rows);

}  // namespace npu::calib
