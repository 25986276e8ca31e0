#include "isa/sem/shape.h"

#include <algorithm>
#include <type_traits>

#include "isa/sem/scalar.h"

namespace npu::sem {

namespace {
using isa::Op;
namespace ops = isa::ops;

void add_range(std::vector<GmRange>& v, uint64_t addr, uint64_t bytes, bool write, isa::CacheHint h) {
  if (bytes == 0) return;
  if (!v.empty() && v.back().addr + v.back().bytes == addr && v.back().is_write == write) {
    v.back().bytes += bytes;
    return;
  }
  v.push_back(GmRange{addr, bytes, write, h});
}

// One range per burst of a GM DMA (o: its view); GM is its source, or its destination when
// `write`.
template <class V>
void add_bursts(std::vector<GmRange>& v, const V& o, bool write) {
  const uint64_t addr = write ? o.dst : o.src, stride = write ? o.dst_stride : o.src_stride;
  for (uint64_t i = 0; i < o.nburst; ++i) add_range(v, addr + i * stride, o.burst, write, o.hint);
}

// Whether an operand view has a member, for shape_from below.
#define NPU_HAS_MEMBER(member)                                                 \
  template <class V, class = void>                                             \
  struct has_##member : std::false_type {};                                    \
  template <class V>                                                           \
  struct has_##member<V, std::void_t<decltype(V::member)>> : std::true_type {};
NPU_HAS_MEMBER(nburst)
NPU_HAS_MEMBER(bytes)
NPU_HAS_MEMBER(k)
NPU_HAS_MEMBER(m)
NPU_HAS_MEMBER(rows)
NPU_HAS_MEMBER(sdt)
NPU_HAS_MEMBER(dt)
NPU_HAS_MEMBER(count)
NPU_HAS_MEMBER(trans)
#undef NPU_HAS_MEMBER

// The shape of any instruction, by its operand form: bursts (DMA), bytes (L1 -> FB), m/k/n
// (cube), m/n (FixPipe), rows/cols (tile loads, row reductions, broadcasts), sdt/count (vcast),
// dt/count (element-wise vector). Instructions of none of these forms (scalar, sync) have
// none.
template <class V>
InstrShape shape_from(const V& o) {
  InstrShape s;
  if constexpr (has_nburst<V>::value) {
    s.nburst = static_cast<uint32_t>(o.nburst);
    s.burst = static_cast<uint32_t>(o.burst);
    s.bytes = s.elements = uint64_t{s.nburst} * s.burst;
    s.dtype = isa::Dtype::U8;
  } else if constexpr (has_bytes<V>::value) {
    s.bytes = s.elements = o.bytes;
    s.dtype = isa::Dtype::U8;
  } else if constexpr (has_k<V>::value) {
    s.m = static_cast<uint32_t>(o.m);
    s.k = static_cast<uint32_t>(o.k);
    s.n = static_cast<uint32_t>(o.n);
    if constexpr (has_dt<V>::value) s.dtype = o.dt;
    else s.dtype = o.et == isa::MxType::E4M3 ? isa::Dtype::E4M3 : isa::Dtype::E5M2;
    s.elements = uint64_t{s.m} * s.n;
    s.bytes = (uint64_t{s.m} * s.k + uint64_t{s.k} * s.n) * isa::dtype_size(s.dtype);
  } else if constexpr (has_m<V>::value) {
    s.m = s.rows = static_cast<uint32_t>(o.m);
    s.n = s.cols = static_cast<uint32_t>(o.n);
    s.dtype = o.ddt;
    s.elements = uint64_t{s.m} * s.n;
    s.bytes = s.elements * isa::dtype_size(s.dtype);
  } else if constexpr (has_rows<V>::value) {
    s.rows = static_cast<uint32_t>(o.rows);
    s.cols = static_cast<uint32_t>(o.cols);
    s.dtype = o.dt;
    s.elements = uint64_t{s.rows} * s.cols;
    s.bytes = s.elements * isa::dtype_size(s.dtype);
    if constexpr (has_trans<V>::value) s.trans = o.trans != 0;
  } else if constexpr (has_sdt<V>::value && has_count<V>::value) {
    // Sized by the source: msKPP measures 1 cycle per 256 B of source for widening and
    // narrowing casts alike (docs/calibration.md, VCONV rows).
    s.dtype = o.sdt;
    s.elements = o.count;
    s.bytes = s.elements * isa::dtype_size(s.dtype);
  } else if constexpr (has_dt<V>::value && has_count<V>::value) {
    s.dtype = o.dt;
    s.elements = o.count;
    s.bytes = s.elements * isa::dtype_size(s.dtype);
  }
  return s;
}

}  // namespace

std::vector<GmRange> gm_ranges(const DispatchedInstr& di) {
  std::vector<GmRange> v;
  switch (di.op()) {
    case Op::MOV_GM_UB: add_bursts(v, di.as<ops::MOV_GM_UB>(), false); break;
    case Op::MOV_GM_L1: add_bursts(v, di.as<ops::MOV_GM_L1>(), false); break;
    case Op::MOV_GM_L1_NZ: add_bursts(v, di.as<ops::MOV_GM_L1_NZ>(), false); break;
    case Op::MOV_UB_GM: add_bursts(v, di.as<ops::MOV_UB_GM>(), true); break;
    case Op::FIX: {
      const auto o = di.as<ops::FIX>();
      const uint64_t row = o.n * isa::dtype_size(o.ddt);
      for (uint64_t i = 0; i < o.m; ++i) add_range(v, o.dst + i * o.dst_stride, row, true, isa::CacheHint::Normal);
      break;
    }
    default: break;
  }
  return v;
}

InstrShape shape_of(const DispatchedInstr& di) {
  if (!is_data_op(di.op())) return {};
  switch (di.op()) {
#define INSN(id, ...) \
  case Op::id: return shape_from(di.as<ops::id>());
#include "isa/instructions.def"
#undef INSN
  }
  return {};
}

}  // namespace npu::sem
