#pragma once
// One L2 slice: the cache protocol (l2_access on L2Tags + replacement policy, no time) in a thin
// TLM shell that turns its outcome into timing with resource timelines; no SystemC process, no
// wait(). A request is one L2
// line or part of one (it must not cross a line). Write-back, write-allocate.
//
// Timing of a request of n bytes arriving at t (all in cycles; port = n / slice_bytes_per_cycle
// on the slice port timeline, placed in its earliest gap at or after the time given):
//   read hit          done = port(max(t, fill of the line if still in flight)) + read_hit_latency
//   read miss         MSHR at m >= t (earliest idle); HBM reads the whole line from m, data at f;
//                     MSHR held [m, f); line installed (victim handled at f); done = port(f)
//   write hit         done = max(port(t), fill if in flight) + write_hit_latency; line dirty
//   write miss, full  line installed dirty without an HBM read; done = port(t) + write_hit_latency
//   write miss, part  like a read miss (the line is fetched to merge) then the write:
//                     done = max(port(t), f) + write_hit_latency
//   none_cacheable read hit    as a read hit (served from L2; replacement state untouched)
//   none_cacheable read miss   MSHR at m; HBM reads n bytes from m, data at f; nothing allocated;
//                              done = port(f)
//   none_cacheable write       done = HBM write of the data from port(t) (+ HBM latency). If
//                              the line is present it is updated in place; if it was dirty the
//                              whole merged line is written (n = line) and the line becomes
//                              clean, so L2 never holds data newer than HBM for it; a clean
//                              line stays clean. Replacement state untouched.
//   prefetch          as normal (allocate, write-back); in addition a prefetch read miss
//                     fetches the next l2.prefetch_lines lines after its own into L2 (next-line
//                     prefetch on miss): each absent one is allocated clean in its slice from
//                     the miss's MSHR grant time m (an MSHR there at m' >= m, the HBM line read
//                     from m', installed at its arrival), counted as prefetch_fills (and in HBM
//                     bytes); nobody waits for it. A present line, a line past the end of GM or
//                     one whose tensor is none_cacheable is not prefetched.
// Dirty victims are written back to HBM at the fill time: they occupy the channel (and count in
// HBM bytes) but the requester does not wait for them.
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "hw/config/hw_config.h"
#include "hw/mem/cycle_clock.h"
#include "hw/mem/hbm.h"
#include "hw/mem/l2_counters.h"
#include "hw/mem/l2_protocol.h"
#include "hw/mem/l2_tags.h"
#include "hw/mem/mem_types.h"
#include "hw/mem/stats.h"
#include "hw/mem/timeline.h"

namespace npu::hw {

class L2Slice : public sc_core::sc_module {
 public:
  L2Slice(sc_core::sc_module_name name, const L2Config& cfg, const L2Geometry& geo, uint32_t index,
          CycleClock clock);

  tlm_utils::simple_target_socket<L2Slice> target;    // from the interconnect
  tlm_utils::simple_initiator_socket<L2Slice> to_hbm;
  // MemSystem's direct link to its HBM (the same model to_hbm is bound to): misses, write-backs
  // and bypasses call Hbm::access instead of going through the socket.
  void set_hbm(Hbm* h) { hbm_direct_ = h; }

  // Serves request r (one line or part of one, of this slice) arriving at tick t, simulation
  // time `now`; returns its completion tick. b_transport's body, called directly by a
  // MemSystem's interconnect.
  uint64_t access(const LineRequest& r, uint64_t now, uint64_t t);

  // Warm start: installs the line holding addr (clean, owned by region) if absent. Functional
  // only (no time, no counters); call before the simulation runs.
  void preload(uint64_t addr, uint32_t region);

  const L2Tags& tags() const { return tags_; }
  // Multi-launch runs carry the contents (tags, dirty bits, replacement state) from one launch's
  // slice to the next one's (same geometry); after release_tags the slice must not be used.
  L2Tags release_tags() { return std::move(tags_); }
  void adopt_tags(L2Tags&& t) { tags_ = std::move(t); }
  bool contains(uint64_t addr) const { return tags_.find(geo_.block_of(addr)) >= 0; }
  bool is_dirty(uint64_t addr) const;
  const L2Counters& counters() const { return counters_; }
  // Per region id (index); ids never seen have zero counters.
  const std::vector<L2Counters>& region_counters() const { return by_region_; }
  const StatGroup& stats() const { return stats_; }

  // Where a prefetch-hinted miss sends the lines after its own (MemSystem routes each to its
  // slice's prefetch_fill): (address of the line, tick its prefetch is issued).
  using Prefetcher = std::function<void(uint64_t addr, uint64_t at)>;
  void set_prefetcher(Prefetcher p) { prefetcher_ = std::move(p); }
  // Brings the line holding addr in for region from tick `at` unless it is present.
  void prefetch_fill(uint64_t addr, uint32_t region, uint64_t at);

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  uint64_t hbm(bool write, uint64_t addr, uint64_t bytes, uint64_t at);  // returns completion tick
  uint64_t port(uint64_t at, uint64_t bytes);                            // returns end of transfer
  // An allocated line's data is present from `at`; its victim (if any) is evicted then.
  void installed(uint64_t block, const L2Outcome& o, uint64_t at);
  L2Counters& region(uint32_t id);

  L2Config cfg_;
  L2Geometry geo_;
  uint32_t index_;
  CycleClock clock_;
  L2Tags tags_;
  std::vector<uint64_t> fill_ready_;  // per tag slot: tick at which the line's data is present
  Timeline port_;
  ServerPool mshrs_;
  tlm::tlm_generic_payload hbm_payload_;
  uint64_t read_hit_ticks_, write_hit_ticks_;
  L2Counters counters_;
  std::vector<L2Counters> by_region_;
  StatGroup stats_;
  Prefetcher prefetcher_;
  Hbm* hbm_direct_ = nullptr;
};

}  // namespace npu::hw
