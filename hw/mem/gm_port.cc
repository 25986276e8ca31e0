#include "hw/mem/gm_port.h"

#include <algorithm>

#include "isa/error.h"

namespace npu::hw {

GmPort::GmPort(sc_core::sc_module_name name, const Config& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg), line_(cfg.line), ext_(new MemExtension),
      stats_(std::string(basename())) {
  if (cfg.line == 0 || cfg.max_outstanding == 0)
    throw Error("GmPort needs a line size and max_outstanding > 0");
  payload_.set_extension(ext_);
  payload_.set_data_ptr(nullptr);  // timing only (see header)
  payload_.set_streaming_width(cfg.line);
  payload_.set_byte_enable_ptr(nullptr);
  ext_->requester = cfg.requester;
  completions_.assign(cfg.max_outstanding, 0);
  stats_.add("transfers", &transfers_, "count", "DMA transfers");
  stats_.add("requests", &requests_, "count", "line requests sent");
  stats_.add("bytes_read", &bytes_read_, "byte", "bytes read from GM");
  stats_.add("bytes_written", &bytes_written_, "byte", "bytes written to GM");
  stats_.add("syncs", &syncs_, "count", "mid-transfer quantum synchronisations");
}

GmPort::Result GmPort::transfer(const std::vector<GmRange>& ranges, bool write, isa::CacheHint hint,
                                const Options& opt) {
  Result r = issue(ranges, write, hint, sc_core::sc_time_stamp(), opt);
  if (r.end > sc_core::sc_time_stamp()) sc_core::wait(r.end - sc_core::sc_time_stamp());
  return r;
}

GmPort::Result GmPort::issue(const std::vector<GmRange>& ranges, bool write, isa::CacheHint hint,
                             sc_core::sc_time start_time, const Options& opt) {
  uint64_t now = CycleClock::now();
  const uint64_t start = start_time.value();
  if (start < now) throw Error("GmPort::issue: start time is in the past");
  const uint64_t quantum = opt.quantum.value();
  const uint32_t window = cfg_.max_outstanding;
  ++transfers_;
  if (!noc_) payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);

  Result r;
  r.start = start_time;
  uint64_t last_issue = start, last_done = start, last_accepted = start, issued_bytes = 0, k = 0;
  uint64_t run_lo = 1, run_hi = 0;  // the addresses whose region is `run_region` (none yet)
  uint32_t run_region = RegionTable::kNone;
  for (const GmRange& range : ranges) {
    for (uint64_t a = range.addr, end = range.addr + range.bytes; a < end;) {
      const uint64_t n = std::min<uint64_t>(end, (line_.div(a) + 1) * cfg_.line) - a;
      uint64_t& slot = completions_[ring_pos_++ % window];
      uint64_t t = std::max(last_issue, slot);
      if (opt.issue_bytes_per_cycle > 0)
        t = std::max(t, start + cfg_.clock.ticks(double(issued_bytes) / opt.issue_bytes_per_cycle));
      if (quantum > 0 && t - now > quantum) {
        sc_core::wait(sc_core::sc_time::from_value(t - now));
        now = CycleClock::now();
        ++syncs_;
      }
      if (cfg_.regions && !opt.region && (a < run_lo || a >= run_hi))
        run_region = cfg_.regions->lookup(a, &run_lo, &run_hi);
      const uint32_t region = opt.region ? *opt.region : run_region;
      const isa::CacheHint effective = cfg_.regions ? cfg_.regions->effective(region, hint) : hint;
      uint64_t done = 0, accepted = 0;  // accepted 0: a target without a link (unit tests): = done
      if (noc_) {
        LineRequest r{a, n, write, effective, region, 0};
        done = noc_->access(cfg_.requester, r, now, t);
        accepted = r.accepted;
      } else {
        ext_->region = region;
        ext_->hint = effective;
        payload_.set_address(a);
        payload_.set_data_length(static_cast<unsigned>(n));
        payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        ext_->accepted = 0;
        sc_core::sc_time delay = sc_core::sc_time::from_value(t - now);
        socket->b_transport(payload_, delay);
        if (payload_.is_response_error())
          throw Error("GM access at " + hex(a) + " failed: " + payload_.get_response_string());
        done = now + delay.value();
        accepted = ext_->accepted;
      }
      slot = done;
      last_done = std::max(last_done, done);
      if (write) last_accepted = std::max(last_accepted, accepted ? accepted : done);
      last_issue = t;
      issued_bytes += n;
      ++k;
      a += n;
    }
  }
  r.requests = k;
  r.bytes = issued_bytes;
  r.end = sc_core::sc_time::from_value(last_done);
  r.handed_off = write ? sc_core::sc_time::from_value(last_accepted) : r.end;
  requests_ += k;
  (write ? bytes_written_ : bytes_read_) += issued_bytes;
  return r;
}

}  // namespace npu::hw
