#pragma once
// VCD waveform through SystemC's sc_trace, without touching the traced simulation.
//
// Why a replay: the model is loosely timed (a unit learns the times of an instruction, and a DMA
// its memory traffic, when it starts, partly in the future), and its results depend on the order
// in which same-time processes run. A recorder process inside the model's simulation, waking at
// each change, would add timed events and so perturb that order (and the cycles). So during the
// run the recorder only collects value changes: a priority queue orders them by time, and every
// change whose time has been reached (nothing can arrive earlier than the present) is appended
// to a temporary file, which is therefore sorted and keeps memory bounded. close() then replays
// that file in a fresh SystemC context of its own: one module holding every signal, registered
// with sc_trace before its sc_start, and one SC_THREAD that waits until each change's time and
// applies it, so SystemC's VCD writer samples each value at its true time.
//
// Changes are mostly increments (+1 when a unit becomes busy, -1 when it stops), so their order
// within one time does not matter. The VCD time unit is set explicitly to the kernel's resolution
// (1 ps by default); one cycle is `period` time units, noted in a $comment with the opcode table.
// Window [start, end) in ticks: the traced values follow the true values only inside it (taking
// them all at its start), so nothing changes in the file outside it.
#include <cstdint>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "base/output_file.h"

namespace npu::hw {

class VcdRecorder {
 public:
  // path: the VCD file. The changes go to a temporary beside it, the replay writes another
  // (SystemC appends ".vcd" to names), which close() renames to `path`; both are removed on an
  // error or SIGINT / SIGTERM (base/output_file.h), so `path` is whole or untouched.
  VcdRecorder(const std::string& path, uint64_t window_start_tick, uint64_t window_end_tick);
  ~VcdRecorder();
  VcdRecorder(const VcdRecorder&) = delete;
  VcdRecorder& operator=(const VcdRecorder&) = delete;

  // A signal "a.b.c" (dots become VCD scopes) of `bits` bits (1 = boolean: nonzero value).
  int add(const std::string& name, int bits);
  // Starts collecting; `comment` goes into the VCD header. Throws npu::Error on I/O errors.
  void open(const std::string& comment);

  // At tick (>= the current simulation time; earlier ticks are taken as now): value += delta,
  // value = v. Call from the traced simulation.
  void add_at(uint64_t tick, int id, int64_t delta) { push(tick, id, delta, false); }
  // Changes at or after `tick` stay queued (a record that may still bring earlier changes is
  // pending); UINT64_MAX = none.
  void hold(uint64_t tick) { hold_ = tick; }
  void set_at(uint64_t tick, int id, int64_t value) { push(tick, id, value, true); }

  // Writes the VCD (the replay; idempotent). Call once the traced simulation is over; it needs
  // no SystemC context of its own and restores the current one afterwards.
  void close();
  size_t signals() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }  // as given to add()
  const std::vector<int>& bits() const { return bits_; }

  struct Change {
    uint64_t tick, seq;
    int32_t id;  // -1: window start (traced values take the true values)
    bool set;
    int64_t value;
    bool operator>(const Change& o) const { return tick != o.tick ? tick > o.tick : seq > o.seq; }
  };

 private:
  void push(uint64_t tick, int id, int64_t value, bool set);
  void drain(uint64_t upto);  // append every pending change with tick <= upto to the file
  void replay();

  std::string path_, base_, comment_;
  TempPath changes_tmp_, vcd_tmp_;  // the changes file, the replay's VCD (base_ + ".vcd")
  uint64_t win_start_, win_end_;
  std::vector<std::string> names_;
  std::vector<int> bits_;
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> pending_;
  uint64_t seq_ = 0, written_tick_ = 0, hold_ = UINT64_MAX;
  std::FILE* changes_ = nullptr;
  bool opened_ = false, closed_ = false;
};

// GTKWave translate filter file for the `...opcode` signals: one line per opcode of the ISA
// table, the value as GTKWave shows the 8-bit signal in hex ("0A") and the mnemonic.
std::string gtkwave_opcode_filter();

}  // namespace npu::hw
