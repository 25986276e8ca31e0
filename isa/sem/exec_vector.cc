// Vector semantics (UB -> UB). Floats work in fp32 and round RNE to the dtype on store;
// integers work in int64 and wrap to the element width on store. See execute.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "isa/numeric/numeric.h"
#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Dtype;
using isa::Op;
using isa::VecOp;
namespace ops = isa::ops;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Elements of one operand, as fp32 (float dtypes) or int64 (integer dtypes).
struct Vals {
  bool is_float = true;
  std::vector<float> f;
  std::vector<int64_t> i;
  size_t size() const { return is_float ? f.size() : i.size(); }
};

// rows x cols elements, rows `stride` bytes apart (stride ignored when rows == 1).
Vals load(Exec& x, Dtype dt, uint64_t off, uint64_t rows, uint64_t cols, uint64_t stride) {
  uint64_t es = isa::dtype_size(dt);
  const uint8_t* p = x.local_strided(Buffer::Ub, off, rows, stride, cols * es, false);
  Vals v;
  v.is_float = !is_int(dt);
  if (rows * cols == 0) return v;  // an empty operand: no element, and empty vectors' data() may be null
  if (v.is_float) v.f.resize(rows * cols); else v.i.resize(rows * cols);
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_float) load_floats(dt, p + r * stride, cols, v.f.data() + r * cols);
    else load_ints(dt, p + r * stride, cols, v.i.data() + r * cols);
  }
  return v;
}

void store(Exec& x, Dtype dt, uint64_t off, uint64_t rows, uint64_t cols, uint64_t stride, const Vals& v) {
  uint64_t es = isa::dtype_size(dt);
  uint8_t* p = x.local_strided(Buffer::Ub, off, rows, stride, cols * es, true);
  if (rows * cols == 0) return;  // no element (see load)
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_float) store_floats(dt, p + r * stride, cols, v.f.data() + r * cols);
    else store_ints(dt, p + r * stride, cols, v.i.data() + r * cols);
  }
}

float fop(VecOp op, float a, float b) {
  switch (op) {
    case VecOp::Add: return a + b;
    case VecOp::Sub: return a - b;
    case VecOp::Mul: return a * b;
    case VecOp::Div: return a / b;
    case VecOp::Max: return std::isnan(a) || std::isnan(b) ? kNaN : (a > b ? a : b);
    case VecOp::Min: return std::isnan(a) || std::isnan(b) ? kNaN : (a < b ? a : b);
  }
  return kNaN;
}

int64_t iop(Exec& x, VecOp op, int64_t a, int64_t b) {
  auto wrap = [](uint64_t u) { return static_cast<int64_t>(u); };
  switch (op) {
    case VecOp::Add: return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    case VecOp::Sub: return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    case VecOp::Mul: return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    case VecOp::Div:
      if (b == 0) x.bad("integer division by zero");
      if (b == -1) return wrap(0 - static_cast<uint64_t>(a));
      return a / b;
    case VecOp::Max: return std::max(a, b);
    case VecOp::Min: return std::min(a, b);
  }
  return 0;
}

// out[i] = a[i] op b[bi(i)]
template <typename Index>
Vals combine(Exec& x, VecOp op, const Vals& a, const Vals& b, Index bi) {
  Vals o;
  o.is_float = a.is_float;
  if (a.is_float) {
    o.f.resize(a.f.size());
    for (size_t i = 0; i < a.f.size(); ++i) o.f[i] = fop(op, a.f[i], b.f[bi(i)]);
  } else {
    o.i.resize(a.i.size());
    for (size_t i = 0; i < a.i.size(); ++i) o.i[i] = iop(x, op, a.i[i], b.i[bi(i)]);
  }
  return o;
}

// The scalar operand as a one-element Vals of dt's family.
Vals scalar_vals(Dtype dt, int64_t scalar) {
  Vals s;
  s.is_float = !is_int(dt);
  if (s.is_float) s.f = {f32_from_bits(static_cast<uint64_t>(scalar))};
  else s.i = {scalar};
  return s;
}

const char* mnemonic(const Exec& x) { return x.di.in.d().mnemonic.data(); }

// dst = src0 op src1 (o: a vadd-form view).
template <class V>
void binary(Exec& x, const V& o, VecOp op) {
  Vals a = load(x, o.dt, o.src0, 1, o.count, 0), b = load(x, o.dt, o.src1, 1, o.count, 0);
  store(x, o.dt, o.dst, 1, o.count, 0, combine(x, op, a, b, [](size_t i) { return i; }));
}

