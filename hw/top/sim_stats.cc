#include "hw/top/sim_stats.h"

#include <algorithm>
#include <variant>

namespace npu::hw {

const PipeRecord* CoreRecord::pipe(isa::Pipe p) const {
  for (const PipeRecord& r : pipes)
    if (r.pipe == p) return &r;
  return nullptr;
}

uint64_t CoreRecord::instructions() const {
  uint64_t n = 0;
  for (const PipeRecord& r : pipes) n += r.counters.instructions;
  return n;
}

double hit_rate(const L2Counters& c) { return ratio(double(c.read_hits + c.write_hits), double(c.accesses())); }
double read_hit_rate(const L2Counters& c) {
  return ratio(double(c.read_hits), double(c.read_hits + c.read_misses + c.bypass_reads));
}

uint64_t HbmRecord::bytes_read() const {
  uint64_t n = 0;
  for (const HbmChannelRecord& c : channels) n += c.bytes_read;
  return n;
}
uint64_t HbmRecord::bytes_written() const {
  uint64_t n = 0;
  for (const HbmChannelRecord& c : channels) n += c.bytes_written;
  return n;
}

void LabelTraffic::add(const LabelTraffic& o) {
  bytes += o.bytes;
  flops += o.flops;
  hbm_bytes += o.hbm_bytes;
  l2_hits += o.l2_hits;
  l2_misses += o.l2_misses;
  l2_bypass += o.l2_bypass;
}

double LabelRecord::l2_hit_rate() const { return ratio(double(l2_hits), double(l2_hits + l2_misses + l2_bypass)); }

std::optional<double> SimStats::time_us() const {
  if (!total_cycles) return std::nullopt;
  return double(*total_cycles) / (clock_ghz * 1e3);
}

uint64_t SimStats::instructions() const {
  uint64_t n = 0;
  for (const CoreRecord& c : cores) n += c.instructions();
  return n;
}

uint64_t SimStats::macs() const {
  uint64_t n = 0;
  for (const CoreRecord& c : cores)
    if (const PipeRecord* p = c.pipe(isa::Pipe::Cube)) n += p->counters.macs;
  return n;
}

std::optional<double> SimStats::hbm_gbps() const {
  if (!hbm || !total_cycles || *total_cycles == 0) return std::nullopt;
  const double ns = double(*total_cycles) / clock_ghz;
  return double(hbm->bytes_read() + hbm->bytes_written()) / ns;  // bytes per ns = GB/s
}

namespace {

void add(UnitCounters& a, const UnitCounters& b) {
  a.instructions += b.instructions;
  a.busy_cycles += b.busy_cycles;
  a.stall_flag_wait += b.stall_flag_wait;
  a.stall_memory += b.stall_memory;
  a.stall_queue_full += b.stall_queue_full;
  a.stall_barrier += b.stall_barrier;
  a.macs += b.macs;
}

// The element of `v` that `same` picks, appended as `fresh` when absent.
template <typename T, typename Same>
T& find_or_add(std::vector<T>& v, Same same, T fresh) {
  for (T& e : v)
    if (same(e)) return e;
  v.push_back(std::move(fresh));
  return v.back();
}

void add_counters_only(StatRecord& a, const StatRecord& b) {
  for (const StatValue& bv : b.values) {
    if (!std::holds_alternative<uint64_t>(bv.value)) continue;
    StatValue& av = find_or_add(a.values, [&](const StatValue& x) { return x.name == bv.name; }, StatValue{bv.name, bv.unit, uint64_t{0}});
    if (std::holds_alternative<uint64_t>(av.value)) av.value = std::get<uint64_t>(av.value) + std::get<uint64_t>(bv.value);
  }
  for (const StatRecord& bc : b.children)
    add_counters_only(find_or_add(a.children, [&](const StatRecord& x) { return x.name == bc.name; }, StatRecord{bc.name, {}, {}}), bc);
}

void add(LabelRecord& a, const LabelRecord& b, uint64_t offset) {
  if (b.cycles > a.cycles) {
    a.bound = b.bound;
    a.bound_utilization = b.bound_utilization;
  }
  a.end_cycle = std::max(a.end_cycle, offset + b.end_cycle);
  a.cycles += b.cycles;
  a.cores = std::max(a.cores, b.cores);
  a.instructions += b.instructions;
  for (size_t p = 0; p < a.busy_cycles.size(); ++p) {
    a.busy_cycles[p] += b.busy_cycles[p];
    a.max_core_busy_cycles[p] = std::max(a.max_core_busy_cycles[p], b.max_core_busy_cycles[p]);
  }
  a.LabelTraffic::add(b);
  for (size_t r = 0; r < a.stall_cycles.size(); ++r) a.stall_cycles[r] += b.stall_cycles[r];
}

}  // namespace

void append_launch(SimStats& total, const SimStats& next) {
  const bool first = total.cores.empty() && !total.total_cycles;
  const uint64_t offset = total.total_cycles.value_or(0);
  if (first) {
    total = next;
    for (StatRecord& r : total.memory) {
      StatRecord counters{r.name, {}, {}};
      add_counters_only(counters, r);
      r = std::move(counters);
    }
    return;
  }
  if (next.total_cycles) total.total_cycles = offset + *next.total_cycles;
  total.block_dim = std::max(total.block_dim, next.block_dim);
  for (const CoreRecord& nc : next.cores) {
    CoreRecord& c = find_or_add(total.cores, [&](const CoreRecord& x) { return x.id == nc.id; }, CoreRecord{nc.id, {}, {}});
    if (nc.end_cycle) c.end_cycle = offset + *nc.end_cycle;
    for (const PipeRecord& np : nc.pipes)
      add(find_or_add(c.pipes, [&](const PipeRecord& x) { return x.pipe == np.pipe; }, PipeRecord{np.pipe, {}}).counters, np.counters);
  }
  if (next.l2) {
    if (!total.l2) total.l2 = L2Record{};
    total.l2->total += next.l2->total;
    if (total.l2->slices.size() < next.l2->slices.size()) total.l2->slices.resize(next.l2->slices.size());
    for (size_t s = 0; s < next.l2->slices.size(); ++s) total.l2->slices[s] += next.l2->slices[s];
    for (const L2RegionRecord& nr : next.l2->regions)
      find_or_add(total.l2->regions, [&](const L2RegionRecord& x) { return x.name == nr.name; }, L2RegionRecord{nr.name, {}}).counters +=
          nr.counters;
  }
  if (next.hbm) {
    if (!total.hbm) total.hbm = HbmRecord{};
    if (total.hbm->channels.size() < next.hbm->channels.size()) total.hbm->channels.resize(next.hbm->channels.size());
    for (size_t c = 0; c < next.hbm->channels.size(); ++c) {
      HbmChannelRecord& a = total.hbm->channels[c];
      const HbmChannelRecord& b = next.hbm->channels[c];
      a.bytes_read += b.bytes_read;
      a.bytes_written += b.bytes_written;
      a.requests += b.requests;
      a.busy_cycles += b.busy_cycles;
    }
  }
  for (const StatRecord& nr : next.memory)
    add_counters_only(find_or_add(total.memory, [&](const StatRecord& x) { return x.name == nr.name; }, StatRecord{nr.name, {}, {}}), nr);
  for (const LabelRecord& nl : next.labels) {
    LabelRecord fresh;
    fresh.label = nl.label;
    fresh.core_type = nl.core_type;
    fresh.start_cycle = offset + nl.start_cycle;
    fresh.end_cycle = offset + nl.start_cycle;
    add(find_or_add(total.labels, [&](const LabelRecord& x) { return x.label == nl.label && x.core_type == nl.core_type; }, fresh),
        nl, offset);
  }
  if (next.iss_steps) total.iss_steps = total.iss_steps.value_or(0) + *next.iss_steps;
  if (next.iss_rounds) total.iss_rounds = total.iss_rounds.value_or(0) + *next.iss_rounds;
}

}  // namespace npu::hw
