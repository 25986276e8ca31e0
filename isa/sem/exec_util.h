#pragma once
// Internal helpers of the execute() implementation files: checked buffer/GM access with fault
// messages, and element load/store between buffers and fp32/int64 working arrays.
#include <cstdint>
#include <string>
#include <vector>

#include "isa/sem/execute.h"
#include "isa/sem/fault.h"

namespace npu::sem::detail {

struct Exec {
  const DispatchedInstr& di;
  ExecContext& ctx;
  CoreState& core;

  Exec(const DispatchedInstr& d, ExecContext& c) : di(d), ctx(c), core(*c.core) {}

  [[noreturn]] void bad(const std::string& what) const { fault(core.id, di, what); }

  // Checked pointer to [off, off + bytes) of buffer b of `on` (default: the executing core).
  // off must be aligned to the buffer's alignment.
  uint8_t* local(Buffer b, uint64_t off, uint64_t bytes, bool write, CoreState* on = nullptr) const {
    return local_strided(b, off, 1, 0, bytes, write, on);
  }
  // n rows/bursts of len bytes, starts stride bytes apart: the whole extent must be inside
  // the buffer; base (and stride when n > 1) aligned. Returns the pointer to the base.
  uint8_t* local_strided(Buffer b, uint64_t base, uint64_t n, uint64_t stride, uint64_t len,
                         bool write, CoreState* on = nullptr) const;

  // GM access [addr, addr + bytes) must pass GlobalMemory::access_ok.
  void gm_check(uint64_t addr, uint64_t bytes, bool write) const;

  // The peer cores for the a5 paths (fault when absent).
  CoreState* peer_aic() const;
  CoreState* peer_aiv(int64_t sub) const;
};

bool is_int(isa::Dtype t);        // S32, S16, S8, U8

// n elements of dt at p <-> fp32 (stores round RNE, fp8 non-saturating).
void load_floats(isa::Dtype dt, const uint8_t* p, size_t n, float* out);
void store_floats(isa::Dtype dt, uint8_t* p, size_t n, const float* in);
// n integer elements of dt at p <-> int64 (stores wrap to the element width).
void load_ints(isa::Dtype dt, const uint8_t* p, size_t n, int64_t* out);
void store_ints(isa::Dtype dt, uint8_t* p, size_t n, const int64_t* in);

float f32_from_bits(uint64_t bits);  // low 32 bits as fp32

// The semantics of each data instruction: exec<Op::VADD> and so on, one small function per
// instruction (exec_dma.cc, exec_cube.cc, exec_fix.cc, exec_vector.cc), found by execute()
// from the table. A data instruction without one fails to link.
template <isa::Op op>
void exec(Exec& x);
#define INSN(id, ...) \
  template <>         \
  void exec<isa::Op::id>(Exec & x);
#include "isa/instructions.def"
#undef INSN

}  // namespace npu::sem::detail
