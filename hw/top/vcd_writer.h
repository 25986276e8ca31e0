#pragma once
// VcdWriter: the text of a VCD file from time-ordered signal values, in the layout of SystemC
// 2.3's VCD writer (which npusim's VCDs came from before; viewers, the gtkw save files and the
// launch merger read that layout): one `$scope module SystemC` around every signal, the dots of
// a name as nested scopes (a scope's signals in the order given, then its sub-scopes by name),
// five-letter identifiers in signal order, the values after time 0 in `$dumpvars`, then for each
// later time at which a value differs from the last one written a `#time` line and the changed
// values in signal order, and a last `#time` at the end.
//
// Cost: proportional to the changes (each time step visits only the signals set in it), where
// SystemC's writer compares every signal at every time step.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace npu::hw {

class VcdWriter {
 public:
  // Writes the header to `out` (not owned; buffered here, written by flush() and finish()):
  // `comment`, `version`, `timescale` as VCD spells it ("1 ps"), then the declarations of the
  // signals: names "a.b.c" (dots are scopes); bits 1 = a wire shown 0 / 1, else a vector of that
  // width.
  VcdWriter(std::FILE* out, const std::vector<std::string>& names, std::vector<int> bits, const std::string& comment,
            const std::string& version, const std::string& timescale);

  // Signal `id` has `value` from `tick` on (ticks non-decreasing across calls). A vector wider
  // than its bits is written as all x, as SystemC's writer does.
  void set(uint64_t tick, size_t id, uint64_t value);
  // Writes the last time step and the final time stamp `end_tick`, then flushes.
  void finish(uint64_t end_tick);

  // The identifier of the i-th signal ("aaaaa", "aaaab", ...).
  static std::string identifier(size_t i);
  // VCD's spelling of a time unit of `seconds` (1, 10 or 100 of fs .. s), e.g. 1e-12 -> "1 ps".
  static std::string timescale(double seconds);

 private:
  void end_step();  // writes the changes of cur_tick_
  void write_value(size_t id);
  void flush();

  std::vector<int> bits_;
  std::vector<std::string> ids_;
  std::vector<uint64_t> value_, written_;
  std::vector<uint8_t> dirty_;  // set in the current time step (listed in touched_)
  std::vector<uint32_t> touched_;
  uint64_t cur_tick_ = 0;
  bool dumped_ = false;
  std::FILE* out_ = nullptr;
  std::string buf_;
};

}  // namespace npu::hw
