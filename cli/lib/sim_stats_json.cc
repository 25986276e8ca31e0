// The "sim" part of stats.json from the typed records (sim_stats_json.h, docs/stats.md).
#include "cli/lib/sim_stats_json.h"

#include "hw/core/trace_observer.h"

namespace npu::cli {

using nlohmann::json;
using namespace hw;

namespace {

json optional_json(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

json l2_counters_json(const L2Counters& c) {
  json j = json::object();
  for (const auto& f : L2Counters::fields()) j[f.name] = c.*f.member;
  j["hit_rate"] = hit_rate(c);
  j["read_hit_rate"] = read_hit_rate(c);
  return j;
}

json stat_record_json(const StatRecord& r) {
  json j = json::object();
  for (const StatValue& v : r.values)
    j[v.name] = std::holds_alternative<uint64_t>(v.value) ? json(std::get<uint64_t>(v.value))
                                                         : json(std::get<double>(v.value));
  if (!r.children.empty()) {
    json parts = json::array();
    for (const StatRecord& c : r.children) {
      json p = stat_record_json(c);
      p["name"] = c.name;
      parts.push_back(std::move(p));
    }
    j["parts"] = std::move(parts);
  }
  return j;
}

json pipes_json(const CoreRecord& c, const std::optional<uint64_t>& total) {
  json pipes = json::array();
  for (const PipeRecord& p : c.pipes) {
    const UnitCounters& u = p.counters;
    json j = {{"pipe", std::string(isa::pipe_name(p.pipe))}, {"instructions", u.instructions}};
    if (total) {
      j["busy_cycles"] = u.busy_cycles;
      j["utilization"] = p.utilization(*total);
      j["stall_flag_wait"] = u.stall_flag_wait;
      j["stall_memory"] = u.stall_memory;
      j["stall_queue_full"] = u.stall_queue_full;
      j["stall_barrier"] = u.stall_barrier;
      if (p.pipe == isa::Pipe::Cube) j["macs"] = u.macs;
    }
    pipes.push_back(std::move(j));
  }
  return pipes;
}

json pipe_counts_json(const std::array<uint64_t, isa::kNumPipes>& a) {
  json j = json::array();
  for (int p = 0; p < isa::kNumPipes; ++p)
    if (a[p]) j.push_back({{"pipe", std::string(isa::pipe_name(static_cast<isa::Pipe>(p)))}, {"cycles", a[p]}});
  return j;
}

json label_json(const LabelRecord& l, double clock_ghz) {
  json stall = json::array();
  for (int r = 1; r < 6; ++r)
    if (l.stall_cycles[r])
      stall.push_back({{"reason", stall_reason_name(static_cast<StallReason>(r))}, {"cycles", l.stall_cycles[r]}});
  return {{"label", l.label},
          {"core_type", std::string(isa::core_type_name(l.core_type))},
          {"start_cycle", l.start_cycle},
          {"end_cycle", l.end_cycle},
          {"cycles", l.cycles},
          {"time_us", l.time_us(clock_ghz)},
          {"cores", l.cores},
          {"instructions", l.instructions},
          {"busy_cycles", pipe_counts_json(l.busy_cycles)},
          {"max_core_busy_cycles", pipe_counts_json(l.max_core_busy_cycles)},
          {"bytes", l.bytes},
          {"flops", l.flops},
          {"hbm_bytes", l.hbm_bytes},
          {"l2_hits", l.l2_hits},
          {"l2_misses", l.l2_misses},
          {"l2_bypass", l.l2_bypass},
          {"l2_hit_rate", l.l2_hit_rate()},
          {"stall_cycles", stall},
          {"bound", {{"resource", l.bound}, {"utilization", l.bound_utilization}}}};
}

}  // namespace

json sim_stats_json(const SimStats& s) {
  json j;
  j["total_cycles"] = optional_json(s.total_cycles);
  j["time_us"] = s.time_us() ? json(*s.time_us()) : json(nullptr);
  j["clock_ghz"] = s.clock_ghz;
  j["block_dim"] = s.block_dim;
  j["timing_only"] = s.timing_only;
  j["instructions"] = s.instructions();
  j["macs"] = s.macs();
  json cores = json::array();
  for (const CoreRecord& c : s.cores)
    cores.push_back({{"name", c.id.name()},
                     {"type", std::string(isa::core_type_name(c.id.type))},
                     {"end_cycle", optional_json(c.end_cycle)},
                     {"instructions", c.instructions()},
                     {"pipes", pipes_json(c, s.total_cycles)}});
  j["cores"] = cores;
  if (s.l2) {
    json l2 = l2_counters_json(s.l2->total);
    l2["slices"] = json::array();
    for (const L2Counters& c : s.l2->slices) l2["slices"].push_back(l2_counters_json(c));
    l2["regions"] = json::array();
    for (const L2RegionRecord& r : s.l2->regions) {
      json rj = l2_counters_json(r.counters);
      rj["tensor"] = r.name;
      l2["regions"].push_back(std::move(rj));
    }
    j["l2"] = std::move(l2);
  } else {
    j["l2"] = nullptr;
  }
  if (s.hbm) {
    json channels = json::array();
    for (const HbmChannelRecord& c : s.hbm->channels)
      channels.push_back({{"bytes_read", c.bytes_read},
                          {"bytes_written", c.bytes_written},
                          {"requests", c.requests},
                          {"busy_cycles", c.busy_cycles},
                          {"utilization", s.total_cycles ? ratio(c.busy_cycles, double(*s.total_cycles)) : 0.0}});
    j["hbm"] = {{"bytes_read", s.hbm->bytes_read()},
                {"bytes_written", s.hbm->bytes_written()},
                {"gbps", s.hbm_gbps() ? json(*s.hbm_gbps()) : json(nullptr)},
                {"channels", channels}};
  } else {
    j["hbm"] = nullptr;
  }
  for (const StatRecord& r : s.memory) j[r.name] = stat_record_json(r);
  json labels = json::array();
  for (const LabelRecord& l : s.labels) labels.push_back(label_json(l, s.clock_ghz));
  j["labels"] = labels;
  if (s.iss_steps) j["iss"] = {{"steps", *s.iss_steps}, {"rounds", s.iss_rounds.value_or(0)}};
  return j;
}

}  // namespace npu::cli
