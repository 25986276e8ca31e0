// Vector semantics (UB -> UB). Floats work in fp32 and round RNE to the dtype on store;
// integers work in int64 and wrap to the element width on store. See execute.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/numeric/numeric.h"
#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Dtype;
using isa::Op;
using isa::VecOp;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Elements of one operand, as fp32 (float dtypes) or int64 (integer dtypes).
struct Vals {
  bool is_float = true;
  std::vector<float> f;
  std::vector<int64_t> i;
  size_t size() const { return is_float ? f.size() : i.size(); }
};

void check_arith(Exec& x, Dtype dt, const char* what) {
  if (is_fp8(dt) && x.core.arch != isa::Arch::A5)
    x.bad(std::string("dtype ") + std::string(isa::dtype_name(dt)) + " needs the a5 architecture");
  if (!is_arith_float(dt) && !is_int(dt))
    x.bad(std::string(what) + " does not support dtype " + std::string(isa::dtype_name(dt)));
}

// rows x cols elements, rows `stride` bytes apart (stride ignored when rows == 1).
Vals load(Exec& x, Dtype dt, uint64_t off, uint64_t rows, uint64_t cols, uint64_t stride) {
  uint64_t es = isa::dtype_size(dt);
  const uint8_t* p = x.local_strided(Buffer::Ub, off, rows, stride, cols * es, false);
  Vals v;
  v.is_float = !is_int(dt);
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
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_float) store_floats(dt, p + r * stride, cols, v.f.data() + r * cols);
    else store_ints(dt, p + r * stride, cols, v.i.data() + r * cols);
  }
}

Vals load1(Exec& x, Dtype dt, const char* field, uint64_t count) {
  return load(x, dt, x.di.u(field), 1, count, 0);
}
void store1(Exec& x, Dtype dt, uint64_t count, const Vals& v) { store(x, dt, x.di.u("dst"), 1, count, 0, v); }

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

VecOp binary_op(Op op) {
  switch (op) {
    case Op::VADD: case Op::VADDS: return VecOp::Add;
    case Op::VSUB: return VecOp::Sub;
    case Op::VMUL: case Op::VMULS: return VecOp::Mul;
    case Op::VDIV: return VecOp::Div;
    case Op::VMAX: case Op::VMAXS: return VecOp::Max;
    default: return VecOp::Min;
  }
}

// The scalar operand as a one-element Vals of dt's family.
Vals scalar_vals(Exec& x, Dtype dt) {
  Vals s;
  s.is_float = !is_int(dt);
  if (s.is_float) s.f = {f32_from_bits(x.di.u("scalar"))};
  else s.i = {x.di["scalar"]};
  return s;
}

void unary(Exec& x, Dtype dt, uint64_t count) {
  Vals v = load1(x, dt, "src", count);
  const Op op = x.di.op();
  if (!v.is_float) {
    for (int64_t& e : v.i) {
      switch (op) {
        case Op::VABS: e = e < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(e)) : e; break;
        case Op::VNEG: e = static_cast<int64_t>(0 - static_cast<uint64_t>(e)); break;
        case Op::VRELU: e = std::max<int64_t>(e, 0); break;
        default:
          x.bad(std::string(isa::def(op).mnemonic) + " does not support dtype " +
                std::string(isa::dtype_name(dt)));
      }
    }
  } else {
    for (float& e : v.f) {
      switch (op) {
        case Op::VABS: e = std::fabs(e); break;
        case Op::VNEG: e = -e; break;
        case Op::VRELU: e = std::isnan(e) ? e : (e < 0 ? 0.0f : e); break;
        case Op::VEXP: e = std::exp(e); break;
        case Op::VLN: e = std::log(e); break;
        case Op::VSQRT: e = std::sqrt(e); break;
        case Op::VRSQRT: e = 1.0f / std::sqrt(e); break;
        case Op::VREC: e = 1.0f / e; break;
        default: x.bad("internal: not a unary op");
      }
    }
  }
  store1(x, dt, count, v);
}

void vcast(Exec& x) {
  auto sdt = static_cast<Dtype>(x.di["sdt"]);
  auto ddt = static_cast<Dtype>(x.di["ddt"]);
  auto rm = static_cast<isa::RoundMode>(x.di["rm"]);
  const bool sat = x.di["sat"] != 0;
  for (Dtype d : {sdt, ddt})
    if (is_fp8(d) && x.core.arch != isa::Arch::A5)
      x.bad(std::string("dtype ") + std::string(isa::dtype_name(d)) + " needs the a5 architecture");
  uint64_t count = x.di.u("count");
  uint64_t ses = isa::dtype_size(sdt), des = isa::dtype_size(ddt);
  const uint8_t* s = x.local(Buffer::Ub, x.di.u("src"), count * ses, false);
  uint8_t* d = x.local(Buffer::Ub, x.di.u("dst"), count * des, true);
  std::vector<double> vals(count);
  for (uint64_t i = 0; i < count; ++i) vals[i] = num::decode(sdt, s + i * ses);
  for (uint64_t i = 0; i < count; ++i) num::encode(ddt, d + i * des, vals[i], rm, sat);
}

