#pragma once
// The memory system below the cores: core ports -> Interconnect -> L2 slices -> HBM, plus one
// GmPort per core port (already bound), the RegionTable of the run, warm start and statistics.
// Built from HwConfig sections l2, hbm, noc, mte and chip.clock_ghz.
//
//   MemSystem mem("mem", cfg, /*ports=*/2 * cores);   // ChipTop: an MTE2 and an MTE3/FIXP port per core
//   mem.regions().add("x", x_addr, x_bytes);                 // per-tensor stats / overrides
//   ... in a pipe's SC_THREAD:
//   mem.port(p).transfer({{addr, bytes}}, /*write=*/false, isa::CacheHint::Normal);
#include <memory>
#include <vector>

#include <systemc>

#include "hw/config/hw_config.h"
#include "hw/mem/gm_port.h"
#include "hw/mem/hbm.h"
#include "hw/mem/interconnect.h"
#include "hw/mem/l2_slice.h"
#include "hw/mem/mem_types.h"
#include "hw/mem/region_table.h"
#include "hw/mem/stats.h"

namespace npu::hw {

class MemSystem : public sc_core::sc_module {
 public:
  MemSystem(sc_core::sc_module_name name, const HwConfig& cfg, uint32_t ports);

  GmPort& port(uint32_t i) { return *gm_ports_.at(i); }
  uint32_t ports() const { return static_cast<uint32_t>(gm_ports_.size()); }
  // Declares the core type that owns port i (before simulation): the NoC gives its links that
  // type's rates (NocConfig). Undeclared ports take the AIV (aiv_*) rates.
  void set_port_core(uint32_t i, isa::CoreType type) { noc_->set_port_core(i, type); }
  Interconnect& noc() { return *noc_; }
  Hbm& hbm() { return *hbm_; }
  const Hbm& hbm() const { return *hbm_; }
  L2Slice& slice(uint32_t i) { return *slices_.at(i); }
  const L2Slice& slice(uint32_t i) const { return *slices_.at(i); }
  uint32_t slices() const { return static_cast<uint32_t>(slices_.size()); }
  const L2Geometry& geometry() const { return geo_; }
  const L2Slice& slice_of(uint64_t addr) const { return *slices_[geo_.slice_of(addr)]; }
  RegionTable& regions() { return regions_; }
  const RegionTable& regions() const { return regions_; }
  CycleClock clock() const { return clock_; }

  // Sends every request through the TLM sockets instead of the direct calls between the
  // modules (same timing: the direct path is each b_transport's own body; a test compares them).
  // Call before the simulation.
  void route_through_sockets();

  // Warm start (L2Config::warm): installs every line of the ranges, clean, in order (later lines
  // may evict earlier ones if they do not fit). Deterministic; no time passes, no counters move.
  void preload(const std::vector<GmRange>& ranges);

  L2Counters l2_total() const;
  L2Counters l2_region_total(uint32_t region) const;  // summed over slices
  const StatGroup& stats() const { return stats_; }

 private:
  CycleClock clock_;
  L2Geometry geo_;
  RegionTable regions_;
  std::unique_ptr<Hbm> hbm_;
  std::vector<std::unique_ptr<L2Slice>> slices_;
  std::unique_ptr<Interconnect> noc_;
  std::vector<std::unique_ptr<GmPort>> gm_ports_;
  StatGroup stats_, l2_stats_, ports_stats_;
};

}  // namespace npu::hw
