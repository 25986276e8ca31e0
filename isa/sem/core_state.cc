#include "isa/sem/core_state.h"

#include <cstring>

#include "base/huge_pages.h"

namespace npu::sem {

std::string CoreId::name() const {
  std::string s = "cluster" + std::to_string(cluster);
  return type == isa::CoreType::Aic ? s + ".aic" : s + ".aiv" + std::to_string(sub);
}

const char* buffer_name(Buffer b) {
  switch (b) {
    case Buffer::L1: return "L1";
    case Buffer::L0A: return "L0A";
    case Buffer::L0B: return "L0B";
    case Buffer::L0C: return "L0C";
    case Buffer::Bias: return "BiasTable";
    case Buffer::Fb: return "FB";
    case Buffer::Ub: return "UB";
  }
  return "?";
}

ZeroedBytes::ZeroedBytes(size_t n) : n_(n) {
  if (n == 0) return;
  p_ = static_cast<uint8_t*>(allocate_zeroed(n));
}

ZeroedBytes::ZeroedBytes(const ZeroedBytes& o) : ZeroedBytes(o.n_) {
  if (n_) std::memcpy(p_, o.p_, n_);
}

ZeroedBytes& ZeroedBytes::operator=(const ZeroedBytes& o) {
  if (this != &o) {
    ZeroedBytes copy(o);
    swap(copy);
  }
  return *this;
}

ZeroedBytes::~ZeroedBytes() {
  free_zeroed(p_, n_);
}

CoreState::CoreState(const CoreId& cid, const isa::MachineDesc& m, std::vector<int64_t> p, int bdim)
    : id(cid), arch(m.arch), params(std::move(p)) {
  const isa::BufferDesc& b = m.buffers;
  auto set = [&](Buffer which, uint64_t size, uint32_t alignment) {
    buffer(which) = ZeroedBytes(size);
    align[static_cast<int>(which)] = alignment ? alignment : 1;
  };
  const bool aic = id.type == isa::CoreType::Aic;
  set(Buffer::L1, aic ? b.l1 : 0, b.l1_align);
  set(Buffer::L0A, aic ? b.l0a : 0, b.l0a_align);
  set(Buffer::L0B, aic ? b.l0b : 0, b.l0b_align);
  set(Buffer::L0C, aic ? b.l0c : 0, b.l0c_align);
  set(Buffer::Bias, aic ? b.bias_table : 0, b.bias_table_align);
  set(Buffer::Fb, aic ? b.fixpipe : 0, b.fixpipe_align);
  set(Buffer::Ub, aic ? 0 : b.ub, b.ub_align);
  block_idx = id.cluster;
  block_dim = bdim;
  subblock_idx = aic ? 0 : id.sub;
  core_type = static_cast<int64_t>(id.type);
  subblock_dim = aic ? 1 : m.aiv_per_cluster;
}

}  // namespace npu::sem
