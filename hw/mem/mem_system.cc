#include "hw/mem/mem_system.h"

#include <string>

namespace npu::hw {

MemSystem::MemSystem(sc_core::sc_module_name name, const HwConfig& cfg, uint32_t ports)
    : sc_module(name), clock_(CycleClock::from_ghz(cfg.chip.clock_ghz)), geo_(L2Geometry::from(cfg.l2)),
      stats_(std::string(basename())), l2_stats_("l2"), ports_stats_("gm_ports") {
  hbm_ = std::make_unique<Hbm>("hbm", cfg.hbm, cfg.chip.clock_ghz, geo_.slices, clock_);
  noc_ = std::make_unique<Interconnect>("noc", cfg.noc, geo_, ports, clock_);
  std::vector<const L2Counters*> parts;
  for (uint32_t s = 0; s < geo_.slices; ++s) {
    slices_.push_back(
        std::make_unique<L2Slice>(("l2_slice" + std::to_string(s)).c_str(), cfg.l2, geo_, s, clock_));
    L2Slice& sl = *slices_.back();
    sl.to_hbm.bind(hbm_->target(s));
    noc_->to_slice(s).bind(sl.target);
    parts.push_back(&sl.counters());
  }
  // Requests between these modules go by direct call (LineRequest), the sockets stay bound.
  std::vector<L2Slice*> direct;
  for (auto& sl : slices_) {
    sl->set_hbm(hbm_.get());
    direct.push_back(sl.get());
  }
  noc_->set_slices(std::move(direct));
  for (auto& sl : slices_)
    sl->set_prefetcher([this, gm_bytes = cfg.hbm.size](uint64_t addr, uint64_t at) {
      if (addr >= gm_bytes) return;
      const uint32_t region = regions_.lookup(addr);
      if (regions_.effective(region, isa::CacheHint::Prefetch) == isa::CacheHint::NoneCacheable) return;
      slices_[geo_.slice_of(addr)]->prefetch_fill(addr, region, at);
    });
  register_l2_totals(l2_stats_, parts);
  for (auto& sl : slices_) l2_stats_.add_child(&sl->stats());
  for (uint32_t p = 0; p < ports; ++p) {
    GmPort::Config pc{geo_.line, cfg.mte.max_outstanding, p, clock_, &regions_};
    gm_ports_.push_back(std::make_unique<GmPort>(("gm_port" + std::to_string(p)).c_str(), pc));
    gm_ports_.back()->socket.bind(noc_->port(p));
    gm_ports_.back()->set_interconnect(noc_.get());
    ports_stats_.add_child(&gm_ports_.back()->stats());
  }
  stats_.add_child(&l2_stats_);
  stats_.add_child(&hbm_->stats());
  stats_.add_child(&noc_->stats());
  stats_.add_child(&ports_stats_);
}

void MemSystem::route_through_sockets() {
  for (auto& p : gm_ports_) p->set_interconnect(nullptr);
  noc_->set_slices({});
  for (auto& sl : slices_) sl->set_hbm(nullptr);
}

void MemSystem::preload(const std::vector<GmRange>& ranges) {
  for (const GmRange& r : ranges) {
    if (r.bytes == 0) continue;
    for (uint64_t a = geo_.line_base(r.addr); a < r.addr + r.bytes; a += geo_.line)
      slices_[geo_.slice_of(a)]->preload(a, regions_.lookup(a));
  }
}

L2Counters MemSystem::l2_total() const {
  L2Counters t;
  for (const auto& s : slices_) t += s->counters();
  return t;
}

L2Counters MemSystem::l2_region_total(uint32_t region) const {
  L2Counters t;
  for (const auto& s : slices_)
    if (region < s->region_counters().size()) t += s->region_counters()[region];
  return t;
}

}  // namespace npu::hw