// dst = src op scalar (o: a vadds-form view).
template <class V>
void with_scalar(Exec& x, const V& o, VecOp op) {
  Vals a = load(x, o.dt, o.src, 1, o.count, 0), s = scalar_vals(o.dt, o.scalar);
  store(x, o.dt, o.dst, 1, o.count, 0, combine(x, op, a, s, [](size_t) { return size_t{0}; }));
}

// For unary ops without an integer form.
struct FloatOnly {};

// dst = f(src) elementwise; integer dtypes use i (FloatOnly ops: the table's VecFloat rule
// refuses integer dtypes before execute() gets here).
template <class V, class F, class I>
void unary(Exec& x, const V& o, F f, I i) {
  Vals v = load(x, o.dt, o.src, 1, o.count, 0);
  if (!v.is_float) {
    if constexpr (std::is_same_v<I, FloatOnly>)
      x.bad("internal: " + std::string(mnemonic(x)) + " has no integer form");
    else
      for (int64_t& e : v.i) e = i(e);
  } else {
    for (float& e : v.f) e = f(e);
  }
  store(x, o.dt, o.dst, 1, o.count, 0, v);
}

int64_t wrap_neg(int64_t e) { return static_cast<int64_t>(0 - static_cast<uint64_t>(e)); }

enum class RowReduce { Sum, Max, AbsMax };

// dst[r] = the reduction of row r (o: a vrsum-form view).
template <class V>
void reduce(Exec& x, const V& o, RowReduce kind) {
  const Dtype dt = o.dt;
  const uint64_t rows = o.rows, cols = o.cols;
  if (cols == 0) x.bad("cols must be > 0");
  Vals v = load(x, dt, o.src, rows, cols, o.stride);
  Vals out;
  out.is_float = v.is_float;
  const bool abs = kind == RowReduce::AbsMax;
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_float) {
      const float* e = v.f.data() + r * cols;
      float acc = abs ? std::fabs(e[0]) : e[0];
      for (uint64_t c = 1; c < cols; ++c) {
        if (kind == RowReduce::Sum) acc = acc + e[c];
        else acc = fop(VecOp::Max, acc, abs ? std::fabs(e[c]) : e[c]);
      }
      out.f.push_back(acc);
    } else {
      const int64_t* e = v.i.data() + r * cols;
      int64_t acc = abs ? std::abs(e[0]) : e[0];
      for (uint64_t c = 1; c < cols; ++c) {
        if (kind == RowReduce::Sum) acc = static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(e[c]));
        else acc = std::max(acc, abs ? std::abs(e[c]) : e[c]);
      }
      if (abs) {  // |INT_MIN| saturates instead of wrapping negative
        int64_t hi = dt == Dtype::S32 ? INT32_MAX : dt == Dtype::S16 ? INT16_MAX : INT8_MAX;
        acc = std::min(acc, hi);
      }
      out.i.push_back(acc);
    }
  }
  store(x, dt, o.dst, 1, rows, 0, out);
}

// dst[r,c] = src[r,c] op b[index(r, c)], b = `vec` holding `n` elements (o: a vrow-form view).
template <class V, class Index>
void broadcast(Exec& x, const V& o, uint64_t vec, uint64_t n, Index index) {
  Vals src = load(x, o.dt, o.src, o.rows, o.cols, o.stride);
  Vals b = load(x, o.dt, vec, 1, n, 0);
  store(x, o.dt, o.dst, o.rows, o.cols, o.stride, combine(x, o.op, src, b, index));
}

}  // namespace

// ---- element-wise arithmetic
template <> void exec<Op::VADD>(Exec& x) { binary(x, x.di.as<ops::VADD>(), VecOp::Add); }
template <> void exec<Op::VSUB>(Exec& x) { binary(x, x.di.as<ops::VSUB>(), VecOp::Sub); }
template <> void exec<Op::VMUL>(Exec& x) { binary(x, x.di.as<ops::VMUL>(), VecOp::Mul); }
template <> void exec<Op::VDIV>(Exec& x) { binary(x, x.di.as<ops::VDIV>(), VecOp::Div); }
template <> void exec<Op::VMAX>(Exec& x) { binary(x, x.di.as<ops::VMAX>(), VecOp::Max); }
template <> void exec<Op::VMIN>(Exec& x) { binary(x, x.di.as<ops::VMIN>(), VecOp::Min); }
template <> void exec<Op::VADDS>(Exec& x) { with_scalar(x, x.di.as<ops::VADDS>(), VecOp::Add); }
template <> void exec<Op::VMULS>(Exec& x) { with_scalar(x, x.di.as<ops::VMULS>(), VecOp::Mul); }
template <> void exec<Op::VMAXS>(Exec& x) { with_scalar(x, x.di.as<ops::VMAXS>(), VecOp::Max); }
template <> void exec<Op::VMINS>(Exec& x) { with_scalar(x, x.di.as<ops::VMINS>(), VecOp::Min); }

