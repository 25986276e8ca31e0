#pragma once
// Cycles <-> SystemC time. Timelines count integer ticks (sc_time values, i.e. multiples of the
// kernel's time resolution, 1 ps by default), so fractional service times (512 B at 48 B/cycle)
// keep their precision without floating-point drift.
#include <cmath>
#include <cstdint>

#include <systemc>

#include "isa/error.h"

namespace npu::hw {

struct CycleClock {
  uint64_t period = 1;  // ticks per cycle

  static CycleClock from_ghz(double ghz) {
    if (!(ghz > 0)) throw Error("clock frequency must be > 0 GHz");
    uint64_t p = sc_core::sc_time(1.0 / ghz, sc_core::SC_NS).value();
    if (p == 0) throw Error("clock period is below the SystemC time resolution");
    return CycleClock{p};
  }
  // std::llround (half away from zero), with the common case inline: for 0 <= x < 2^63 the
  // truncation i and x - i are exact, so rounding up when x - i >= 0.5 is llround's answer (the
  // memory system converts a service time on every line).
  uint64_t ticks(double cycles) const {
    const double x = cycles * double(period);
    if (!(x >= 0 && x < 9223372036854775808.0)) return static_cast<uint64_t>(std::llround(x));
    const auto i = static_cast<uint64_t>(x);
    return i + (x - double(i) >= 0.5 ? 1 : 0);
  }
  double cycles(uint64_t t) const { return double(t) / double(period); }
  static uint64_t now() { return sc_core::sc_time_stamp().value(); }
};

}  // namespace npu::hw
