// docs/fidelity.md's section for the fp16 and fp32 series of the vendor GEMM source on
// kernels/linear_f16.s and linear_f32.s (report_parts.h). Figures in the prose come from the rows.
#include <algorithm>

#include "calib/report_parts.h"

namespace npu::calib {

namespace {

// The rows of one dtype.
std::vector<DtypeGemmAnchor> of_dtype(const std::vector<DtypeGemmAnchor>& rows, const std::string& dtype) {
  std::vector<DtypeGemmAnchor> out;
  for (const DtypeGemmAnchor& a : rows)
    if (a.dtype == dtype) out.push_back(a);
  return out;
}

double peak_of(const std::vector<DtypeGemmAnchor>& rows, const std::string& dtype) {
  for (const DtypeGemmAnchor& a : rows)
    if (a.dtype == dtype) return a.peak;
  return 0;
}

}  // namespace

std::string gemm_dtype_section(const std::vector<DtypeGemmAnchor>& rows, const hw::HwConfig& chip) {
  std::string md = wrap(fmt::format(R"(## Whole-chip anchor: the same source's fp16 and fp32 series

The same issue publishes, from the same 910B2 and run, the series for fp16 and fp32 inputs
(`calibration/910b2_gemm_f16_f32_vendor.csv`; its TF32 series, within 1.2 % of the fp32 one at
n >= 2048, is not used). Model: `kernels/linear_f16.s` and `kernels/linear_f32.s`, the program of
`kernels/linear.s` with fp16 / fp32 data (`npusim run kernels/cases/linear_f16.yaml` /
`linear_f32.yaml --var M=n --var K=n --var N=n --timing-only`). A dtype's peak is `chip.clusters`
x `cube.m0` x `cube.n0` x its k0 x 2 FLOP per cycle: {:.1f} TFLOPS for fp16 (`cube.k0.b16` = {}),
{:.1f} for fp32 (`cube.k0.f32` = {}). The bf16 column is the same source's bf16 figure.
)",
                                    peak_of(rows, "fp16"), chip.cube.k0_b16, peak_of(rows, "fp32"), chip.cube.k0_f32));
  md += fmt::format(R"(
| job | published TFLOPS | share of the dtype's peak | same source, bf16 | model TFLOPS | error | the model's run: bound, L2, HBM | model, `cube.k0.f32` = {} | error |
|---|---|---|---|---|---|---|---|---|
)",
                    kFractalK0F32);
  for (const DtypeGemmAnchor& a : rows) {
    const bool alt = a.model_fractal_rate > 0;
    md += fmt::format("| {} GEMM n = {:.0f} | {:.2f} | {:.0f} % | {:.1f} | {:.1f} | {} | {} | {} | {} |\n", a.dtype, a.n,
                      a.measured, a.peak > 0 ? 100 * a.measured / a.peak : 0.0, a.bf16_measured, a.model,
                      pct(a.rel_err()), escape(a.detail), alt ? fmt::format("{:.1f}", a.model_fractal_rate) : "-",
                      alt ? pct(a.model_fractal_rate / a.measured - 1) : "-");
  }
  const auto err = [](const DtypeGemmAnchor& a) { return 100 * a.rel_err(); };
  const auto gap = [](const DtypeGemmAnchor& a) {
    return a.bf16_measured > 0 ? 100 * (a.measured / a.bf16_measured - 1) : 0.0;
  };
  const auto pub_share = [](const DtypeGemmAnchor& a) { return a.peak > 0 ? 100 * a.measured / a.peak : 0.0; };
  const auto bf16_share = [&](const DtypeGemmAnchor& a) {
    return a.peak > 0 ? 100 * a.bf16_measured / peak_of(rows, "fp16") : 0.0;
  };
  const std::vector<DtypeGemmAnchor> fp16 = of_dtype(rows, "fp16"), fp32 = of_dtype(rows, "fp32");
  const double k0 = chip.cube.k0_f32, peak32 = peak_of(rows, "fp32");
  const double peak8 = k0 > 0 ? peak32 * kFractalK0F32 / k0 : 0.0;
  const auto share8 = [&](const DtypeGemmAnchor& a) { return peak8 > 0 ? 100 * a.measured / peak8 : 0.0; };
  const auto err8 = [](const DtypeGemmAnchor& a) {
    return a.model_fractal_rate > 0 ? 100 * (a.model_fractal_rate / a.measured - 1) : 0.0;
  };
  md += wrap(fmt::format(R"(
**fp16** has bf16's rates in the model (the same k0, the same bytes), so its runs take the
cycles of the bf16 runs of `kernels/linear.s`; the errors differ from the bf16 section's by the
published difference. That difference is the source's own spread where the modelled rates are
equal: the fp16 figures are {} % of the bf16 ones at n >= 2048 (errors {} % at n >= 2048).

**fp32** moves twice the bytes per multiply-add and runs the cube at `cube.k0.f32` = {:g} per
cycle. No per-instruction table measures that rate (the msKPP cube tables are fp16), so this
series is the only public measurement of the fp32 cube path, and the config takes its rate from
it: the published figures are {} % of the {:.1f} TFLOPS that k0 = {:g} gives at n >= 4096, as the
bf16 series is {} % of the 16-bit peak on the same chip through the same library; one 32-byte
fractal column of fp32 per cycle (k0 = {}, {:.1f} TFLOPS, the config's value before this series)
would put them at {} %. With k0 = {:g} the model is {} % off at n >= 4096 ({} % at n >= 2048);
at k0 = {} (the last columns) {} %, the runs MTE2-bound on fp32's doubled bytes at about twice
the published throughput.
)",
                         range(fp16, 2048, 1e300, "{:+.1f}", gap, " to "), range(fp16, 2048, 1e300, "{:+.1f}", err, " to "),
                         k0, range(fp32, 4096, 1e300, "{:.0f}", pub_share, " to "), peak32, k0,
                         range(fp32, 4096, 1e300, "{:.0f}", bf16_share, " to "), kFractalK0F32, peak8,
                         range(fp32, 4096, 1e300, "{:.0f}", share8, " to "), k0,
                         range(fp32, 4096, 1e300, "{:+.1f}", err, " to "), range(fp32, 2048, 1e300, "{:+.1f}", err, " to "),
                         kFractalK0F32, range(fp32, 4096, 1e300, "{:+.1f}", err8, " to ")));
  md += "\n";
  return md;
}

}  // namespace npu::calib
