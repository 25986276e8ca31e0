#pragma once
// What the timing model needs to know about a dispatched instruction without executing it:
// the GM byte ranges it touches (to issue line-sized requests) and its sizes (to compute
// cycles). Pure functions of the DispatchedInstr; no checks (execute() does those).
#include <cstdint>
#include <vector>

#include "isa/sem/dispatched.h"

namespace npu::sem {

struct GmRange {
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool is_write = false;
  isa::CacheHint hint = isa::CacheHint::Normal;  // fix has no hint field: Normal
};

// GM ranges in access order: one per burst (mov_gm_ub, mov_ub_gm, mov_gm_l1) or per row (fix);
// consecutive contiguous ranges are merged. Empty for instructions that do not touch GM.
std::vector<GmRange> gm_ranges(const DispatchedInstr& di);

struct InstrShape {
  uint64_t bytes = 0;     // DMA / fix: payload bytes moved (destination side for fix);
                          // vector: elements x element size (vcast: source); cube: A + B bytes
  uint64_t elements = 0;  // elements processed (vector, tile loads, fix: m*n; DMA: bytes)
  uint32_t m = 0, k = 0, n = 0;   // mmad / mmad_mx (fix: m, n)
  uint32_t rows = 0, cols = 0;    // tile loads, reductions, broadcasts (fix: m, n)
  uint32_t nburst = 0, burst = 0; // DMA
  bool trans = false;             // tile loads: written transposed
  isa::Dtype dtype = isa::Dtype::F32;  // the dtype for cost lookup: vector dt (vcast: sdt, and
                                       // bytes count source bytes), mmad dt, mmad_mx E4M3/E5M2, fix ddt
};

// Zeros for scalar and sync ops.
InstrShape shape_of(const DispatchedInstr& di);

}  // namespace npu::sem
