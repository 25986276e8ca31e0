#pragma once
// What a run traces (npusim run --vcd / --trace / --instr-csv / --trace-window / --trace-select)
// and whether it collects per-label statistics. Passed to hw::run_systemc in RunOptions::trace;
// with nothing requested no observer exists and the model runs untraced.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/error.h"

namespace npu::hw {

struct TraceOptions {
  std::string vcd_path;    // VCD waveform (sc_trace), "" = none
  std::string json_path;   // Chrome Trace Event JSON (Perfetto UI), "" = none
  std::string csv_path;    // one row per executed instruction, "" = none
  std::string gtkw_path;   // GTKWave save file for the VCD (trace_gtkw.h), "" = none; needs vcd_path
  // Cycle window [window_start, window_end): events outside it are not written (VCD: no value
  // changes are recorded outside it). Statistics always cover the whole run.
  uint64_t window_start = 0;
  uint64_t window_end = std::numeric_limits<uint64_t>::max();
  // Glob patterns (fnmatch, '*' also crosses dots) over unit names: a core "cluster0.aiv1", a
  // unit "cluster0.aiv1.MTE2", memory units "l2.slice3", "hbm.ch5", "mte". A core pattern
  // selects all its units. Empty = everything.
  std::vector<std::string> select;
  bool label_stats = false;      // per semantic label statistics (stats.json "labels")
  uint64_t sample_cycles = 1000; // width of the HBM bandwidth / L2 hit rate counter bins

  bool writes_files() const { return !vcd_path.empty() || !json_path.empty() || !csv_path.empty(); }
  bool any() const { return writes_files() || label_stats; }
};

// "START:END" (cycles; either side may be empty: ":5000", "1000:"); throws npu::Error.
void parse_trace_window(const std::string& text, TraceOptions& opt);
// Comma-separated globs ("cluster0.*,hbm.*") appended to opt.select; throws on an empty pattern.
void parse_trace_select(const std::string& text, TraceOptions& opt);

// True when `name` (or, for a unit "core.PIPE", its core) matches one of the patterns, or
// there are none.
bool trace_selected(const std::vector<std::string>& patterns, const std::string& name);

// A --trace-select pattern that selects nothing: a usage error, not a fault of the kernel.
struct TraceSelectError : Error {
  using Error::Error;
};

// Throws TraceSelectError naming the first pattern that selects none of `units` (the run's unit
// names, as trace_selected sees them) and listing the units, compressed ("cluster{0..23}.aiv{0..1}.MTE2").
void check_trace_select(const std::vector<std::string>& patterns, const std::vector<std::string>& units);

}  // namespace npu::hw
