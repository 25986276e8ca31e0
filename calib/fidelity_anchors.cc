// docs/fidelity.md's decode weight-streaming and b_trans sections (report_parts.h). The figures
// in the prose are computed from the rows, so the text follows the model when it changes.
#include <algorithm>
#include <cmath>

#include "calib/report_parts.h"

namespace npu::calib {

namespace {

// Bytes over microseconds, in GB/s (1e9 B/s).
double gbps(double bytes, double us) { return us > 0 ? bytes / us / 1e3 : 0.0; }

std::string points(double d) { return fmt::format("{:+.1f} points", 100 * d); }

}  // namespace

std::string decode_anchor_section(const std::vector<StreamAnchor>& rows) {
  std::string md = R"(## Whole-chip anchor: decode weight streaming (vLLM-Ascend, QwQ-32B)

Published: the FFN projections of one decode token (batch 1) of QwQ-32B at tensor parallel 4
through the vendor kernels (`MatMulV2_ND_ND_FP16_FP16_false_true`, W as [N, K];
`matmulV3_ND_ND_int8_int8_fp32_bf16` for W8A8), device times from a profile: up/gate proj
~110 us, down proj ~60 us (bf16), up/gate ~93 us (W8A8); the thread calls the decode FFN "MTE2
bound" (github vllm-project/vllm-ascend issue 4167; `calibration/vllm_ascend_qwq32b_decode.csv`).
**The thread does not name the device**; vllm-ascend's targets are Atlas A2 / A3 (910B / 910C
class), so it is compared with `configs/ascend910b.yaml`. The shapes are derived (README of
calibration/): hidden 5120, intermediate 27648, gate and up merged, 4 ranks: up/gate
K = 5120, N = 2 x 27648 / 4 = 13824; down K = 27648 / 4 = 6912, N = 5120. Model:
`npusim run kernels/cases/linear_bf16.yaml` (W [N, K], as the vendor kernel's `true`; the
model's kernels keep W NZ in GM, the vendor kernel's name says ND) or `linear_w8a8.yaml`
`--var M=1 --var K=.. --var N=.. --timing-only`. HBM columns: bytes of W
over the time, the published and the model's; the bound column is the model's run (the two
units nearest their limit, then its HBM bandwidth).

| job | published us | model us | error | HBM published | HBM model | the model's run | bound | model, both mappings modulo | error |
|---|---|---|---|---|---|---|---|---|---|
)";
  for (const StreamAnchor& a : rows)
    md += fmt::format("| {} | {:.0f} | {:.1f} | {} | {:.0f} GB/s | {:.0f} GB/s | {} | {} | {:.1f} | {} |\n", a.job,
                      a.measured_us, a.model_us, pct(a.rel_err()), gbps(a.weight_bytes, a.measured_us),
                      gbps(a.weight_bytes, a.model_us), a.how, escape(a.detail), a.model_modulo_us,
                      pct((a.model_modulo_us - a.measured_us) / a.measured_us));
  // The bf16 rows: the share of the config's HBM bandwidth each side reaches.
  double pub_lo = 1, pub_hi = 0, mod_lo = 1, mod_hi = 0, peak = 0, mb_lo = 1e300, mb_hi = 0, err_lo = 1, err_hi = 0;
  const StreamAnchor* w8 = nullptr;
  for (const StreamAnchor& a : rows) {
    if (a.job.find(" w8a8") != std::string::npos) {
      w8 = &a;
      continue;
    }
    peak = a.hbm_peak_gbps;
    const double p = gbps(a.weight_bytes, a.measured_us) / peak, m = gbps(a.weight_bytes, a.model_us) / peak;
    pub_lo = std::min(pub_lo, p), pub_hi = std::max(pub_hi, p), mod_lo = std::min(mod_lo, m), mod_hi = std::max(mod_hi, m);
    mb_lo = std::min(mb_lo, a.weight_bytes / 1e6), mb_hi = std::max(mb_hi, a.weight_bytes / 1e6);
    err_lo = std::min(err_lo, std::abs(a.rel_err())), err_hi = std::max(err_hi, std::abs(a.rel_err()));
  }
  // The bf16 row of the W8A8 row's shape (twice its bytes).
  const StreamAnchor* bf_same = nullptr;
  for (const StreamAnchor& a : rows)
    if (w8 && a.weight_bytes == 2 * w8->weight_bytes) bf_same = &a;
  md += fmt::format(R"(
What it shows. Both bf16 projections are long weight streams ({:.0f}-{:.0f} MB, no reuse), and the
model is MTE2-bound on them, as the thread says of the real kernels, with HBM close behind: it
sustains {:.0f}-{:.0f} % of the config's `hbm.bandwidth_gbps` ({:.0f} GB/s), where the published
kernels reach {:.0f}-{:.0f} % of that figure. So the model is optimistic, by {:.0f}-{:.0f} %, and the
mechanism is the HBM's sustained rate: the model books each channel at its peak bytes per cycle
with a fixed `hbm.latency`, so a long stream loses nothing to refresh, row-buffer misses or bank
conflicts, and the peak itself is a community estimate (low confidence in the config). A
sustained-efficiency factor fitted to these two rows would be one figure tuned to one case, so
none is applied; another public HBM streaming measurement of the part (a device-side copy
bandwidth) could set it independently. Plain `modulo` mappings change little here (the column
beside): the streams are long enough to cover every channel either way.
)",
                    mb_lo, mb_hi, 100 * mod_lo, 100 * mod_hi, peak, 100 * pub_lo, 100 * pub_hi, 100 * err_lo,
                    100 * err_hi);
  if (w8 && bf_same)
    md += fmt::format(R"(
W8A8 is far off, and the figure is kept as it is: the published int8 kernel takes {:.2f} of the
bf16 kernel's time for half the bytes, the model {:.2f}. The model's `linear_w8a8.s` is bound by
the bytes it streams; it runs as two launches, gate and up (it keeps w_scale in 32 KiB of L1,
N <= 8192), each with its own launch cost and pipeline fill, hence above 0.5. The thread
itself calls the int8 kernel's speed-up below expectations; whatever limits it (its tiling, the int8 -> fp32 -> bf16 epilogue, the way it
reads W) is a property of the vendor kernel the model does not have, not of the memory system.
The row shows what a byte-bound W8A8 decode kernel would take on the modelled chip.
)",
                      w8->measured_us / bf_same->measured_us, w8->model_us / bf_same->model_us);
  return md + "\n";
}