// ---- unary
template <> void exec<Op::VABS>(Exec& x) {
  unary(x, x.di.as<ops::VABS>(), [](float e) { return std::fabs(e); },
        [](int64_t e) { return e < 0 ? wrap_neg(e) : e; });
}
template <> void exec<Op::VNEG>(Exec& x) {
  unary(x, x.di.as<ops::VNEG>(), [](float e) { return -e; }, wrap_neg);
}
template <> void exec<Op::VRELU>(Exec& x) {
  unary(x, x.di.as<ops::VRELU>(), [](float e) { return std::isnan(e) ? e : (e < 0 ? 0.0f : e); },
        [](int64_t e) { return std::max<int64_t>(e, 0); });
}
template <> void exec<Op::VEXP>(Exec& x) {
  unary(x, x.di.as<ops::VEXP>(), [](float e) { return std::exp(e); }, FloatOnly{});
}
template <> void exec<Op::VLN>(Exec& x) {
  unary(x, x.di.as<ops::VLN>(), [](float e) { return std::log(e); }, FloatOnly{});
}
template <> void exec<Op::VSQRT>(Exec& x) {
  unary(x, x.di.as<ops::VSQRT>(), [](float e) { return std::sqrt(e); }, FloatOnly{});
}
template <> void exec<Op::VRSQRT>(Exec& x) {
  unary(x, x.di.as<ops::VRSQRT>(), [](float e) { return 1.0f / std::sqrt(e); }, FloatOnly{});
}
template <> void exec<Op::VREC>(Exec& x) {
  unary(x, x.di.as<ops::VREC>(), [](float e) { return 1.0f / e; }, FloatOnly{});
}

// ---- conversion and copies
namespace {

bool is_f32_f16_bf16(Dtype t) { return t == Dtype::F32 || t == Dtype::F16 || t == Dtype::BF16; }

// Element i of a f32 / f16 / bf16 array as an f32 (exact for all three), NaN as the canonical
// quiet NaN with its sign, as num::decode gives it.
float float_elem(Dtype t, const uint8_t* p, uint64_t i) {
  if (t == Dtype::F32) {
    uint32_t u;
    std::memcpy(&u, p + 4 * i, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) u = (u & 0x80000000u) | 0x7FC00000u;
    return num::bits_to_f32(u);
  }
  uint16_t h;
  std::memcpy(&h, p + 2 * i, 2);
  return t == Dtype::BF16 ? num::bf16_to_f32(h) : num::f16_to_f32(h);
}

// vcast among f32 / f16 / bf16, RNE, through the hot-path helpers of isa/numeric: the same bits
// as decode + encode, since every source value is exact in f32 and the helpers round once, give
// Inf on overflow and the canonical NaN. Saturation turns an overflow (Inf from a finite value;
// an Inf input stays Inf) into the largest finite code of the sign; a cast to f32 has none.
// False (the general loop) for every other cast.
bool cast_among_floats(Dtype sdt, Dtype ddt, isa::RoundMode rm, bool sat, const uint8_t* s, uint8_t* d,
                       uint64_t count) {
  if (rm != isa::RoundMode::Rne || !is_f32_f16_bf16(sdt) || !is_f32_f16_bf16(ddt)) return false;
  const bool bf16 = ddt == Dtype::BF16;
  const uint16_t inf = bf16 ? 0x7F80u : 0x7C00u, max_finite = bf16 ? 0x7F7Fu : 0x7BFFu;
  for (uint64_t i = 0; i < count; ++i) {
    const float f = float_elem(sdt, s, i);
    if (ddt == Dtype::F32) {
      std::memcpy(d + 4 * i, &f, 4);
      continue;
    }
    uint16_t h = bf16 ? num::f32_to_bf16(f) : num::f32_to_f16(f);
    if (sat && (h & 0x7FFFu) == inf && std::isfinite(f)) h = static_cast<uint16_t>((h & 0x8000u) | max_finite);
    std::memcpy(d + 2 * i, &h, 2);
  }
  return true;
}

}  // namespace

