#pragma once
// What a finished launch measured, as typed records: the one result both backends produce (the
// SystemC model fills everything, the functional ISS the instruction counts only) and the report
// and stats.json are made from. Counters are the modules' own integers (UnitCounters,
// L2Counters); derived figures (utilisation, hit rates, GB/s) are methods, computed when asked.
// JSON is written from these records at the edge (sim_stats_json, docs/stats.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/core/unit_stats.h"
#include "hw/mem/l2_counters.h"
#include "isa/sem/core_state.h"
#include "isa/types.h"

namespace npu::hw {

struct PipeRecord {
  isa::Pipe pipe = isa::Pipe::Scalar;
  UnitCounters counters;  // the ISS fills instructions only
  double utilization(uint64_t total_cycles) const { return ratio(double(counters.busy_cycles), double(total_cycles)); }
};

struct CoreRecord {
  sem::CoreId id;                     // id.type is the core kind, id.name() "cluster3.aiv1"
  std::optional<uint64_t> end_cycle;  // timed runs: the cycle the core executed `end`
  std::vector<PipeRecord> pipes;      // the pipes the core has (ISS: those that executed something)
  const PipeRecord* pipe(isa::Pipe p) const;  // nullptr when absent
  uint64_t instructions() const;
};

struct L2RegionRecord {
  std::string name;  // the tensor; "(none)" for accesses outside every tensor
  L2Counters counters;
};

struct L2Record {
  L2Counters total;
  std::vector<L2Counters> slices;       // slice order
  std::vector<L2RegionRecord> regions;  // tensor registration order
};
double hit_rate(const L2Counters& c);       // (read + write hits) / accesses
double read_hit_rate(const L2Counters& c);  // read hits / reads

struct HbmChannelRecord {
  uint64_t bytes_read = 0, bytes_written = 0, requests = 0;
  double busy_cycles = 0;  // time the channel spent transferring (ticks / ticks per cycle)
};

struct HbmRecord {
  std::vector<HbmChannelRecord> channels;
  uint64_t bytes_read() const;
  uint64_t bytes_written() const;
};

// What instructions moved and computed, summed over their instruction events.
struct LabelTraffic {
  uint64_t bytes = 0, flops = 0, hbm_bytes = 0, l2_hits = 0, l2_misses = 0, l2_bypass = 0;
  void add(const LabelTraffic& o);
};

// Per semantic label and core type, from the instruction events (hw/top/trace_labels.h).
struct LabelRecord : LabelTraffic {
  std::string label;  // "(none)" for instructions outside every label
  isa::CoreType core_type = isa::CoreType::Aic;
  uint64_t start_cycle = 0, end_cycle = 0, cycles = 0;
  int cores = 0;  // cores of that type that executed some of it
  uint64_t instructions = 0;
  std::array<uint64_t, isa::kNumPipes> busy_cycles{};           // summed over cores
  std::array<uint64_t, isa::kNumPipes> max_core_busy_cycles{};  // the busiest core's
  std::array<uint64_t, 6> stall_cycles{};  // by hw::StallReason (index 0, none, unused)
  std::string bound;                       // "CUBE", "HBM", "wait (flag)", ...
  double bound_utilization = 0;
  double l2_hit_rate() const;
  double time_us(double clock_ghz) const { return double(cycles) / (clock_ghz * 1e3); }
};

struct SimStats {
  std::optional<uint64_t> total_cycles;  // timed runs: the cycle the last core ended
  double clock_ghz = 0;
  int block_dim = 0;
  bool timing_only = false;
  std::vector<CoreRecord> cores;  // launch order
  std::optional<L2Record> l2;     // timed runs
  std::optional<HbmRecord> hbm;   // timed runs
  std::vector<StatRecord> memory;  // other memory-system groups (noc, gm_ports; hw/mem/stats.h)
  std::vector<LabelRecord> labels;  // with per-label statistics (TraceOptions::label_stats)
  // ISS only: scheduler figures.
  std::optional<uint64_t> iss_steps, iss_rounds;

  std::optional<double> time_us() const;  // total_cycles at clock_ghz
  uint64_t instructions() const;          // every unit of every core
  uint64_t macs() const;                  // CUBE multiply-accumulates (m * n * k of every mmad)
  // HBM bytes moved (read + written) per second of simulated time, in GB/s.
  std::optional<double> hbm_gbps() const;
};

// Appends `next`, a launch that ran right after the ones `total` holds (a launch sequence): cycles
// and every counter add up; cores, L2 slices / regions, HBM channels and labels are matched by
// identity (a core or tensor first seen later is added); a core's end cycle and a label's
// start / end move onto the sequence's timeline; a label's bound is that of its longest
// instance. Memory-group values that are not counters (rates) are dropped from the total:
// they do not add up and are not recomputed.
void append_launch(SimStats& total, const SimStats& next);

}  // namespace npu::hw
