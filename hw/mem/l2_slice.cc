#include "hw/mem/l2_slice.h"

#include <algorithm>
#include <string>

#include "hw/mem/l2_protocol.h"
#include "hw/mem/mem_extension.h"
#include "isa/error.h"

namespace npu::hw {

using isa::CacheHint;

L2Slice::L2Slice(sc_core::sc_module_name name, const L2Config& cfg, const L2Geometry& geo,
                 uint32_t index, CycleClock clock)
    : sc_module(name), target("target"), to_hbm("to_hbm"), cfg_(cfg), geo_(geo), index_(index),
      clock_(clock),
      tags_(geo.sets_of(index), geo.ways, geo.line,
            make_replacement_policy(cfg.replacement,
                                    PolicyShape{geo.sets_of(index), geo.ways, cfg.random_seed + index},
                                    params_for(cfg.replacement_params, cfg.replacement))),
      fill_ready_(size_t(geo.sets_of(index)) * geo.ways, 0), mshrs_(cfg.mshrs_per_slice),
      read_hit_ticks_(clock.ticks(cfg.read_hit_latency)),
      write_hit_ticks_(clock.ticks(cfg.write_hit_latency)), stats_(std::string(basename())) {
  target.register_b_transport(this, &L2Slice::b_transport);
  register_l2_counters(stats_, &counters_);
}

bool L2Slice::is_dirty(uint64_t addr) const {
  const uint64_t block = geo_.block_of(addr);
  int w = tags_.find(block);
  return w >= 0 && tags_.dirty(block, uint32_t(w));
}

L2Counters& L2Slice::region(uint32_t id) {
  if (id >= by_region_.size()) by_region_.resize(id + 1);
  return by_region_[id];
}

void L2Slice::preload(uint64_t addr, uint32_t region_id) {
  const uint64_t block = geo_.block_of(addr);
  if (tags_.find(block) < 0) {
    L2Tags::Fill f = tags_.insert(block, L2Access{CacheHint::Normal, region_id, false}, false);
    fill_ready_[tags_.slot(block, f.way)] = 0;
  }
}

uint64_t L2Slice::hbm(bool write, uint64_t addr, uint64_t bytes, uint64_t at) {
  const uint64_t now = CycleClock::now();
  if (hbm_direct_) return hbm_direct_->access(write, addr, bytes, now, at);
  hbm_payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  hbm_payload_.set_address(addr);
  hbm_payload_.set_data_length(static_cast<unsigned>(bytes));
  hbm_payload_.set_data_ptr(nullptr);  // timing only: GM data moves functionally elsewhere
  hbm_payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = sc_core::sc_time::from_value(at - now);
  to_hbm->b_transport(hbm_payload_, d);
  return now + d.value();
}

uint64_t L2Slice::port(uint64_t at, uint64_t bytes) {
  const uint64_t dur = clock_.ticks(double(bytes) / cfg_.slice_bytes_per_cycle);
  return port_.fill(at, dur);
}

void L2Slice::installed(uint64_t block, const L2Outcome& o, uint64_t at) {
  fill_ready_[tags_.slot(block, o.way)] = at;
  const L2Tags::Evicted& e = o.evicted;
  if (!e.valid) return;
  ++counters_.evictions;
  ++region(e.region).evictions;
  if (e.dirty) {
    ++counters_.dirty_writebacks;
    ++region(e.region).dirty_writebacks;
    hbm(true, geo_.block_addr(index_, e.block), geo_.line, at);  // off the requester's path
  }
}

void L2Slice::prefetch_fill(uint64_t addr, uint32_t region_id, uint64_t at) {
  const uint64_t block = geo_.block_of(addr);
  const std::optional<L2Tags::Fill> fill = l2_prefetch(tags_, block, region_id);
  if (!fill) return;
  port_.retire(CycleClock::now());
  mshrs_.retire(CycleClock::now());
  ++counters_.prefetch_fills;
  ++region(region_id).prefetch_fills;
  ServerPool::Grant g = mshrs_.acquire(at);
  const uint64_t f = hbm(false, geo_.line_base(addr), geo_.line, g.start);
  mshrs_.hold(g, f);
  L2Outcome o;
  o.way = fill->way;
  o.evicted = fill->evicted;
  installed(block, o, f);
}

void L2Slice::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t now = CycleClock::now();
  const MemExtension* ext = p.get_extension<MemExtension>();
  LineRequest r;
  r.addr = p.get_address();
  r.bytes = p.get_data_length();
  r.write = p.is_write();
  r.hint = ext ? ext->hint : CacheHint::Normal;
  r.region = ext ? ext->region : 0;
  const uint64_t done = access(r, now, now + delay.value());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  delay = sc_core::sc_time::from_value(done - now);
}

