#pragma once
// What rides on a TLM generic payload through the memory system besides address, length and
// command: the (effective) cache hint, who asked, and which region (tensor) the line belongs to.
// GmPort attaches one to its payload once; targets read it with get_extension.
#include <cstdint>

#include <tlm>

#include "isa/types.h"

namespace npu::hw {

struct MemExtension : tlm::tlm_extension<MemExtension> {
  isa::CacheHint hint = isa::CacheHint::Normal;  // after the region override was applied
  uint32_t requester = 0;                         // core port index
  uint32_t region = 0;                            // RegionTable id; 0 = no region
  uint64_t accepted = 0;  // write: tick the line has crossed the core's link (set by the interconnect)

  tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemExtension&>(other);
  }
};

}  // namespace npu::hw
