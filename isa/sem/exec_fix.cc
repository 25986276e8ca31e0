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
namespace ops = isa::ops;

// Converts the m x n tile into dense rows of ddt bytes (o: a fix or fix_ub view).
template <class V>
std::vector<uint8_t> convert_tile(Exec& x, const V& o) {
  const uint64_t m = o.m, n = o.n;
  const Dtype sdt = o.sdt, ddt = o.ddt;
  if (m > 4095 || n > 4095)
    x.bad("m, n must be <= 4095 (m=" + std::to_string(m) + ", n=" + std::to_string(n) + ")");
  const isa::QuantMode quant = o.quant;
  const bool relu = o.relu != 0;
  const uint8_t* c = x.local(Buffer::L0C, o.src, m * n * 4, false);

  std::vector<float> scales;
  if (quant == isa::QuantMode::Scalar) {
    scales.assign(n, f32_from_bits(o.scale));
  } else if (quant == isa::QuantMode::Vector) {
    scales.resize(n);
    load_floats(Dtype::F32, x.local(Buffer::Fb, o.scale, n * 4, false), n, scales.data());
  }

  const uint64_t es = isa::dtype_size(ddt);
  std::vector<uint8_t> out(m * n * es);
  if (out.empty()) return out;  // an empty tile (operands checked above): no row to convert
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

template <class V>
uint64_t row_bytes(const V& o) { return o.n * isa::dtype_size(o.ddt); }

}  // namespace

template <>
void exec<isa::Op::FIX>(Exec& x) {
  const auto o = x.di.as<ops::FIX>();
  const uint64_t rb = row_bytes(o);
  for (uint64_t i = 0; i < o.m; ++i) x.gm_check(o.dst + i * o.dst_stride, rb, true);
  std::vector<uint8_t> tile = convert_tile(x, o);
  for (uint64_t i = 0; i < o.m; ++i) x.ctx.gm->write(o.dst + i * o.dst_stride, tile.data() + i * rb, rb);
}

template <>
void exec<isa::Op::FIX_UB>(Exec& x) {
  const auto o = x.di.as<ops::FIX_UB>();
  const uint64_t rb = row_bytes(o);
  CoreState* aiv = x.peer_aiv(static_cast<int64_t>(o.sub));
  uint8_t* d = x.local_strided(Buffer::Ub, o.dst, o.m, o.dst_stride, rb, true, aiv);
  std::vector<uint8_t> tile = convert_tile(x, o);
  if (tile.empty()) return;  // an empty tile; tile.data() may be null
  for (uint64_t i = 0; i < o.m; ++i) std::memcpy(d + i * o.dst_stride, tile.data() + i * rb, rb);
}

}  // namespace npu::sem::detail
