#pragma once
// GmPort: what an MTE pipe (or FixPipe) calls, from its own SC_THREAD, to move a DMA's GM bytes
// through the memory system with real contention.
//
// transfer() cuts the byte ranges at L2-line boundaries into line requests and sends each to
// the interconnect at its issue time (loosely timed: Interconnect::access when MemSystem linked
// the two, else b_transport with an annotated delay; the same timing): request i is issued
// at the latest of (start, start + bytes before it / issue_bytes_per_cycle, completion of request
// i - max_outstanding, issue of request i - 1), so at most MteConfig::max_outstanding lines are
// in flight (counted across DMAs: posted writes of an earlier DMA may still be unacknowledged). Targets only book timelines and return, so a DMA of N lines costs N cheap calls
// and a single wait() (until the last completion), not one context switch per line.
//
// Data: the payloads carry no data (data pointer null). GM contents are moved functionally by the
// shared instruction semantics on the GlobalMemory; this traffic carries timing only.
//
// Hint and region: each line is looked up in the RegionTable (unless Options::region names one);
// the region's override, if set, replaces the DMA's hint (RegionTable::effective). Hint, region
// and requester ride on a MemExtension.
//
// Temporal decoupling: each DMA books the shared timelines up to its own completion in one go.
// Timelines fill gaps, so a DMA that starts later in call order still gets the bandwidth left
// between earlier bookings; where two streams want the same slot, the earlier caller wins.
// Options::quantum > 0 bounds the look-ahead: the caller syncs (waits) whenever its next issue
// time is more than a quantum ahead of simulation time, interleaving competing streams more
// finely at the cost of about duration / quantum waits per DMA.
#include <cstdint>
#include <optional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "hw/mem/cycle_clock.h"
#include "hw/mem/divisor.h"
#include "hw/mem/interconnect.h"
#include "hw/mem/mem_extension.h"
#include "hw/mem/mem_types.h"
#include "hw/mem/region_table.h"
#include "hw/mem/stats.h"

namespace npu::hw {

struct GmPortConfig {
  uint32_t line = 512;            // L2 line bytes
  uint32_t max_outstanding = 16;  // MteConfig::max_outstanding
  uint32_t requester = 0;         // core port index (carried in the MemExtension)
  CycleClock clock;
  const RegionTable* regions = nullptr;  // may be null: every access has region 0, DMA hint
};
struct GmPortOptions {
  double issue_bytes_per_cycle = 0;  // pace of issue (e.g. the MTE path rate); 0 = unpaced
  std::optional<uint32_t> region;     // force a region id instead of looking addresses up
  sc_core::sc_time quantum = sc_core::SC_ZERO_TIME;  // 0: never sync mid-DMA
};
struct GmPortResult {
  sc_core::sc_time start, end;  // absolute: first issue, last completion
  // Writes: when the last line has crossed the core's link (the data is handed off: a posted
  // write frees its pipe here; `end` is its acknowledgement). Reads: = end.
  sc_core::sc_time handed_off;
  uint64_t requests = 0, bytes = 0;
};


class GmPort : public sc_core::sc_module {
 public:
  using Config = GmPortConfig;
  using Options = GmPortOptions;
  using Result = GmPortResult;

  GmPort(sc_core::sc_module_name name, const Config& cfg);

  tlm_utils::simple_initiator_socket<GmPort> socket;  // bind to Interconnect::port(i)
  // MemSystem's direct link to the interconnect `socket` is bound to: each line is one call of
  // Interconnect::access (for port cfg.requester) instead of a TLM transport.
  void set_interconnect(Interconnect* noc) { noc_ = noc; }

  // Moves the ranges (read: GM -> core, write: core -> GM) starting now; waits until the last
  // line completes, so on return sc_time_stamp() is the DMA's end. Call from an SC_THREAD.
  Result transfer(const std::vector<GmRange>& ranges, bool write, isa::CacheHint hint,
                  const Options& opt = {});
  Result transfer(GmRange range, bool write, isa::CacheHint hint, const Options& opt = {}) {
    return transfer(std::vector<GmRange>{range}, write, hint, opt);
  }
  // As transfer, but starts issuing at `start` (absolute, >= now) and does not wait for the
  // end (it may still wait mid-way if opt.quantum is set). Callable from an SC_THREAD only
  // when a quantum is set; otherwise from any process.
  Result issue(const std::vector<GmRange>& ranges, bool write, isa::CacheHint hint,
               sc_core::sc_time start, const Options& opt = {});

  const StatGroup& stats() const { return stats_; }

 private:
  Config cfg_;
  Divisor line_;  // cfg_.line
  Interconnect* noc_ = nullptr;  // set_interconnect (null: through `socket`)
  tlm::tlm_generic_payload payload_;
  MemExtension* ext_;  // owned by payload_
  // Ring of the last max_outstanding completion ticks. It persists across DMAs: a read port's
  // earlier lines are all done before its pipe issues again, a write port's posted lines may not
  // be, so this ring is the write buffer (a line waits for room when max_outstanding are unacked).
  std::vector<uint64_t> completions_;
  uint64_t ring_pos_ = 0;
  uint64_t transfers_ = 0, requests_ = 0, bytes_read_ = 0, bytes_written_ = 0, syncs_ = 0;
  StatGroup stats_;
};

}  // namespace npu::hw
