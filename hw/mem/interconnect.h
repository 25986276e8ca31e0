#pragma once
// The interconnect from core ports to L2 slices: one tagged TLM target socket per core port,
// one initiator socket per slice, routing by address (lines interleaved across slices).
// Each core port has a read link and a write link, each a bandwidth timeline at the rates of the
// port's core type (NocConfig::aic_* for AIC ports, aiv_* for AIV and undeclared ports; see
// set_port_core), and the network adds NocConfig::latency once per request (one way):
//   read of n bytes issued at t:  slice sees it at t + latency; its data, ready at s, crosses the
//                                 port's read link: done = s' + n / read rate
//                                 (s' = earliest gap at or after s)
//   write of n bytes issued at t: the data crosses the write link from t' >= t, reaches the slice
//                                 at t' + n / write rate + latency;
//                                 done = the slice's completion (the acknowledgement is free)
// Cores streaming at once therefore contend in the slices and HBM channels, not in their links.
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "hw/config/hw_config.h"
#include "hw/mem/cycle_clock.h"
#include "hw/mem/l2_slice.h"
#include "hw/mem/mem_types.h"
#include "hw/mem/stats.h"
#include "hw/mem/timeline.h"

namespace npu::hw {

class Interconnect : public sc_core::sc_module {
 public:
  using PortSocket = tlm_utils::simple_target_socket_tagged<Interconnect>;
  using SliceSocket = tlm_utils::simple_initiator_socket<Interconnect>;

  Interconnect(sc_core::sc_module_name name, const NocConfig& cfg, const L2Geometry& geo,
               uint32_t ports, CycleClock clock);

  PortSocket& port(uint32_t i) { return *ports_.at(i)->socket; }
  SliceSocket& to_slice(uint32_t s) { return *to_slice_.at(s); }
  uint32_t ports() const { return static_cast<uint32_t>(ports_.size()); }
  // Declares which core type owns port i (before simulation): its links take that type's rates.
  void set_port_core(uint32_t i, isa::CoreType type);
  // MemSystem's direct links to its slices (the models to_slice(s) is bound to, in slice
  // order): requests call L2Slice::access instead of going through the sockets.
  void set_slices(std::vector<L2Slice*> slices) { slices_ = std::move(slices); }
  // Serves line request r from core port `port` issued at tick t (simulation time `now`);
  // returns its completion tick and, for a write, sets r.accepted. b_transport's body, called
  // directly by a MemSystem's GmPorts. Needs set_slices.
  uint64_t access(uint32_t port, LineRequest& r, uint64_t now, uint64_t t);
  const StatGroup& stats() const { return stats_; }

 private:
  struct Port {
    explicit Port(const std::string& name) : stats(name) {}
    std::unique_ptr<PortSocket> socket;
    Timeline read_link, write_link;
    double read_bytes_per_cycle = 1, write_bytes_per_cycle = 1;
    uint64_t bytes_read = 0, bytes_written = 0, requests = 0;
    StatGroup stats;
  };
  void b_transport(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  // The port's links and the network latency around the slice's service, which `serve(at)`
  // books for a request reaching the slice at tick `at` and returns its completion tick.
  template <class Serve>
  uint64_t route(Port& port, bool write, uint64_t n, uint64_t now, uint64_t t, uint64_t* accepted, Serve serve);

  NocConfig cfg_;
  L2Geometry geo_;
  CycleClock clock_;
  uint64_t latency_ticks_;
  std::vector<std::unique_ptr<Port>> ports_;
  std::vector<std::unique_ptr<SliceSocket>> to_slice_;
  std::vector<L2Slice*> slices_;  // set_slices: direct calls (empty: through to_slice_)
  StatGroup stats_;
};

}  // namespace npu::hw
