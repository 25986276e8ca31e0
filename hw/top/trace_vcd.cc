#include "hw/top/trace_vcd.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include <systemc>

#include "hw/mem/sim_kernel.h"
#include "isa/isa.h"
#include "isa/error.h"

namespace npu::hw {

namespace {

// The replay: every signal as a traced variable, and a thread applying the changes in time.
class VcdReplay : public sc_core::sc_module {
 public:
  VcdReplay(sc_core::sc_module_name name, const std::vector<std::string>& names, const std::vector<int>& bits,
            std::FILE* changes, uint64_t win_start, uint64_t win_end)
      : sc_module(name), bits_(bits), changes_(changes), win_start_(win_start), win_end_(win_end),
        value_(names.size(), 0), bools_(new bool[names.size() + 1]()),
        words_(new sc_dt::uint64[names.size() + 1]()) {
    SC_HAS_PROCESS(VcdReplay);
    SC_THREAD(run);
  }
  void trace(sc_core::sc_trace_file* tf, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (bits_[i] == 1)
        sc_core::sc_trace(tf, bools_[i], names[i]);
      else
        sc_core::sc_trace(tf, words_[i], names[i], bits_[i]);
    }
  }

 private:
  void show(size_t i) {
    if (bits_[i] == 1)
      bools_[i] = value_[i] != 0;
    else
      words_[i] = static_cast<sc_dt::uint64>(value_[i]);
  }
  void run() {
    VcdRecorder::Change c;
    while (std::fread(&c, sizeof c, 1, changes_) == 1) {
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (c.tick > now) sc_core::wait(sc_core::sc_time::from_value(c.tick - now));
      const bool in_window = c.tick >= win_start_ && c.tick < win_end_;
      if (c.id < 0) {
        if (in_window)
          for (size_t i = 0; i < value_.size(); ++i) show(i);
        continue;
      }
      value_[c.id] = c.set ? c.value : value_[c.id] + c.value;
      if (in_window) show(static_cast<size_t>(c.id));
    }
    // SystemC writes a timestep's values when time moves on: one more tick flushes the last.
    sc_core::wait(sc_core::sc_time::from_value(1));
  }

  std::vector<int> bits_;
  std::FILE* changes_;
  uint64_t win_start_, win_end_;
  std::vector<int64_t> value_;
  std::unique_ptr<bool[]> bools_;
  std::unique_ptr<sc_dt::uint64[]> words_;
};

// SystemC writes the wall-clock date into the header ($date ... $end); blank it in place (same
// length) so the same run gives a bit-identical VCD.
void blank_vcd_date(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (!f) throw Error("cannot reopen the VCD file '" + path + "'");
  // The header ($comment with the opcode list, then $date) is well inside 64 KiB.
  std::string text(64 * 1024, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  const size_t date = text.find("$date");
  const size_t end = date == std::string::npos ? date : text.find("$end", date);
  bool ok = true;
  if (end != std::string::npos) {
    std::string blank = text.substr(date + 5, end - date - 5);
    for (char& c : blank)
      if (c != '\n') c = ' ';
    ok = std::fseek(f, static_cast<long>(date + 5), SEEK_SET) == 0 &&
         std::fwrite(blank.data(), 1, blank.size(), f) == blank.size();
  }
  if (std::fclose(f) != 0 || !ok) throw Error("error writing '" + path + "'");
}

}  // namespace

VcdRecorder::VcdRecorder(const std::string& path, uint64_t window_start_tick, uint64_t window_end_tick)
    : path_(path),
      base_(temp_name_beside(path)),
      changes_tmp_(temp_name_beside(path + ".changes")),
      vcd_tmp_(base_ + ".vcd"),
      win_start_(window_start_tick),
      win_end_(window_end_tick) {}

VcdRecorder::~VcdRecorder() {
  try {
    close();
  } catch (...) {
  }
  if (changes_) std::fclose(changes_);
  std::remove(changes_tmp_.path().c_str());
  std::remove(vcd_tmp_.path().c_str());  // a replay that failed
}

int VcdRecorder::add(const std::string& name, int bits) {
  if (opened_) throw Error("internal: VCD signal '" + name + "' declared after the recorder was opened");
  names_.push_back(name);
  bits_.push_back(bits);
  return static_cast<int>(names_.size()) - 1;
}

void VcdRecorder::open(const std::string& comment) {
  comment_ = comment;
  changes_ = std::fopen(changes_tmp_.path().c_str(), "w+b");
  if (!changes_) throw Error("cannot create the temporary file '" + changes_tmp_.path() + "' for the VCD");
  opened_ = true;
  if (win_start_ > 0) push(win_start_, -1, 0, false);
}

void VcdRecorder::push(uint64_t tick, int id, int64_t value, bool set) {
  if (!opened_ || closed_) return;
  const uint64_t now = sc_core::sc_time_stamp().value();
  pending_.push(Change{std::max(tick, written_tick_), seq_++, id, set, value});
  if (hold_ > 0) drain(hold_ == UINT64_MAX ? now : std::min(now, hold_ - 1));
}

void VcdRecorder::drain(uint64_t upto) {
  while (!pending_.empty() && pending_.top().tick <= upto) {
    const Change& c = pending_.top();
    written_tick_ = c.tick;
    if (std::fwrite(&c, sizeof c, 1, changes_) != 1) throw Error("error writing '" + changes_tmp_.path() + "'");
    pending_.pop();
  }
}

void VcdRecorder::close() {
  if (!opened_ || closed_) return;
  closed_ = true;
  drain(UINT64_MAX);
  if (std::fflush(changes_) != 0) throw Error("error writing '" + changes_tmp_.path() + "'");
  std::rewind(changes_);
  replay();
  std::fclose(changes_);
  changes_ = nullptr;
  std::remove(changes_tmp_.path().c_str());
  blank_vcd_date(vcd_tmp_.path());
  if (std::rename(vcd_tmp_.path().c_str(), path_.c_str()) != 0)
    throw Error("cannot move the VCD file into place as '" + path_ + "'");
}

void VcdRecorder::replay() {
  // A context of its own; the traced simulation's context stays as it was.
  sc_core::sc_simcontext* const prev = sc_core::sc_curr_simcontext;
  sc_core::sc_simcontext* const prev_default = sc_core::sc_default_global_context;
  {
    SimContext ctx;
    VcdReplay module("npusim_vcd", names_, bits_, changes_, win_start_, win_end_);
    sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base_.c_str());
    if (!tf) throw Error("cannot create VCD file '" + path_ + "'");
    // One time unit = the kernel's resolution (integer ticks), so every cycle boundary is exact
    // (quietly: SystemC reports the new unit as an info message on stdout).
    const sc_core::sc_actions was = sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    tf->set_time_unit(sc_core::sc_get_time_resolution().to_seconds(), sc_core::SC_SEC);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, was);
    tf->write_comment(comment_);
    module.trace(tf, names_);
    sc_core::sc_start();
    resync_sanitizer_stack();
    sc_core::sc_close_vcd_trace_file(tf);
  }
  sc_core::sc_curr_simcontext = prev;
  sc_core::sc_default_global_context = prev_default;
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
