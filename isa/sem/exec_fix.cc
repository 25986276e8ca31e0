// FixPipe semantics: L0C -> GM (fix) or -> UB of a cluster AIV (fix_ub, a5), with the cast,
// the optional dequant scale (one fp32 scalar or n per-column fp32 scales in the FixPipe
// buffer) and relu. See execute.h for the rounding rules.
#include <cmath>
#include <cstring>

#include "isa/numeric/numeric.h"
#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Dtype;

// Converts the m x n tile into dense rows of ddt bytes.
std::vector<uint8_t> convert_tile(Exec& x, uint64_t m, uint64_t n) {
  auto sdt = static_cast<Dtype>(x.di["sdt"]);
  auto ddt = static_cast<Dtype>(x.di["ddt"]);
  x.require_dtype(sdt, {Dtype::F32, Dtype::S32}, "fix source (L0C)");
  x.require_dtype(ddt, {Dtype::F32, Dtype::F16, Dtype::BF16, Dtype::S32, Dtype::S16, Dtype::S8},
                  "fix destination");
  if (m > 4095 || n > 4095)
    x.bad("m, n must be <= 4095 (m=" + std::to_string(m) + ", n=" + std::to_string(n) + ")");
  auto quant = static_cast<isa::QuantMode>(x.di["quant"]);
  const bool relu = x.di["relu"] != 0;
  const uint8_t* c = x.local(Buffer::L0C, x.di.u("src"), m * n * 4, false);

  std::vector<float> scales;
  if (quant == isa::QuantMode::Scalar) {
    scales.assign(n, f32_from_bits(x.di.u("scale")));
  } else if (quant == isa::QuantMode::Vector) {
    scales.resize(n);
    load_floats(Dtype::F32, x.local(Buffer::Fb, x.di.u("scale"), n * 4, false), n, scales.data());
  }

  const uint64_t es = isa::dtype_size(ddt);
  std::vector<uint8_t> out(m * n * es);
  const bool float_out = ddt == Dtype::F32 || ddt == Dtype::F16 || ddt == Dtype::BF16;
  std::vector<float> row(n);
  for (uint64_t i = 0; i < m; ++i) {
    const uint8_t* src = c + i * n * 4;
    uint8_t* dst = out.data() + i * n * es;
    if (quant == isa::QuantMode::None && (sdt == Dtype::S32 || !float_out)) {
      // One rounding from the exact value (int32 -> bf16 must not round twice).
      for (uint64_t j = 0; j < n; ++j) {
        double v = num::decode(sdt, src + 4 * j);
        if (relu && v < 0) v = 0;
        num::encode(ddt, dst + es * j, v, isa::RoundMode::Rne, false);
      }
      continue;
    }
    // fp32 pipeline: fp32(c) [* scale], relu, then RNE to ddt.
    if (sdt == Dtype::S32) {
      for (uint64_t j = 0; j < n; ++j) {
        int32_t v;
        std::memcpy(&v, src + 4 * j, 4);
        row[j] = static_cast<float>(v);
      }
    } else {
      std::memcpy(row.data(), src, n * 4);
    }
    if (!scales.empty())
      for (uint64_t j = 0; j < n; ++j) row[j] = row[j] * scales[j];
    if (relu)
      for (uint64_t j = 0; j < n; ++j)
        if (row[j] < 0) row[j] = 0.0f;
    if (float_out) {
      store_floats(ddt, dst, n, row.data());
    } else {
      for (uint64_t j = 0; j < n; ++j) num::encode(ddt, dst + es * j, row[j], isa::RoundMode::Rne, false);
    }
  }
  return out;
}

}  // namespace

void exec_fix(Exec& x) {
  uint64_t m = x.di.u("m"), n = x.di.u("n"), stride = x.di.u("dst_stride");
  uint64_t row_bytes = n * isa::dtype_size(static_cast<Dtype>(x.di["ddt"]));
  if (x.di.op() == isa::Op::FIX) {
    uint64_t dst = x.di.u("dst");
    for (uint64_t i = 0; i < m; ++i) x.gm_check(dst + i * stride, row_bytes, true);
    std::vector<uint8_t> tile = convert_tile(x, m, n);
    for (uint64_t i = 0; i < m; ++i) x.ctx.gm->write(dst + i * stride, tile.data() + i * row_bytes, row_bytes);
    return;
  }
  CoreState* aiv = x.peer_aiv(x.di["sub"]);
  uint8_t* d = x.local_strided(Buffer::Ub, x.di.u("dst"), m, stride, row_bytes, true, aiv);
  std::vector<uint8_t> tile = convert_tile(x, m, n);
  for (uint64_t i = 0; i < m; ++i) std::memcpy(d + i * stride, tile.data() + i * row_bytes, row_bytes);
}

}  // namespace npu::sem::detail
