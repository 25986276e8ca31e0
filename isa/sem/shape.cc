#include "isa/sem/shape.h"

#include <algorithm>

#include "isa/sem/scalar.h"

namespace npu::sem {

namespace {
using isa::Op;

void add_range(std::vector<GmRange>& v, uint64_t addr, uint64_t bytes, bool write, isa::CacheHint h) {
  if (bytes == 0) return;
  if (!v.empty() && v.back().addr + v.back().bytes == addr && v.back().is_write == write) {
    v.back().bytes += bytes;
    return;
  }
  v.push_back(GmRange{addr, bytes, write, h});
}

uint64_t size_of(int64_t dt) { return isa::dtype_size(static_cast<isa::Dtype>(dt)); }
}  // namespace

std::vector<GmRange> gm_ranges(const DispatchedInstr& di) {
  std::vector<GmRange> v;
  switch (di.op()) {
    case Op::MOV_GM_UB:
    case Op::MOV_GM_L1:
    case Op::MOV_UB_GM: {
      const bool write = di.op() == Op::MOV_UB_GM;
      uint64_t addr = write ? di.u("dst") : di.u("src");
      uint64_t stride = write ? di.u("dst_stride") : di.u("src_stride");
      auto hint = static_cast<isa::CacheHint>(di["hint"]);
      for (uint64_t i = 0; i < di.u("nburst"); ++i) add_range(v, addr + i * stride, di.u("burst"), write, hint);
      break;
    }
    case Op::FIX: {
      uint64_t row = di.u("n") * size_of(di["ddt"]);
      for (uint64_t i = 0; i < di.u("m"); ++i)
        add_range(v, di.u("dst") + i * di.u("dst_stride"), row, true, isa::CacheHint::Normal);
      break;
    }
    default: break;
  }
  return v;
}

InstrShape shape_of(const DispatchedInstr& di) {
  InstrShape s;
  const isa::InstrDef& d = di.in.d();
  if (!is_data_op(di.op())) return s;
  switch (d.timing) {
    case isa::TimingClass::DmaGmUb: case isa::TimingClass::DmaUbGm: case isa::TimingClass::DmaGmL1:
    case isa::TimingClass::DmaUbL1: case isa::TimingClass::DmaL1Ub:
      s.nburst = static_cast<uint32_t>(di.u("nburst"));
      s.burst = static_cast<uint32_t>(di.u("burst"));
      s.bytes = s.elements = uint64_t{s.nburst} * s.burst;
      s.dtype = isa::Dtype::U8;
      break;
    case isa::TimingClass::DmaL1Fb:
      s.bytes = s.elements = di.u("bytes");
      s.dtype = isa::Dtype::U8;
      break;
    case isa::TimingClass::DmaL1L0a: case isa::TimingClass::DmaL1L0b:
      s.rows = static_cast<uint32_t>(di.u("rows"));
      s.cols = static_cast<uint32_t>(di.u("cols"));
      s.dtype = static_cast<isa::Dtype>(di["dt"]);
      s.elements = uint64_t{s.rows} * s.cols;
      s.bytes = s.elements * isa::dtype_size(s.dtype);
      break;
    case isa::TimingClass::Mmad: case isa::TimingClass::MmadMx: {
      s.m = static_cast<uint32_t>(di.u("m"));
      s.k = static_cast<uint32_t>(di.u("k"));
      s.n = static_cast<uint32_t>(di.u("n"));
      if (di.op() == Op::MMAD)
        s.dtype = static_cast<isa::Dtype>(di["dt"]);
      else
        s.dtype = static_cast<isa::MxType>(di["et"]) == isa::MxType::E4M3 ? isa::Dtype::E4M3 : isa::Dtype::E5M2;
      s.elements = uint64_t{s.m} * s.n;
      s.bytes = (uint64_t{s.m} * s.k + uint64_t{s.k} * s.n) * isa::dtype_size(s.dtype);
      break;
    }
    case isa::TimingClass::Fix: case isa::TimingClass::FixUb:
      s.m = s.rows = static_cast<uint32_t>(di.u("m"));
      s.n = s.cols = static_cast<uint32_t>(di.u("n"));
      s.dtype = static_cast<isa::Dtype>(di["ddt"]);
      s.elements = uint64_t{s.m} * s.n;
      s.bytes = s.elements * isa::dtype_size(s.dtype);
      break;
    case isa::TimingClass::VecReduce: case isa::TimingClass::VecReduceMax:
    case isa::TimingClass::VecBroadcast:
      s.rows = static_cast<uint32_t>(di.u("rows"));
      s.cols = static_cast<uint32_t>(di.u("cols"));
      s.dtype = static_cast<isa::Dtype>(di["dt"]);
      s.elements = uint64_t{s.rows} * s.cols;
      s.bytes = s.elements * isa::dtype_size(s.dtype);
      break;
    case isa::TimingClass::VecCast: {
      // Sized by the source: msKPP measures 1 cycle per 256 B of source for widening and
      // narrowing casts alike (docs/calibration.md, VCONV rows).
      s.dtype = static_cast<isa::Dtype>(di["sdt"]);
      s.elements = di.u("count");
      s.bytes = s.elements * isa::dtype_size(s.dtype);
      break;
    }
    default:  // element-wise vector ops
      s.dtype = static_cast<isa::Dtype>(di["dt"]);
      s.elements = di.u("count");
      s.bytes = s.elements * isa::dtype_size(s.dtype);
      break;
  }
  return s;
}

}  // namespace npu::sem
