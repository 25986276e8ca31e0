#pragma once
// VCD waveform of the traced simulation, without touching it.
//
// The model is loosely timed (a unit learns the times of an instruction, and a DMA its memory
// traffic, when it starts, partly in the future), and its results depend on the order in which
// same-time processes run, so nothing here is a process of the traced simulation: the recorder
// only collects value changes. A priority queue orders them by time, and every change whose time
// has been reached (nothing can arrive earlier than the present) goes to a VcdWriter
// (hw/top/vcd_writer.h), which writes the file as the run goes, so memory stays bounded.
//
// Changes are mostly increments (+1 when a unit becomes busy, -1 when it stops), so their order
// within one time does not matter. The VCD time unit is set explicitly to the kernel's resolution
// (1 ps by default); one cycle is `period` time units, noted in a $comment with the opcode table.
// Window [start, end) in ticks: the traced values follow the true values only inside it (taking
// them all at its start), so nothing changes in the file outside it.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/output_file.h"
#include "hw/top/tick_queue.h"
#include "hw/top/vcd_writer.h"

namespace npu::hw {

class VcdRecorder {
 public:
  // path: the VCD file, written to a temporary beside it that close() renames to `path`; the
  // temporary is removed on an error or SIGINT / SIGTERM (base/output_file.h), so `path` is
  // whole or untouched.
  // ticks_per_cycle: the queue of pending changes keeps them per cycle (TickQueue).
  VcdRecorder(const std::string& path, uint64_t window_start_tick, uint64_t window_end_tick, uint64_t ticks_per_cycle);
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

  // Writes the rest of the VCD and moves it into place (idempotent). Call once the traced
  // simulation is over.
  void close();
  size_t signals() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }  // as given to add()
  const std::vector<int>& bits() const { return bits_; }


 private:
  struct Change {
    uint64_t tick;
    int32_t id;  // -1: window start (traced values take the true values)
    bool set;
    int64_t value;
  };

  void push(uint64_t tick, int id, int64_t value, bool set);
  void drain(uint64_t upto);  // write every pending change with tick <= upto
  void apply(const Change& c);
  void show(size_t i);  // the traced value of signal i := its true value

  std::string path_;
  uint64_t win_start_, win_end_;
  std::vector<std::string> names_;
  std::vector<int> bits_;
  std::vector<int64_t> value_;  // true values (the traced ones follow them inside the window)
  TickQueue<Change> pending_;  // in (tick, arrival) order
  uint64_t written_tick_ = 0, hold_ = UINT64_MAX;
  std::unique_ptr<AtomicOutputFile> file_;
  std::unique_ptr<VcdWriter> writer_;
  bool opened_ = false, closed_ = false;
};

// GTKWave translate filter file for the `...opcode` signals: one line per opcode of the ISA
// table, the value as GTKWave shows the 8-bit signal in hex ("0A") and the mnemonic.
std::string gtkwave_opcode_filter();

}  // namespace npu::hw