uint64_t L2Slice::access(const LineRequest& r, uint64_t now, uint64_t t) {
  const uint64_t addr = r.addr, n = r.bytes;
  const L2Geometry::Location at = geo_.locate(addr);
  if (n == 0 || geo_.line_base(addr) != geo_.line_base(addr + n - 1) || at.slice != index_)
    throw Error("L2 slice " + std::to_string(index_) + ": request [" + hex(addr) + ", +" +
                std::to_string(n) + ") is empty, crosses a line or belongs to another slice");
  port_.retire(now);
  mshrs_.retire(now);

  const CacheHint hint = r.hint;
  const uint32_t region_id = r.region;
  L2Counters& rc = region(region_id);
  auto count = [&](uint64_t L2Counters::*m) {
    ++(counters_.*m);
    ++(rc.*m);
  };
  count(hint == CacheHint::Normal          ? &L2Counters::normal_accesses
        : hint == CacheHint::NoneCacheable ? &L2Counters::none_cacheable_accesses
                                           : &L2Counters::prefetch_accesses);
  const bool write = r.write;
  (write ? counters_.bytes_written : counters_.bytes_read) += n;
  (write ? rc.bytes_written : rc.bytes_read) += n;

  const uint64_t block = at.block;
  const L2Outcome o = l2_access(tags_, block, L2Access{hint, region_id, write}, n == geo_.line);
  // When a present line's data is there (its fill may still be in flight).
  const uint64_t ready = o.present ? fill_ready_[tags_.slot(block, o.way)] : 0;
  if (o.present && ready > t) count(&L2Counters::hits_under_miss);
  // Reads the allocated line through an MSHR; it and its victim's write-back land at the fill.
  auto fetch_line = [&] {
    ServerPool::Grant g = mshrs_.acquire(t);
    const uint64_t f = hbm(false, geo_.line_base(addr), geo_.line, g.start);
    mshrs_.hold(g, f);
    installed(block, o, f);
    if (o.prefetch_next && prefetcher_)
      for (uint32_t k = 1; k <= cfg_.prefetch_lines; ++k) prefetcher_(geo_.line_base(addr) + uint64_t{k} * geo_.line, g.start);
    return f;
  };

  uint64_t done = 0;
  switch (o.kind) {
    case L2Outcome::Kind::ReadHit:
      count(&L2Counters::read_hits);
      done = port(std::max(t, ready), n) + read_hit_ticks_;
      break;
    case L2Outcome::Kind::BypassRead: {
      count(&L2Counters::bypass_reads);
      ServerPool::Grant g = mshrs_.acquire(t);
      const uint64_t f = hbm(false, addr, n, g.start);
      mshrs_.hold(g, f);
      done = port(f, n);
      break;
    }
    case L2Outcome::Kind::ReadMiss:
      count(&L2Counters::read_misses);
      done = port(fetch_line(), n);
      break;
    case L2Outcome::Kind::BypassWrite: {
      count(&L2Counters::bypass_writes);
      const uint64_t arrived = port(t, n);
      if (o.present) count(&L2Counters::writethrough_updates);
      done = o.write_whole_line ? hbm(true, geo_.line_base(addr), geo_.line, std::max(arrived, ready))
                                : hbm(true, addr, n, std::max(arrived, ready));
      break;
    }
    case L2Outcome::Kind::WriteHit:
      count(&L2Counters::write_hits);
      done = std::max(port(t, n), ready) + write_hit_ticks_;
      break;
    case L2Outcome::Kind::WriteMiss: {
      count(&L2Counters::write_misses);
      const uint64_t arrived = port(t, n);
      if (o.fetch) {
        done = std::max(arrived, fetch_line()) + write_hit_ticks_;
      } else {
        installed(block, o, arrived);
        done = arrived + write_hit_ticks_;
      }
      break;
    }
  }
  return done;
}

}  // namespace npu::hw
