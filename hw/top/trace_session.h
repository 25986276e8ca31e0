#pragma once
// The observer of one traced run (hw/core/trace_observer.h): resolves each InstrRecord into a
// TraceEvent (core, disassembly, label, dispatch cycle, bytes, FLOPs, the L2 / HBM traffic of
// its GM transfer) and hands it to the sinks the TraceOptions ask for:
//   Chrome trace JSON (trace_chrome.h), instruction CSV (trace_csv.h), VCD (trace_vcd.h),
//   per-label statistics (trace_labels.h).
// Window and selection filter what the files show; statistics always see everything.
//
// Life cycle (hw::run_systemc does this): construct after the ChipTop and before sc_start, set
// LaunchState::observer, run, take the statistics, finish() (also after a fault or deadlock, so
// the files show what led to it; the VCD, written as the run goes, gets its last changes then:
// trace_vcd.h), then label_records(). The session adds no process or event to the traced
// simulation, so a traced run has exactly the cycles and statistics of an untraced one.
//
// VCD signals (dots are scopes), for each selected core C and unit P:
//   C.P.busy (1), C.P.pc (32), C.P.opcode (8; table in the header comment), C.P.queue (8,
//   dispatch queue depth, pipes only); C.flags.SRC_DST (8: fired and not yet consumed, for
//   every pipe pair the program's set_flag/wait_flag use); C.cc.sets, C.cc.waits (32: cross-core
//   sets issued, waits passed); for each selected slice l2.sliceN.{hits,misses,bypasses} (32,
//   cumulative); hbm.chN.bytes_in_flight (32: bytes of transfers in progress that this channel
//   serves); mte.active (16: GM transfers in progress).
// L2 and HBM changes are attributed to the transfer that caused them: counters at its start,
// bytes in flight over [first issue, last completion] of the transfer.
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/mem/l2_counters.h"
#include "hw/top/sim_stats.h"
#include "hw/top/trace_event.h"
#include "hw/core/trace_observer.h"
#include "hw/top/trace_options.h"

namespace npu::isa {
struct Program;
}

namespace npu::hw {

class ChipTop;
class ChromeTraceWriter;
class CsvTraceWriter;
class VcdRecorder;
class LabelStats;

class TraceSession final : public TraceObserver {
 public:
  // Opens the files; throws npu::Error if one cannot be created.
  TraceSession(const TraceOptions& opt, ChipTop& top, const isa::Program& program);
  ~TraceSession() override;

  void before_gm_issue(const sem::CoreId& core, isa::Pipe pipe) override;
  void on_instr(const InstrRecord& r) override;

  // Flushes the counter bins, stops the VCD recorder and closes every file (idempotent).
  void finish();
  // The per-label statistics (empty unless opt.label_stats).
  std::vector<LabelRecord> label_records() const;
  const TraceLayout& layout() const { return layout_; }

 private:
  struct Section {
    std::vector<std::string> disasm;  // lazily filled per pc
    std::vector<int> label;           // label id per pc
    std::vector<std::string> source;  // Program::where per pc ("" without a source map), lazily
    std::vector<char> source_known;   // source[pc] filled (only the trace files need it)
  };
  struct UnitSignals {
    int busy = -1, pc = -1, op = -1, queue = -1;
  };
  struct Bin {
    uint64_t hbm_read_ticks = 0, hbm_write_ticks = 0;  // HBM channel-ticks spent transferring
    uint64_t hits = 0, misses = 0, bypass = 0;
  };
  Bin& bin_at(uint64_t index);
  void on_hbm_busy(bool write, uint64_t start_tick, uint64_t end_tick);
  int core_index(const sem::CoreId& id) const;
  const std::string& disasm(int core, uint32_t pc, const isa::Instr& in);
  std::string_view source(int core, uint32_t pc);  // Program::where, computed at first use
  void setup_vcd(const isa::Program& program);
  void vcd_event(const InstrRecord& r, int core, const TraceEvent& e);
  void memory_deltas(const InstrRecord& r, int core, TraceEvent& e);
  void add_to_bins(const InstrRecord& r, uint64_t hits, uint64_t misses, uint64_t bypass);
  void flush_bins(uint64_t before_cycle);
  bool in_window(uint64_t start, uint64_t end) const;

  TraceOptions opt_;
  ChipTop& top_;
  const isa::Program& program_;
  TraceLayout layout_;
  int cores_per_cluster_ = 0;
  bool has_aic_ = false;
  uint64_t period_ = 1;
  std::array<Section, 2> sections_;  // by core type
  std::vector<std::array<bool, isa::kNumPipes>> selected_;
  std::vector<std::array<std::deque<uint64_t>, isa::kNumPipes>> dispatched_;  // queue entry cycles

  std::unique_ptr<ChromeTraceWriter> json_;
  std::unique_ptr<CsvTraceWriter> csv_;
  std::unique_ptr<VcdRecorder> vcd_;
  std::unique_ptr<LabelStats> labels_;
  bool memory_selected_ = false, finished_ = false;

  // GM transfer attribution. Transfers being issued ("open", by core * kNumPipes + pipe) get the
  // memory counters' movement since the last open/close, shared evenly among them.
  struct OpenGm {
    uint64_t start_tick = 0;
    std::vector<std::array<uint64_t, 3>> slice;  // hits, misses, bypasses per slice (without a VCD: the totals)
    std::vector<std::array<uint64_t, 2>> channel;  // bytes read, written per channel (likewise)
  };
  void attribute();  // distributes the counters' movement since the last call to the open transfers
  uint64_t hold_tick() const;  // earliest start of an open transfer (UINT64_MAX if none)
  std::vector<L2Counters> snap_l2_;
  std::vector<uint64_t> snap_hbm_r_, snap_hbm_w_;
  std::map<int, OpenGm> open_gm_;

  // VCD signal ids.
  std::vector<std::array<UnitSignals, isa::kNumPipes>> unit_sig_;
  std::vector<std::array<int, isa::kNumPipes * isa::kNumPipes>> flag_sig_;
  std::vector<std::array<int, 2>> cc_sig_;
  std::vector<std::array<int, 3>> slice_sig_;
  std::vector<int> channel_sig_;
  int mte_sig_ = -1;

  // Counter bins (HBM bandwidth, L2 hit rate) for the JSON trace.
  std::deque<Bin> bins_;
  uint64_t bins_first_ = 0;   // bin index of bins_.front()
  uint64_t bins_emitted_ = 0; // bins before this index have been written
};

}  // namespace npu::hw