std::string btrans_anchor_section(const std::vector<LayoutAnchor>& rows) {
  std::string md = R"(## Whole-chip anchor: the cost of b_trans (pypto, decode matmul)

Published: one decode matmul y[16, N] = x[16, K] . W on a2a3 (910B / 910C class; the exact part
not stated), the same kernel with W given as [K, N] and with the same numbers as [N, K]
(`b_trans=True`, an NZ <-> ZN reinterpretation, no extra instruction), the b_trans overhead by
weight tile: TK rows of K by TN columns (github hw-native-sys/pypto issue 2309;
`calibration/pypto_btrans_overhead.csv`; K = 5120 and M = 16 assumed from the issue's text).
Model: `kernels/gemm_decode_tiles.s` through `kernels/cases/gemm_decode_tiles_kn.yaml` and
`_nk.yaml` `--var M=16 --var K=.. --var N=.. --var TK=.. --var TN=.. --timing-only`: one N tile
per AIC (block_dim = N / TN, as a pypto spmd over the N tiles), K streamed in [TK, TN] tiles (one
DMA each: [K, N] is TK bursts of TN x 2 bytes, [N, K] is TN bursts of TK x 2 bytes) through as
many L1 stages as fit (at most 4), L0B sub-tiles, cache hints and flags of `lib/gemm_kn.inc`.
Overhead = time([N, K]) / time([K, N]) - 1; the difference is model minus published, in points.
The last columns: both mappings plain `modulo` instead of the shipped `xor`, then the shipped
mappings with `mte.max_outstanding` 512 (4x).

| tile | published overhead | model [K, N] us | model [N, K] us | model overhead | difference | the model's runs: [K, N]; [N, K] | modulo | window 512 |
|---|---|---|---|---|---|---|---|---|
)";
  for (const LayoutAnchor& a : rows)
    md += fmt::format("| {} | {} | {:.1f} | {:.1f} | {} | {} | {}; {} | {} | {} |\n", a.tile, pct(a.measured), a.kn_us,
                      a.nk_us, pct(a.model()), points(a.model() - a.measured), escape(a.detail_kn),
                      escape(a.detail_nk), pct(a.model_modulo()), pct(a.model_window()));
  md += R"(
What it shows. With equal bursts (TK = TN = 256: 512-byte bursts 10240 bytes apart in both
layouts) the model's b_trans costs what the chip reports. That holds only because each AIC takes
its K chunks starting at its own `block_idx` (`kn_k0` in lib/gemm_kn.inc, from the MLAProlog
work): a [N, K] row is K x 2 = 10240 bytes = 20 L2 lines, so one tile's TN rows fall on only 8
of the 32 slices and HBM channels (gcd(20, 32) = 4), and without the rotation every AIC, at the
same k, queued on the same 8 (under `modulo` mappings the model then charged +32 % at this tile,
the GEMM anchor's n = 8192 effect again). What is left at TK = 64 is the MTE's
request window: a [N, K] tile is then bursts of 128 bytes, one line request each, so the
`mte.max_outstanding` 128 requests hold 16 KiB in flight instead of 64 KiB, and a core streams
about 128 x 128 B per L2 round trip (241 cycles), ~68 B/cycle, below its 171 B/cycle link. With
TN = 512 only 10 AICs stream and together stay below the HBM bandwidth, so the window shows in
full (the model charges over three times the chip's overhead); with TN = 1024, 17 AICs still
nearly saturate HBM in both layouts and the model charges a third of what the chip pays. A
window of 512 requests removes it (last column).
The chip's overhead grows the other way (+15.8 % on 10 cores, +23.2 % on 17), so its cost of
short bursts is not a per-core latency limit like this window but grows with the load on the
shared path (L2 slice request rate, HBM row switching), which the model does not charge for a
partial-line request; no public figure isolates it, so nothing was fitted. The window (an
assumption in the config, sized by Little's law for whole-line requests) stays as it is.

)";
  return md;
}

}  // namespace npu::calib
