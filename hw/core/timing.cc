#include "hw/core/timing.h"

#include <algorithm>
#include <cmath>

#include "isa/error.h"

namespace npu::hw {

using isa::Op;
using isa::TimingClass;

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
}  // namespace

const PathConfig* path_of(const MteConfig& mte, TimingClass c) {
  switch (c) {
    case TimingClass::DmaGmUb: return &mte.gm_ub;
    case TimingClass::DmaUbGm: return &mte.ub_gm;
    case TimingClass::DmaGmL1: return &mte.gm_l1;
    case TimingClass::DmaGmL1Nz: return &mte.gm_l1_nz;
    case TimingClass::DmaL1L0a: return &mte.l1_l0a;
    case TimingClass::DmaL1L0b: return &mte.l1_l0b;
    case TimingClass::DmaL1Fb: return &mte.l1_fb;
    case TimingClass::DmaUbL1: return &mte.ub_l1;
    case TimingClass::DmaL1Ub: return &mte.l1_ub;
    case TimingClass::Fix: return &mte.l0c_gm;
    case TimingClass::FixUb: return &mte.l0c_ub;
    default: return nullptr;
  }
}

bool is_gm_path(TimingClass c) {
  return c == TimingClass::DmaGmUb || c == TimingClass::DmaUbGm || c == TimingClass::DmaGmL1 ||
         c == TimingClass::DmaGmL1Nz || c == TimingClass::Fix;
}

uint32_t cube_k0(const CubeConfig& cube, isa::Dtype dt) {
  switch (dt) {
    case isa::Dtype::BF16:
    case isa::Dtype::F16: return cube.k0_b16;
    case isa::Dtype::S8:
    case isa::Dtype::U8: return cube.k0_s8;
    case isa::Dtype::F32: return cube.k0_f32;
    case isa::Dtype::E4M3:
    case isa::Dtype::E5M2: return cube.k0_fp8;
    default: return cube.k0_b16;
  }
}

double cube_peak_tflops(const HwConfig& hw, isa::Dtype dt) {
  return 2.0 * hw.chip.clusters * hw.cube.m0 * hw.cube.n0 * cube_k0(hw.cube, dt) * (hw.chip.clock_ghz * 1e9) / 1e12;
}

uint64_t cube_cycles(const CubeConfig& cube, const sem::InstrShape& s) {
  return cube.startup + ceil_div(s.m, cube.m0) * ceil_div(s.n, cube.n0) * ceil_div(s.k, cube_k0(cube, s.dtype));
}

int vector_passes(Op op) { return op == Op::VRAMAX ? 2 : 1; }

uint64_t vector_repeats(const VectorConfig& v, const sem::DispatchedInstr& di, const sem::InstrShape& s) {
  // Row ops are the vector instructions of the rows/cols operand form (sem::shape_of sets
  // rows only for them; with rows = 0 both formulas give 0), whatever their timing class.
  if (s.rows != 0) {
    uint64_t row_bytes = uint64_t{s.cols} * isa::dtype_size(s.dtype);
    return uint64_t{s.rows} * ceil_div(row_bytes, v.repeat_bytes);
  }
  return ceil_div(s.bytes, v.repeat_bytes);
}

uint64_t vector_cycles(const VectorConfig& v, const sem::DispatchedInstr& di, const sem::InstrShape& s) {
  const TimingClass c = di.in.d().timing;
  const double per = v.cycles(c, s.dtype);  // vcast: sdt (sem::shape_of)
  const double total = double(v.startup) + double(vector_passes(di.op())) * double(vector_repeats(v, di, s)) * per;
  return std::max<uint64_t>(v.min_cycles, static_cast<uint64_t>(std::ceil(total)));
}

uint64_t path_cycles(const PathConfig& p, uint64_t bytes, bool trans) {
  const double rate = trans && p.trans_bytes_per_cycle > 0 ? p.trans_bytes_per_cycle : p.bytes_per_cycle;
  return std::max<uint64_t>(p.min_cycles, p.startup + static_cast<uint64_t>(std::ceil(double(bytes) / rate)));
}

uint64_t own_cycles(const HwConfig& hw, const sem::DispatchedInstr& di, const sem::InstrShape& s) {
  const TimingClass c = di.in.d().timing;
  if (c == TimingClass::Mmad || c == TimingClass::MmadMx) return cube_cycles(hw.cube, s);
  if (const PathConfig* p = path_of(hw.mte, c)) return path_cycles(*p, s.bytes, s.trans);
  if (di.pipe == isa::Pipe::Vector) return vector_cycles(hw.vector, di, s);
  throw Error("internal: no timing for " + std::string(di.in.d().mnemonic));
}

uint32_t scalar_cycles(const ScalarConfig& sc, TimingClass c) {
  switch (c) {
    case TimingClass::ScalarAlu: return sc.alu;
    case TimingClass::ScalarMul: return sc.mul;
    case TimingClass::ScalarDiv: return sc.div;
    case TimingClass::ScalarFp: return sc.fp;
    case TimingClass::ScalarBranch: return sc.branch;
    case TimingClass::Sync: return sc.sync;
    default: return 0;  // End: the core ends when its pipes drain
  }
}

uint64_t macs_of(const sem::DispatchedInstr& di, const sem::InstrShape& s) {
  if (di.in.d().flops != isa::Flops::TwoPerMac) return 0;
  return uint64_t{s.m} * s.n * s.k;
}

uint64_t flops_of(const sem::DispatchedInstr& di, const sem::InstrShape& s) {
  switch (di.in.d().flops) {
    case isa::Flops::Zero: return 0;
    case isa::Flops::OnePerElement: return s.elements;
    case isa::Flops::TwoPerMac: return 2 * macs_of(di, s);
  }
  return 0;
}

}  // namespace npu::hw
