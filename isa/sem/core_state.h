#pragma once
// Architectural state of one core (AIC or AIV): scalar registers, pc, local buffers, the
// set_flag/wait_flag flags and the special registers. Plain data, no timing: the functional
// ISS and the SystemC model both keep one CoreState per core and run the same semantics on it.
// Cross-core (cc_set/cc_wait) counters live in sem::CrossCoreHub (isa/sem/sync.h), because a
// set changes the state of other cores.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "isa/isa.h"
#include "isa/machine.h"

namespace npu::sem {

// Which core of the launch: cluster index, type, and AIV sub-index (0 for the AIC).
struct CoreId {
  int cluster = 0;
  isa::CoreType type = isa::CoreType::Aic;
  int sub = 0;
  std::string name() const;  // "cluster3.aiv1", "cluster0.aic"
  friend bool operator==(const CoreId& a, const CoreId& b) {
    return a.cluster == b.cluster && a.type == b.type && a.sub == b.sub;
  }
  friend bool operator!=(const CoreId& a, const CoreId& b) { return !(a == b); }
};

// Local buffers. The AIC has L1, L0A, L0B, L0C, BiasTable and the FixPipe buffer; the AIV has
// UB. A buffer a core does not have has size 0 (every access to it is out of bounds).
enum class Buffer : uint8_t { L1, L0A, L0B, L0C, Bias, Fb, Ub };
inline constexpr int kNumBuffers = 7;
const char* buffer_name(Buffer b);  // "L1", "L0A", "L0B", "L0C", "BiasTable", "FB", "UB"

// set_flag ids per (src pipe, dst pipe) pair: 0..7 (UIMM(id, 3) in the table).
inline constexpr int kFlagIds = 8;
inline constexpr int kNumFlags = isa::kNumPipes * isa::kNumPipes * kFlagIds;
inline constexpr int flag_index(isa::Pipe src, isa::Pipe dst, int id) {
  return (static_cast<int>(src) * isa::kNumPipes + static_cast<int>(dst)) * kFlagIds + id;
}

// A local buffer's bytes, zero at creation without writing them: the pages come from anonymous
// mappings shared by the chip's buffers (allocate_zeroed, base/huge_pages.h), which the OS
// zero-fills on first touch, so elaborating a chip of many cores costs only the (huge) pages
// its kernel actually uses. Copies copy the contents.
class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(size_t n);
  ZeroedBytes(const ZeroedBytes& o);
  ZeroedBytes& operator=(const ZeroedBytes& o);
  ZeroedBytes(ZeroedBytes&& o) noexcept { swap(o); }
  ZeroedBytes& operator=(ZeroedBytes&& o) noexcept {
    swap(o);
    return *this;
  }
  ~ZeroedBytes();
  uint8_t* data() { return p_; }
  const uint8_t* data() const { return p_; }
  size_t size() const { return n_; }

 private:
  void swap(ZeroedBytes& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
  }
  uint8_t* p_ = nullptr;
  size_t n_ = 0;
};

struct CoreState {
  // Sizes buffers from m.buffers for id.type, zero-fills them; params are the kernel parameter
  // values in Program::params order (GM addresses, integers, fp32 bit patterns).
  CoreState(const CoreId& id, const isa::MachineDesc& m, std::vector<int64_t> params, int block_dim);

  CoreId id;
  isa::Arch arch = isa::Arch::A2;

  // Scalar registers; r0 reads as 0 (write through set_reg, which ignores r0).
  std::array<uint64_t, isa::kNumRegs> regs{};
  uint32_t pc = 0;
  bool ended = false;
  uint64_t reg(int r) const { return r == 0 ? 0 : regs[r]; }
  void set_reg(int r, uint64_t v) { if (r != 0) regs[r] = v; }

  std::array<ZeroedBytes, kNumBuffers> buf;   // contents; size() is the capacity
  std::array<uint32_t, kNumBuffers> align{};  // required alignment of offsets (bytes)
  ZeroedBytes& buffer(Buffer b) { return buf[static_cast<int>(b)]; }
  const ZeroedBytes& buffer(Buffer b) const { return buf[static_cast<int>(b)]; }
  uint32_t alignment(Buffer b) const { return align[static_cast<int>(b)]; }

  // set_flag flags (fired, not yet consumed), indexed by flag_index().
  std::array<bool, kNumFlags> flags{};

  std::vector<int64_t> params;

  // Special registers (getsr): block_idx = cluster index, block_dim = clusters of the launch,
  // subblock_idx = AIV sub-index (0 on the AIC), core_type = 0 AIC / 1 AIV (isa::CoreType),
  // subblock_dim = AIVs per cluster on an AIV, 1 on the AIC.
  int64_t block_idx = 0, block_dim = 1, subblock_idx = 0, core_type = 0, subblock_dim = 1;
};


}  // namespace npu::sem
