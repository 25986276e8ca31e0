#include "hw/top/trace_vcd.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <systemc>

#include "base/build_info.h"
#include "isa/error.h"
#include "isa/isa.h"

namespace npu::hw {

VcdRecorder::VcdRecorder(const std::string& path, uint64_t window_start_tick, uint64_t window_end_tick,
                         uint64_t ticks_per_cycle)
    : path_(path), win_start_(window_start_tick), win_end_(window_end_tick), pending_(ticks_per_cycle) {}

VcdRecorder::~VcdRecorder() {
  try {
    close();
  } catch (...) {  // the temporary goes with file_
  }
}

int VcdRecorder::add(const std::string& name, int bits) {
  if (opened_) throw Error("internal: VCD signal '" + name + "' declared after the recorder was opened");
  names_.push_back(name);
  bits_.push_back(bits);
  return static_cast<int>(names_.size()) - 1;
}

void VcdRecorder::open(const std::string& comment) {
  file_ = std::make_unique<AtomicOutputFile>(path_);
  value_.assign(names_.size(), 0);
  // One time unit = the kernel's resolution (integer ticks), so every cycle boundary is exact.
  writer_ = std::make_unique<VcdWriter>(file_->stream(), names_, bits_, comment, std::string("npusim ") + build_version(),
                                        VcdWriter::timescale(sc_core::sc_get_time_resolution().to_seconds()));
  opened_ = true;
  if (win_start_ > 0) push(win_start_, -1, 0, false);
}

void VcdRecorder::push(uint64_t tick, int id, int64_t value, bool set) {
  if (!opened_ || closed_) return;
  const uint64_t now = sc_core::sc_time_stamp().value();
  const Change c{std::max(tick, written_tick_), id, set, value};
  if (hold_ == 0) return pending_.push(c);
  const uint64_t upto = hold_ == UINT64_MAX ? now : std::min(now, hold_ - 1);
  if (c.tick <= upto) {  // due now: after the queued ones up to its tick, before the later ones
    drain(c.tick);
    apply(c);
  } else {
    pending_.push(c);
  }
  drain(upto);
}

void VcdRecorder::drain(uint64_t upto) {
  pending_.pop_until(upto, [this](const Change& c) { apply(c); });
}

void VcdRecorder::show(size_t i) {
  writer_->set(written_tick_, i, bits_[i] == 1 ? uint64_t(value_[i] != 0) : static_cast<uint64_t>(value_[i]));
}

void VcdRecorder::apply(const Change& c) {
  written_tick_ = c.tick;
  const bool in_window = c.tick >= win_start_ && c.tick < win_end_;
  if (c.id < 0) {
    if (in_window)
      for (size_t i = 0; i < value_.size(); ++i) show(i);
    return;
  }
  int64_t& v = value_[size_t(c.id)];
  v = c.set ? c.value : v + c.value;
  if (in_window) show(size_t(c.id));
}

void VcdRecorder::close() {
  if (!opened_ || closed_) return;
  closed_ = true;
  drain(UINT64_MAX);
  // The file ends one tick after the last change (where the SystemC replay that wrote npusim's
  // VCDs before ended: its writer's last time stamp was that simulation's end).
  writer_->finish(written_tick_ + 1);
  file_->commit();
}

std::string gtkwave_opcode_filter() {
  std::string out = "# npusim opcodes: GTKWave translate filter for the ...opcode signals (shown in hex)\n";
  for (int i = 0; i < isa::kNumOps; ++i) {
    char value[8];
    std::snprintf(value, sizeof value, "%02X", isa::opcode(isa::table()[i].op));
    out += std::string(value) + " " + std::string(isa::table()[i].mnemonic) + "\n";
  }
  return out;
}

}  // namespace npu::hw
