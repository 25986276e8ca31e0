// docs/fidelity.md's decode weight-streaming and b_trans sections (report_parts.h). The figures
// in the prose are computed from the rows, so the text follows the model when it changes.
#include <algorithm>
#include <cmath>
#include <numeric>

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

std::string btrans_anchor_section(const std::vector<LayoutAnchor>& rows, const hw::HwConfig& chip) {
  std::string md = R"(## Whole-chip anchor: the cost of b_trans (pypto, decode matmul)

Published: one decode matmul y[16, N] = x[16, K] . W on a2a3 (910B / 910C class; the exact part
not stated), the same kernel with W given as [K, N] and with the same numbers as [N, K]
(`b_trans=True`, an NZ <-> ZN reinterpretation, no extra instruction), the b_trans overhead by
weight tile: TK rows of K by TN columns (github hw-native-sys/pypto issue 2309;
`calibration/pypto_btrans_overhead.csv`; K = 5120 and M = 16 assumed from the issue's text).
Model: `kernels/gemm_decode_tiles.s` through `kernels/cases/gemm_decode_tiles_kn.yaml` and
`_nk.yaml` `--var M=16 --var K=.. --var N=.. --var TK=.. --var TN=.. --timing-only`: one N tile
per AIC (block_dim = N / TN, as a pypto spmd over the N tiles), K streamed in [TK, TN] tiles (one
DMA each: [K, N] is TK rows of TN x 2 bytes, [N, K] is TN rows of TK x 2 bytes, converted ND -> NZ
on the way into L1 as the cube's tile loads need it, `mov_gm_l1_nz`) through as many L1 stages
as fit (at most 4), L0B sub-tiles, cache hints and flags of `lib/gemm_kn.inc`.
Overhead = time([N, K]) / time([K, N]) - 1; the difference is model minus published, in points.
The last columns: both mappings plain `modulo` instead of the shipped `xor`, then the shipped
mappings with a larger MTE request window, `mte.max_outstanding` )" +
                   std::to_string(rows.empty() ? 0 : rows.front().window) + " (the config's " +
                   std::to_string(chip.mte.max_outstanding) + R"().

| tile | published overhead | model [K, N] us | model [N, K] us | model overhead | difference | the model's runs: [K, N]; [N, K] | modulo | window 512 |
|---|---|---|---|---|---|---|---|---|
)";
  for (const LayoutAnchor& a : rows)
    md += fmt::format("| {} | {} | {:.1f} | {:.1f} | {} | {} | {}; {} | {} | {} |\n", a.tile, pct(a.measured), a.kn_us,
                      a.nk_us, pct(a.model()), points(a.model() - a.measured), escape(a.detail_kn),
                      escape(a.detail_nk), pct(a.model_modulo()), pct(a.model_window()));
  std::string prose;
  // The prose's rows: the equal-burst tile, then the short-burst tiles (TK < TN) by N tiles.
  const LayoutAnchor* square = nullptr;
  std::vector<const LayoutAnchor*> narrow;
  for (const LayoutAnchor& a : rows) {
    if (a.tk == a.tn && !square) square = &a;
    if (a.tk < a.tn) narrow.push_back(&a);
  }
  if (square) {
    const int64_t row_bytes = 2 * square->k, lines = row_bytes / int64_t(chip.l2.line);
    const std::string apart = square->k == square->n ? fmt::format("{} bytes apart in both layouts", 2 * square->k)
                              : fmt::format("{} bytes apart in [N, K] and {} in [K, N]", 2 * square->k, 2 * square->n);
    prose += fmt::format(R"(
What it shows. With equal bursts (TK = TN = {}: {}-byte bursts, {}) the model's b_trans costs {} against the chip's {}. Plain `modulo` mappings would
put a [N, K] tile's TN rows (K x 2 = {} bytes = {} L2 lines apart) on only {} of the {} slices
and HBM channels (gcd({}, {}) = {}); each AIC takes its K chunks starting at its own `block_idx`
(`kn_k0` in lib/gemm_kn.inc, from the MLAProlog work), so the AICs at one step do not all queue
on the same few.)",
                      square->tk, 2 * square->tk, apart, pct(square->model()),
                      pct(square->measured), row_bytes, lines, modulo_slices(uint64_t(row_bytes), chip), chip.l2.slices,
                      lines, chip.l2.slices, std::gcd(uint64_t(lines), uint64_t{chip.l2.slices}));
  }
  if (!narrow.empty()) {
    const LayoutAnchor& f = *narrow.front();
    const double burst = 2.0 * double(f.tk), window = chip.mte.max_outstanding;
    const double per_core = window * std::min(burst, double(chip.l2.line)) / chip.l2.read_hit_latency;
    const double hbm = chip.hbm.bandwidth_gbps / chip.chip.clock_ghz;
    // A tile DMA's floor on one core: the conversion's startup, one L2 round trip, the bytes at the link.
    const double tile = 2.0 * double(f.tk) * double(f.tn), link = chip.noc.aic_read_bytes_per_cycle;
    const double floor = double(chip.mte.gm_l1_nz.startup) + double(chip.l2.read_hit_latency) + tile / link;
    prose += fmt::format(R"( Where TK < TN, both layouts pay for the conversion: the model charges its
{}-cycle startup (`mte.gm_l1_nz`) before a DMA's first request, and a core's tile DMAs are serial,
so a {:g} KiB tile takes at least {} + {} (the L2 round trip) + {:.0f} (at the {:g} B/cycle link)
= {:.0f} cycles, ~{:.0f} B/cycle per core. The [N, K] side also meets the MTE's request window: its
tile is bursts of {:g} bytes, one line request each, so the `mte.max_outstanding` {:g} requests
hold {:g} KiB in flight instead of {:g} KiB, and a core streams about {:g} x {:g} B per L2 round
trip, ~{:.0f} B/cycle, below its link.)",
                      chip.mte.gm_l1_nz.startup, tile / 1024, chip.mte.gm_l1_nz.startup, chip.l2.read_hit_latency,
                      tile / link, link, floor, tile / floor, burst, window, window * burst / 1024,
                      window * chip.l2.line / 1024, window, burst, per_core);
    std::vector<std::string> chip_grows;
    for (const LayoutAnchor* a : narrow) {
      const int64_t cores = a->tn > 0 ? a->n / a->tn : 0;
      const double ratio = a->measured != 0 ? a->model() / a->measured : 0.0;
      const bool below = cores * per_core < hbm;
      prose += fmt::format(R"( With TN = {}, {} AICs stream and together {} the HBM's {:.0f} B/cycle at
that rate; the model charges {:.2f} times the chip's overhead ({} against {}).)",
                        a->tn, cores, below ? "stay below" : "exceed", hbm, ratio, pct(a->model()),
                        pct(a->measured));
      chip_grows.push_back(fmt::format("{} on {} cores", pct(a->measured), cores));
    }
    prose += fmt::format(R"( A window of {} requests: the last column.

The chip's overhead by core count ({}) is not a per-core latency limit like this window, which
weighs most where few cores share the path; the chip's cost of short bursts may grow with the
load on the shared path (L2 slice request rate, HBM row switching), which the model does not
charge for a partial-line request; no public figure isolates it, so nothing was fitted. The
window (an assumption in the config, sized by Little's law for whole-line requests) stays as it
is.

)",
                      f.window, and_list(chip_grows));
  } else {
    prose += "\n\n";
  }
  md += wrap(prose);
  return md;
}

}  // namespace npu::calib