template <> void exec<Op::VCAST>(Exec& x) {
  const auto o = x.di.as<ops::VCAST>();
  const uint64_t count = o.count, ses = isa::dtype_size(o.sdt), des = isa::dtype_size(o.ddt);
  const uint8_t* s = x.local(Buffer::Ub, o.src, count * ses, false);
  uint8_t* d = x.local(Buffer::Ub, o.dst, count * des, true);
  // Element by element (read i, write i) is the same as decoding everything first unless a write
  // reaches a later source: not when the arrays are disjoint, nor when d <= s with des <= ses
  // (write i ends at d + (i+1) des <= s + (i+1) ses, where source i+1 starts).
  const bool forward_safe = d + count * des <= s || s + count * ses <= d || (d <= s && des <= ses);
  if (forward_safe && cast_among_floats(o.sdt, o.ddt, o.rm, o.sat != 0, s, d, count)) return;
  std::vector<double> vals(count);
  for (uint64_t i = 0; i < count; ++i) vals[i] = num::decode(o.sdt, s + i * ses);
  for (uint64_t i = 0; i < count; ++i) num::encode(o.ddt, d + i * des, vals[i], o.rm, o.sat != 0);
}

template <> void exec<Op::VDUP>(Exec& x) {
  const auto o = x.di.as<ops::VDUP>();
  const uint64_t es = isa::dtype_size(o.dt);
  uint8_t* d = x.local(Buffer::Ub, o.dst, o.count * es, true);
  std::vector<uint8_t> one(es);
  if (is_int(o.dt)) {
    int64_t v = o.scalar;
    store_ints(o.dt, one.data(), 1, &v);
  } else {
    num::encode(o.dt, one.data(), f32_from_bits(static_cast<uint64_t>(o.scalar)), isa::RoundMode::Rne, false);
  }
  for (uint64_t i = 0; i < o.count; ++i) std::memcpy(d + i * es, one.data(), es);
}

template <> void exec<Op::VCOPY>(Exec& x) {
  const auto o = x.di.as<ops::VCOPY>();
  const uint64_t bytes = o.count * isa::dtype_size(o.dt);
  const uint8_t* s = x.local(Buffer::Ub, o.src, bytes, false);
  uint8_t* d = x.local(Buffer::Ub, o.dst, bytes, true);
  if (bytes) std::memmove(d, s, bytes);
}

template <> void exec<Op::VPROT>(Exec& x) {
  const auto o = x.di.as<ops::VPROT>();
  if (o.count % 2 != 0) x.bad("count " + std::to_string(o.count) + " is odd (vprot rotates pairs)");
  const uint64_t es = isa::dtype_size(o.dt), bytes = o.count * es;
  const uint8_t* s = x.local(Buffer::Ub, o.src, bytes, false);
  const std::vector<uint8_t> src(s, s + bytes);  // dst may overlap src
  uint8_t* d = x.local(Buffer::Ub, o.dst, bytes, true);
  for (uint64_t i = 0; i < bytes; i += 2 * es) {
    std::memcpy(d + i, src.data() + i + es, es);
    d[i + es - 1] ^= 0x80;  // the sign bit of the little-endian element: -src[2i+1]
    std::memcpy(d + i + es, src.data() + i, es);
  }
}

// ---- per-row reductions and broadcasts
template <> void exec<Op::VRSUM>(Exec& x) { reduce(x, x.di.as<ops::VRSUM>(), RowReduce::Sum); }
template <> void exec<Op::VRMAX>(Exec& x) { reduce(x, x.di.as<ops::VRMAX>(), RowReduce::Max); }
template <> void exec<Op::VRAMAX>(Exec& x) { reduce(x, x.di.as<ops::VRAMAX>(), RowReduce::AbsMax); }

template <> void exec<Op::VROW>(Exec& x) {
  const auto o = x.di.as<ops::VROW>();
  const uint64_t cols = o.cols;
  broadcast(x, o, o.s, o.rows, [cols](size_t i) { return i / cols; });
}
template <> void exec<Op::VCOL>(Exec& x) {
  const auto o = x.di.as<ops::VCOL>();
  const uint64_t cols = o.cols;
  broadcast(x, o, o.v, cols, [cols](size_t i) { return i % cols; });
}

}  // namespace npu::sem::detail