void vdup(Exec& x, Dtype dt, uint64_t count) {
  uint64_t es = isa::dtype_size(dt);
  uint8_t* d = x.local(Buffer::Ub, x.di.u("dst"), count * es, true);
  std::vector<uint8_t> one(es);
  if (is_int(dt)) {
    int64_t v = x.di["scalar"];
    store_ints(dt, one.data(), 1, &v);
  } else {
    num::encode(dt, one.data(), f32_from_bits(x.di.u("scalar")), isa::RoundMode::Rne, false);
  }
  for (uint64_t i = 0; i < count; ++i) std::memcpy(d + i * es, one.data(), es);
}

void reduce(Exec& x, Dtype dt) {
  uint64_t rows = x.di.u("rows"), cols = x.di.u("cols"), stride = x.di.u("stride");
  if (cols == 0) x.bad("cols must be > 0");
  Vals v = load(x, dt, x.di.u("src"), rows, cols, stride);
  Vals o;
  o.is_float = v.is_float;
  const Op op = x.di.op();
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_float) {
      const float* e = v.f.data() + r * cols;
      float acc = op == Op::VRAMAX ? std::fabs(e[0]) : e[0];
      for (uint64_t c = 1; c < cols; ++c) {
        if (op == Op::VRSUM) acc = acc + e[c];
        else acc = fop(VecOp::Max, acc, op == Op::VRAMAX ? std::fabs(e[c]) : e[c]);
      }
      o.f.push_back(acc);
    } else {
      const int64_t* e = v.i.data() + r * cols;
      int64_t acc = op == Op::VRAMAX ? std::abs(e[0]) : e[0];
      for (uint64_t c = 1; c < cols; ++c) {
        if (op == Op::VRSUM) acc = static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(e[c]));
        else acc = std::max(acc, op == Op::VRAMAX ? std::abs(e[c]) : e[c]);
      }
      if (op == Op::VRAMAX) {  // |INT_MIN| saturates instead of wrapping negative
        int64_t hi = dt == Dtype::S32 ? INT32_MAX : dt == Dtype::S16 ? INT16_MAX : dt == Dtype::S8 ? INT8_MAX : UINT8_MAX;
        acc = std::min(acc, hi);
      }
      o.i.push_back(acc);
    }
  }
  store(x, dt, x.di.u("dst"), 1, rows, 0, o);
}

void broadcast(Exec& x, Dtype dt) {
  uint64_t rows = x.di.u("rows"), cols = x.di.u("cols"), stride = x.di.u("stride");
  auto op = static_cast<VecOp>(x.di["op"]);
  Vals src = load(x, dt, x.di.u("src"), rows, cols, stride);
  Vals o;
  if (x.di.op() == Op::VROW) {
    Vals s = load(x, dt, x.di.u("s"), 1, rows, 0);
    o = combine(x, op, src, s, [cols](size_t i) { return i / cols; });
  } else {
    Vals v = load(x, dt, x.di.u("v"), 1, cols, 0);
    o = combine(x, op, src, v, [cols](size_t i) { return i % cols; });
  }
  store(x, dt, x.di.u("dst"), rows, cols, stride, o);
}

}  // namespace

void exec_vector(Exec& x) {
  const Op op = x.di.op();
  if (op == Op::VCAST) return vcast(x);
  auto dt = static_cast<Dtype>(x.di["dt"]);
  if (op == Op::VCOPY) {
    uint64_t count = x.di.u("count"), es = isa::dtype_size(dt);
    const uint8_t* s = x.local(Buffer::Ub, x.di.u("src"), count * es, false);
    uint8_t* d = x.local(Buffer::Ub, x.di.u("dst"), count * es, true);
    std::memmove(d, s, count * es);
    return;
  }
  if (op == Op::VDUP) {
    if (is_fp8(dt) && x.core.arch != isa::Arch::A5) check_arith(x, dt, "vdup");
    return vdup(x, dt, x.di.u("count"));
  }
  check_arith(x, dt, isa::def(op).mnemonic.data());
  switch (op) {
    case Op::VADD: case Op::VSUB: case Op::VMUL: case Op::VDIV: case Op::VMAX: case Op::VMIN: {
      uint64_t count = x.di.u("count");
      Vals a = load1(x, dt, "src0", count), b = load1(x, dt, "src1", count);
      store1(x, dt, count, combine(x, binary_op(op), a, b, [](size_t i) { return i; }));
      return;
    }
    case Op::VADDS: case Op::VMULS: case Op::VMAXS: case Op::VMINS: {
      uint64_t count = x.di.u("count");
      Vals a = load1(x, dt, "src", count), s = scalar_vals(x, dt);
      store1(x, dt, count, combine(x, binary_op(op), a, s, [](size_t) { return size_t{0}; }));
      return;
    }
    case Op::VABS: case Op::VNEG: case Op::VRELU: case Op::VEXP: case Op::VLN: case Op::VSQRT:
    case Op::VRSQRT: case Op::VREC:
      return unary(x, dt, x.di.u("count"));
    case Op::VRSUM: case Op::VRMAX: case Op::VRAMAX: return reduce(x, dt);
    case Op::VROW: case Op::VCOL: return broadcast(x, dt);
    default: x.bad("internal: not a vector instruction");
  }
}

}  // namespace npu::sem::detail
