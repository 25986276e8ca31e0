#include "hw/mem/l2_counters.h"

namespace npu::hw {

const std::vector<L2Counters::Field>& L2Counters::fields() {
  static const std::vector<Field> f = {
      {&L2Counters::read_hits, "read_hits", "count", "reads that found their line"},
      {&L2Counters::read_misses, "read_misses", "count", "reads that allocated a line from HBM"},
      {&L2Counters::write_hits, "write_hits", "count", "writes that found their line"},
      {&L2Counters::write_misses, "write_misses", "count", "writes that allocated a line"},
      {&L2Counters::hits_under_miss, "hits_under_miss", "count", "hits that waited for a fill in flight"},
      {&L2Counters::bypass_reads, "bypass_reads", "count", "none_cacheable read misses served from HBM"},
      {&L2Counters::bypass_writes, "bypass_writes", "count", "none_cacheable writes sent to HBM"},
      {&L2Counters::writethrough_updates, "writethrough_updates", "count",
       "none_cacheable writes that also updated a present line"},
      {&L2Counters::evictions, "evictions", "count", "valid lines replaced"},
      {&L2Counters::dirty_writebacks, "dirty_writebacks", "count", "dirty lines written back to HBM"},
      {&L2Counters::prefetch_fills, "prefetch_fills", "count",
       "lines fetched from HBM by next-line prefetch after a prefetch-hinted read miss"},
      {&L2Counters::normal_accesses, "normal_accesses", "count", "accesses with effective hint normal"},
      {&L2Counters::none_cacheable_accesses, "none_cacheable_accesses", "count",
       "accesses with effective hint none_cacheable"},
      {&L2Counters::prefetch_accesses, "prefetch_accesses", "count", "accesses with effective hint prefetch"},
      {&L2Counters::bytes_read, "bytes_read", "byte", "bytes read by requesters"},
      {&L2Counters::bytes_written, "bytes_written", "byte", "bytes written by requesters"},
  };
  return f;
}

L2Counters& L2Counters::operator+=(const L2Counters& o) {
  for (const Field& f : fields()) this->*f.member += o.*f.member;
  return *this;
}

namespace {
void register_rates(StatGroup& g, std::function<L2Counters()> sum) {
  g.add_formula("hit_rate",
                [sum] {
                  L2Counters c = sum();
                  return ratio(double(c.read_hits + c.write_hits), double(c.accesses()));
                },
                "ratio", "(read + write hits) / accesses");
  g.add_formula("read_hit_rate",
                [sum] {
                  L2Counters c = sum();
                  return ratio(double(c.read_hits), double(c.read_hits + c.read_misses + c.bypass_reads));
                },
                "ratio", "read hits / reads");
}
}  // namespace

void register_l2_counters(StatGroup& g, const L2Counters* c) {
  for (const auto& f : L2Counters::fields()) g.add(f.name, &(c->*f.member), f.unit, f.description);
  register_rates(g, [c] { return *c; });
}

void register_l2_totals(StatGroup& g, std::vector<const L2Counters*> parts) {
  auto sum = [parts] {
    L2Counters t;
    for (const L2Counters* p : parts) t += *p;
    return t;
  };
  for (const auto& f : L2Counters::fields()) {
    auto m = f.member;
    g.add_formula(f.name, [sum, m] { return double(sum().*m); }, f.unit, f.description);
  }
  register_rates(g, sum);
}

}  // namespace npu::hw
