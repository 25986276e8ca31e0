#include "hw/top/stats_report.h"

#include "hw/core/trace_observer.h"

namespace npu::hw {

SimStats collect_stats(const ChipTop& top) {
  const LaunchState& L = top.launch();
  const MemSystem& mem = top.mem();
  SimStats s;
  s.total_cycles = top.total_cycles;
  s.clock_ghz = L.hw.chip.clock_ghz;
  s.block_dim = L.block_dim;
  s.timing_only = L.timing_only;
  for (const auto& core : top.cores()) {
    CoreRecord c{core->state.id, core->end_cycle, {}};
    for (int p = 0; p < isa::kNumPipes; ++p)
      if (const UnitStats* u = core->unit_stats_if(static_cast<isa::Pipe>(p)))
        c.pipes.push_back(PipeRecord{static_cast<isa::Pipe>(p), u->c});
    s.cores.push_back(std::move(c));
  }
  L2Record l2{mem.l2_total(), {}, {}};
  for (uint32_t i = 0; i < mem.slices(); ++i) l2.slices.push_back(mem.slice(i).counters());
  for (uint32_t id = 0; id <= mem.regions().size(); ++id) {
    L2Counters c = mem.l2_region_total(id);
    if (id == RegionTable::kNone && c.accesses() == 0 && c.evictions == 0) continue;
    l2.regions.push_back(L2RegionRecord{id == RegionTable::kNone ? "(none)" : mem.regions().name(id), c});
  }
  s.l2 = std::move(l2);
  HbmRecord hbm;
  for (uint32_t ch = 0; ch < mem.hbm().channels(); ++ch)
    hbm.channels.push_back(
        HbmChannelRecord{mem.hbm().bytes_read(ch), mem.hbm().bytes_written(ch), mem.hbm().requests(ch), mem.hbm().busy_cycles(ch)});
  s.hbm = std::move(hbm);
  for (const StatGroup* g : mem.stats().children())
    if (g->name() != "l2" && g->name() != "hbm") s.memory.push_back(g->snapshot());
  return s;
}

}  // namespace npu::hw
