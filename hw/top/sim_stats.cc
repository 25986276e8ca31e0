#include "hw/top/sim_stats.h"

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

}  // namespace npu::hw
