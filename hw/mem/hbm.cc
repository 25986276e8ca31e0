#include "hw/mem/hbm.h"

#include <algorithm>
#include <string>

#include "isa/error.h"

namespace npu::hw {

Hbm::Hbm(sc_core::sc_module_name name, const HbmConfig& cfg, double clock_ghz, uint32_t initiators, CycleClock clock)
    : sc_module(name), cfg_(cfg), interleave_(cfg.interleave), channels_div_(cfg.channels),
      channel_bytes_per_cycle_(cfg.channel_bytes_per_cycle(clock_ghz)),
      mapping_(slice_mappings().make(cfg.channel_mapping, SliceShape{cfg.channels},
                                     params_for(cfg.channel_mapping_params, cfg.channel_mapping))),
      clock_(clock), latency_ticks_(clock.ticks(cfg.latency)),
      stats_("hbm") {
  if (cfg.channels == 0 || cfg.interleave == 0 || !(channel_bytes_per_cycle_ > 0))
    throw Error("invalid HBM configuration: channels, interleave and bandwidth_gbps must be > 0");
  for (uint32_t i = 0; i < initiators; ++i) {
    targets_.push_back(std::make_unique<TargetSocket>(("target_" + std::to_string(i)).c_str()));
    targets_.back()->register_b_transport(this, &Hbm::b_transport, static_cast<int>(i));
  }
  for (uint32_t c = 0; c < cfg.channels; ++c) {
    channels_.push_back(std::make_unique<Channel>("ch" + std::to_string(c)));
    Channel* ch = channels_.back().get();
    ch->stats.add("bytes_read", &ch->bytes_read, "byte", "bytes read from this channel");
    ch->stats.add("bytes_written", &ch->bytes_written, "byte", "bytes written to this channel");
    ch->stats.add("requests", &ch->requests, "count", "request chunks served");
    ch->stats.add_formula("busy_cycles", [this, c] { return busy_cycles(c); },
                          "cycle", "cycles the channel spent transferring");
    ch->stats.add_formula("utilisation",
                          [ch] { return ratio(double(ch->timeline.busy_ticks()), double(CycleClock::now())); },
                          "ratio", "busy cycles / simulated cycles so far");
    stats_.add_child(&ch->stats);
  }
  stats_.add_formula("bytes_read", [this] { return double(total_bytes_read()); }, "byte",
                     "bytes read, all channels");
  stats_.add_formula("bytes_written", [this] { return double(total_bytes_written()); }, "byte",
                     "bytes written, all channels");
  stats_.add_formula("bytes_per_cycle",
                     [this] {
                       return ratio(double(total_bytes_read() + total_bytes_written()),
                                    clock_.cycles(CycleClock::now()));
                     },
                     "byte/cycle", "achieved bandwidth over the simulated time");
  stats_.add_formula("gbps",
                     [this] {
                       return ratio(double(total_bytes_read() + total_bytes_written()),
                                    sc_core::sc_time_stamp().to_seconds()) / 1e9;
                     },
                     "GB/s", "achieved bandwidth over the simulated time");
}

uint64_t Hbm::total_bytes_read() const {
  uint64_t n = 0;
  for (const auto& c : channels_) n += c->bytes_read;
  return n;
}

uint64_t Hbm::total_bytes_written() const {
  uint64_t n = 0;
  for (const auto& c : channels_) n += c->bytes_written;
  return n;
}

uint64_t Hbm::access(bool write, uint64_t begin, uint64_t bytes_in, uint64_t now, uint64_t arrive) {
  const uint64_t end = begin + bytes_in;
  uint64_t done = arrive;
  for (uint64_t a = begin; a < end;) {
    const uint64_t chunk_end = std::min(end, (interleave_.div(a) + 1) * cfg_.interleave);
    const uint64_t bytes = chunk_end - a;
    const uint32_t c = channel_of(a);
    Channel& ch = *channels_[c];
    ch.timeline.retire(now);
    const uint64_t dur = clock_.ticks(double(bytes) / channel_bytes_per_cycle_);
    pieces_.clear();
    done = std::max(done, ch.timeline.fill(arrive, dur, busy_observer_ ? &pieces_ : nullptr) + latency_ticks_);
    for (const auto& [s, e] : pieces_) busy_observer_(c, write, s, e);
    (write ? ch.bytes_written : ch.bytes_read) += bytes;
    ++ch.requests;
    a = chunk_end;
  }
  return done;
}

void Hbm::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t now = CycleClock::now();
  const uint64_t done = access(p.is_write(), p.get_address(), p.get_data_length(), now, now + delay.value());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  delay = sc_core::sc_time::from_value(done - now);
}

}  // namespace npu::hw
