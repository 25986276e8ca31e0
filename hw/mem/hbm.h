#pragma once
// HBM: address-interleaved channels, each a bandwidth timeline plus a fixed latency. Reached by
// the L2 slices through one tagged TLM target socket each (loosely timed, b_transport).
//
// Timing of one request [addr, addr + n) arriving at t: it is cut at interleave boundaries;
// chunk k of b bytes goes to channel (chunk address / interleave) % channels and occupies it for
// b / channel_bytes_per_cycle cycles from the earliest gap at or after t; it completes
// `latency` cycles after its transfer ends. The request completes with its last chunk.
// Writes (dirty write-backs, none_cacheable writes) are timed the same way.
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "hw/config/hw_config.h"
#include "hw/mem/cycle_clock.h"
#include "hw/mem/divisor.h"
#include "hw/mem/stats.h"
#include "hw/mem/timeline.h"
#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {

class Hbm : public sc_core::sc_module {
 public:
  using TargetSocket = tlm_utils::simple_target_socket_tagged<Hbm>;

  Hbm(sc_core::sc_module_name name, const HbmConfig& cfg, double clock_ghz, uint32_t initiators, CycleClock clock);

  TargetSocket& target(uint32_t i) { return *targets_.at(i); }
  // Serves [addr, addr + bytes) arriving at tick `arrive` (simulation time `now`): books its
  // chunks on their channels; returns the tick the last one completes. b_transport's body,
  // called directly by the L2 slices of a MemSystem.
  uint64_t access(bool write, uint64_t addr, uint64_t bytes, uint64_t now, uint64_t arrive);
  uint32_t channels() const { return static_cast<uint32_t>(channels_.size()); }
  // Chunk k = addr / interleave is column k % channels of row k / channels (hbm.channel_mapping).
  uint32_t channel_of(uint64_t addr) const {
    const uint64_t chunk = interleave_.div(addr);
    return mapping_->slice_of(static_cast<uint32_t>(channels_div_.mod(chunk)), channels_div_.div(chunk));
  }
  const StatGroup& stats() const { return stats_; }
  uint64_t bytes_read(uint32_t ch) const { return channels_[ch]->bytes_read; }
  uint64_t bytes_written(uint32_t ch) const { return channels_[ch]->bytes_written; }
  uint64_t requests(uint32_t ch) const { return channels_[ch]->requests; }
  double busy_cycles(uint32_t ch) const { return clock_.cycles(channels_[ch]->timeline.busy_ticks()); }
  uint64_t total_bytes_read() const;
  uint64_t total_bytes_written() const;
  // Tracing: called for every interval [start, end) (ticks) a channel is booked to transfer, in
  // booking order; start >= the simulation time of the booking. The channel moves
  // channel_bytes_per_cycle per cycle during it. Empty function: no tracing (the default).
  using BusyObserver = std::function<void(uint32_t channel, bool write, uint64_t start, uint64_t end)>;
  void set_busy_observer(BusyObserver f) { busy_observer_ = std::move(f); }

 private:
  struct Channel {
    explicit Channel(const std::string& name) : stats(name) {}
    Timeline timeline;
    uint64_t bytes_read = 0, bytes_written = 0, requests = 0;
    StatGroup stats;
  };
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  HbmConfig cfg_;
  Divisor interleave_, channels_div_;  // cfg_.interleave, cfg_.channels
  double channel_bytes_per_cycle_;  // cfg.channel_bytes_per_cycle(clock_ghz)
  std::unique_ptr<const SliceMapping> mapping_;
  CycleClock clock_;
  uint64_t latency_ticks_;
  std::vector<std::unique_ptr<TargetSocket>> targets_;
  std::vector<std::unique_ptr<Channel>> channels_;
  StatGroup stats_;
  BusyObserver busy_observer_;
  std::vector<std::pair<uint64_t, uint64_t>> pieces_;  // scratch for busy_observer_
};

}  // namespace npu::hw
