#include "hw/mem/interconnect.h"

#include <string>

#include "hw/mem/mem_extension.h"
#include "isa/error.h"

namespace npu::hw {

Interconnect::Interconnect(sc_core::sc_module_name name, const NocConfig& cfg, const L2Geometry& geo,
                           uint32_t ports, CycleClock clock)
    : sc_module(name), cfg_(cfg), geo_(geo), clock_(clock), latency_ticks_(clock.ticks(cfg.latency)),
      stats_("noc") {
  if (!(cfg.aiv_read_bytes_per_cycle > 0) || !(cfg.aiv_write_bytes_per_cycle > 0) ||
      !(cfg.aic_read_bytes_per_cycle > 0) || !(cfg.aic_write_bytes_per_cycle > 0))
    throw Error("invalid NoC configuration: core/aic read/write bytes per cycle must be > 0");
  for (uint32_t i = 0; i < ports; ++i) {
    ports_.push_back(std::make_unique<Port>("port" + std::to_string(i)));
    Port& p = *ports_.back();
    p.read_bytes_per_cycle = cfg.aiv_read_bytes_per_cycle;
    p.write_bytes_per_cycle = cfg.aiv_write_bytes_per_cycle;
    p.socket = std::make_unique<PortSocket>(("port_" + std::to_string(i)).c_str());
    p.socket->register_b_transport(this, &Interconnect::b_transport, static_cast<int>(i));
    p.stats.add("bytes_read", &p.bytes_read, "byte", "bytes read through this core port");
    p.stats.add("bytes_written", &p.bytes_written, "byte", "bytes written through this core port");
    p.stats.add("requests", &p.requests, "count", "line requests through this core port");
    stats_.add_child(&p.stats);
  }
  for (uint32_t s = 0; s < geo.slices; ++s)
    to_slice_.push_back(std::make_unique<SliceSocket>(("to_slice_" + std::to_string(s)).c_str()));
}

void Interconnect::set_port_core(uint32_t i, isa::CoreType type) {
  Port& p = *ports_.at(i);
  const bool aic = type == isa::CoreType::Aic;
  p.read_bytes_per_cycle = aic ? cfg_.aic_read_bytes_per_cycle : cfg_.aiv_read_bytes_per_cycle;
  p.write_bytes_per_cycle = aic ? cfg_.aic_write_bytes_per_cycle : cfg_.aiv_write_bytes_per_cycle;
}

template <class Serve>
uint64_t Interconnect::route(Port& port, bool write, uint64_t n, uint64_t now, uint64_t t, uint64_t* accepted,
                             Serve serve) {
  ++port.requests;
  if (write) {
    port.write_link.retire(now);
    port.bytes_written += n;
    const uint64_t dur = clock_.ticks(double(n) / port.write_bytes_per_cycle);
    const uint64_t sent = port.write_link.fill(t, dur);
    *accepted = sent;  // posted: the core is done with it
    return serve(sent + latency_ticks_);
  }
  port.read_link.retire(now);
  port.bytes_read += n;
  const uint64_t data_ready = serve(t + latency_ticks_);
  const uint64_t dur = clock_.ticks(double(n) / port.read_bytes_per_cycle);
  return port.read_link.fill(data_ready, dur);
}

uint64_t Interconnect::access(uint32_t id, LineRequest& r, uint64_t now, uint64_t t) {
  L2Slice& slice = *slices_[geo_.slice_of(r.addr)];
  return route(*ports_[id], r.write, r.bytes, now, t, &r.accepted,
               [&](uint64_t at) { return slice.access(r, now, at); });
}

void Interconnect::b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t now = CycleClock::now();
  const uint64_t t = now + delay.value();
  SliceSocket& to = *to_slice_[geo_.slice_of(p.get_address())];
  uint64_t accepted = 0;
  const uint64_t done = route(*ports_[static_cast<size_t>(id)], p.is_write(), p.get_data_length(), now, t, &accepted,
                              [&](uint64_t at) {
                                sc_core::sc_time d = sc_core::sc_time::from_value(at - now);
                                to->b_transport(p, d);
                                return now + d.value();
                              });
  if (p.is_write())
    if (auto* ext = p.get_extension<MemExtension>()) ext->accepted = accepted;
  delay = sc_core::sc_time::from_value(done - now);
}

}  // namespace npu::hw
