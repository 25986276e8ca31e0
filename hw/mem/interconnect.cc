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

void Interconnect::b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  Port& port = *ports_[static_cast<size_t>(id)];
  const uint64_t now = CycleClock::now();
  const uint64_t t = now + delay.value();
  const uint64_t n = p.get_data_length();
  const uint32_t slice = geo_.slice_of(p.get_address());
  ++port.requests;
  if (p.is_write()) {
    port.write_link.retire(now);
    port.bytes_written += n;
    const uint64_t dur = clock_.ticks(double(n) / port.write_bytes_per_cycle);
    const uint64_t sent = port.write_link.fill(t, dur);
    if (auto* ext = p.get_extension<MemExtension>()) ext->accepted = sent;  // posted: the core is done with it
    const uint64_t at_slice = sent + latency_ticks_;
    delay = sc_core::sc_time::from_value(at_slice - now);
    (*to_slice_[slice])->b_transport(p, delay);
  } else {
    port.read_link.retire(now);
    port.bytes_read += n;
    delay = sc_core::sc_time::from_value(t + latency_ticks_ - now);
    (*to_slice_[slice])->b_transport(p, delay);
    const uint64_t data_ready = now + delay.value();
    const uint64_t dur = clock_.ticks(double(n) / port.read_bytes_per_cycle);
    const uint64_t done = port.read_link.fill(data_ready, dur);
    delay = sc_core::sc_time::from_value(done - now);
  }
}

}  // namespace npu::hw
