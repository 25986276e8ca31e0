#include "hw/top/trace_session.h"

#include <cstdio>
#include <limits>

#include "hw/core/timing.h"
#include "hw/top/chip_top.h"
#include "hw/top/trace_chrome.h"
#include "hw/top/trace_csv.h"
#include "hw/top/trace_labels.h"
#include "hw/top/trace_gtkw.h"
#include "hw/top/trace_vcd.h"
#include "isa/disasm.h"
#include "isa/error.h"
#include "isa/program.h"
#include "isa/sem/scalar.h"
#include "isa/sem/shape.h"
#include "isa/sem/sync.h"

namespace npu::hw {

using isa::Op;
using isa::Pipe;
using isa::TimingClass;

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

bool is_mover(Pipe p) { return p == Pipe::Mte1 || p == Pipe::Mte2 || p == Pipe::Mte3 || p == Pipe::Fixp; }

std::string ghz_text(double ghz) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", ghz);
  return buf;
}

int64_t field(const isa::Instr& in, const char* name) {
  const int i = in.d().field_index(name);
  return i < 0 ? -1 : in.f[i].value;
}

// What a stalled instruction waited on ("MTE2 -> VECTOR id 0", "id 3", "pipes drain", ...), or "".
std::string wait_what(const InstrRecord& r, Pipe target) {
  std::string what;
  if (r.stall == 0) return what;
  switch (r.reason) {
    case StallReason::FlagWait:
      if (r.di)
        what = sem::flag_name(static_cast<Pipe>((*r.di)["src"]), static_cast<Pipe>((*r.di)["dst"]),
                              static_cast<int>((*r.di)["id"]));
      break;
    case StallReason::CrossCore:
      if (r.di) what = "id " + std::to_string((*r.di)["id"]);
      break;
    case StallReason::Barrier: what = r.in->op == Op::END ? "end (pipes drain)" : "pipes drain"; break;
    case StallReason::QueueFull: what = std::string(isa::pipe_name(target)) + " queue"; break;
    default: break;
  }
  return what;
}

}  // namespace

TraceSession::TraceSession(const TraceOptions& opt, ChipTop& top, const isa::Program& program)
    : opt_(opt), top_(top), program_(program) {
  const LaunchState& L = top.launch();
  period_ = L.clock.period;
  has_aic_ = program.aic.present;
  cores_per_cluster_ = (has_aic_ ? 1 : 0) + (program.aiv.present ? L.hw.chip.aiv_per_cluster : 0);
  layout_.clock_ghz = L.hw.chip.clock_ghz;
  layout_.labels.push_back("");
  for (int t = 0; t < 2; ++t) {
    const isa::CodeSection& cs = program.section(static_cast<isa::CoreType>(t));
    Section& s = sections_[t];
    s.disasm.assign(cs.code.size(), std::string());
    s.label.assign(cs.code.size(), 0);
    s.source.assign(cs.code.size(), std::string());
    s.source_known.assign(cs.code.size(), 0);
    for (uint32_t pc = 0; pc < cs.code.size(); ++pc) {
      const std::string& name = cs.label_at(pc);
      if (name.empty()) continue;
      size_t id = 1;
      while (id < layout_.labels.size() && layout_.labels[id] != name) ++id;
      if (id == layout_.labels.size()) layout_.labels.push_back(name);
      s.label[pc] = static_cast<int>(id);
    }
  }
  for (const auto& core : top.cores()) {
    layout_.cores.push_back(TraceCore{core->state.id.name(), core->state.id.type});
    std::array<bool, isa::kNumPipes> sel{};
    for (int p = 0; p < isa::kNumPipes; ++p)
      sel[p] = core->has_pipe(static_cast<Pipe>(p)) &&
               trace_selected(opt.select, layout_.cores.back().name + "." +
                                              std::string(isa::pipe_name(static_cast<Pipe>(p))));
    selected_.push_back(sel);
  }
  dispatched_.resize(layout_.cores.size());
  const MemSystem& mem = top.mem();
  for (uint32_t s = 0; s < mem.slices(); ++s) memory_selected_ |= trace_selected(opt.select, "l2.slice" + std::to_string(s));
  for (uint32_t c = 0; c < mem.hbm().channels(); ++c)
    memory_selected_ |= trace_selected(opt.select, "hbm.ch" + std::to_string(c));
  std::vector<std::string> units;  // every name trace_selected is asked about above
  for (size_t c = 0; c < layout_.cores.size(); ++c)
    for (int p = 0; p < isa::kNumPipes; ++p)
      if (top.cores()[c]->has_pipe(static_cast<Pipe>(p)))
        units.push_back(layout_.cores[c].name + "." + std::string(isa::pipe_name(static_cast<Pipe>(p))));
  for (uint32_t s = 0; s < mem.slices(); ++s) units.push_back("l2.slice" + std::to_string(s));
  for (uint32_t c = 0; c < mem.hbm().channels(); ++c) units.push_back("hbm.ch" + std::to_string(c));
  units.push_back("mte");
  check_trace_select(opt.select, units);
  snap_l2_.resize(mem.slices());
  snap_hbm_r_.resize(mem.hbm().channels());
  snap_hbm_w_.resize(mem.hbm().channels());

  if (!opt.json_path.empty()) {
    std::vector<std::vector<bool>> sel;
    for (const auto& s : selected_) sel.emplace_back(s.begin(), s.end());
    json_ = std::make_unique<ChromeTraceWriter>(opt.json_path, layout_, sel, memory_selected_);
    if (memory_selected_)
      top.mem().hbm().set_busy_observer(
          [this](uint32_t, bool write, uint64_t s, uint64_t e) { on_hbm_busy(write, s, e); });
  }
  if (!opt.csv_path.empty()) csv_ = std::make_unique<CsvTraceWriter>(opt.csv_path, layout_);
  if (opt.label_stats) labels_ = std::make_unique<LabelStats>(L.hw, layout_);
  if (!opt.vcd_path.empty()) setup_vcd(program);
}

TraceSession::~TraceSession() {
  try {
    finish();
  } catch (...) {
  }
}

int TraceSession::core_index(const sem::CoreId& id) const {
  return id.cluster * cores_per_cluster_ +
         (id.type == isa::CoreType::Aic ? 0 : (has_aic_ ? 1 : 0) + id.sub);
}

const std::string& TraceSession::disasm(int core, uint32_t pc, const isa::Instr& in) {
  Section& s = sections_[static_cast<int>(layout_.cores[core].type)];
  if (pc >= s.disasm.size()) {
    static thread_local std::string scratch;
    scratch = isa::disassemble(in, &program_);
    return scratch;
  }
  if (s.disasm[pc].empty()) s.disasm[pc] = isa::disassemble(in, &program_);
  return s.disasm[pc];
}

std::string_view TraceSession::source(int core, uint32_t pc) {
  const isa::CoreType type = layout_.cores[core].type;
  Section& s = sections_[static_cast<int>(type)];
  if (pc >= s.source.size()) return {};
  if (!s.source_known[pc]) {
    s.source[pc] = program_.where(type, pc);
    s.source_known[pc] = 1;
  }
  return s.source[pc];
}

bool TraceSession::in_window(uint64_t start, uint64_t end) const {
  // Zero-length events count when their instant lies in the window.
  return end >= opt_.window_start && start < opt_.window_end && (end > opt_.window_start || start == end);
}

void TraceSession::setup_vcd(const isa::Program& program) {
  const uint64_t ws = opt_.window_start * period_;
  const uint64_t we = opt_.window_end == kMax || opt_.window_end > kMax / period_ ? kMax : opt_.window_end * period_;
  vcd_ = std::make_unique<VcdRecorder>(opt_.vcd_path, ws, we, period_);
  VcdRecorder& v = *vcd_;
  // Pipe pairs the program's flag instructions name, per core type.
  std::array<std::array<bool, isa::kNumPipes * isa::kNumPipes>, 2> pairs{};
  std::array<bool, 2> uses_cc{};
  for (int t = 0; t < 2; ++t)
    for (const isa::Instr& in : program.section(static_cast<isa::CoreType>(t)).code) {
      if (in.op == Op::SET_FLAG || in.op == Op::WAIT_FLAG) {
        const int64_t src = field(in, "src"), dst = field(in, "dst");
        if (src >= 0 && dst >= 0 && src < isa::kNumPipes && dst < isa::kNumPipes)
          pairs[t][src * isa::kNumPipes + dst] = true;
      }
      if (in.op == Op::CC_SET || in.op == Op::CC_WAIT) uses_cc[t] = true;
    }
  unit_sig_.resize(layout_.cores.size());
  flag_sig_.resize(layout_.cores.size());
  cc_sig_.resize(layout_.cores.size());
  for (size_t c = 0; c < layout_.cores.size(); ++c) {
    flag_sig_[c].fill(-1);
    cc_sig_[c] = {-1, -1};
    const std::string& cn = layout_.cores[c].name;
    bool any = false;
    for (int p = 0; p < isa::kNumPipes; ++p) {
      if (!selected_[c][p]) continue;
      any = true;
      const std::string u = cn + "." + std::string(isa::pipe_name(static_cast<Pipe>(p)));
      UnitSignals& s = unit_sig_[c][p];
      s.busy = v.add(u + ".busy", 1);
      s.pc = v.add(u + ".pc", 32);
      s.op = v.add(u + ".opcode", 8);
      if (p != 0) s.queue = v.add(u + ".queue", 8);
    }
    if (!any) continue;
    const int t = static_cast<int>(layout_.cores[c].type);
    for (int src = 0; src < isa::kNumPipes; ++src)
      for (int dst = 0; dst < isa::kNumPipes; ++dst)
        if (pairs[t][src * isa::kNumPipes + dst])
          flag_sig_[c][src * isa::kNumPipes + dst] =
              v.add(cn + ".flags." + std::string(isa::pipe_name(static_cast<Pipe>(src))) + "_" +
                        std::string(isa::pipe_name(static_cast<Pipe>(dst))),
                    8);
    if (uses_cc[t]) cc_sig_[c] = {v.add(cn + ".cc.sets", 32), v.add(cn + ".cc.waits", 32)};
  }
  const MemSystem& mem = top_.mem();
  for (uint32_t s = 0; s < mem.slices(); ++s) {
    const std::string n = "l2.slice" + std::to_string(s);
    if (!trace_selected(opt_.select, n)) {
      slice_sig_.push_back({-1, -1, -1});
      continue;
    }
    slice_sig_.push_back({v.add(n + ".hits", 32), v.add(n + ".misses", 32), v.add(n + ".bypasses", 32)});
  }
  for (uint32_t c = 0; c < mem.hbm().channels(); ++c) {
    const std::string n = "hbm.ch" + std::to_string(c);
    channel_sig_.push_back(trace_selected(opt_.select, n) ? v.add(n + ".bytes_in_flight", 32) : -1);
  }
  if (trace_selected(opt_.select, "mte")) mte_sig_ = v.add("mte.active", 16);

  std::string comment = "npusim VCD. Time unit = the SystemC time resolution (" +
                        sc_core::sc_get_time_resolution().to_string() + "); one core cycle = " +
                        std::to_string(period_) + " time units (chip clock " + ghz_text(layout_.clock_ghz) +
                        " GHz, cycle = time / " + std::to_string(period_) + ").\nopcode values:";
  for (int i = 0; i < isa::kNumOps; ++i)
    comment += (i % 8 == 0 ? "\n" : " ") + std::to_string(isa::opcode(isa::table()[i].op)) + "=" +
               std::string(isa::table()[i].mnemonic);
  v.open(comment);
}

// Without a VCD only each transfer's totals are used, and the sum over slices of the shares
// (d / n each, the first transfer also d % n) is the share of the sums, so the open transfers
// get one entry each (slice[0], channel[0]) instead of one per slice and channel.
void TraceSession::attribute() {
  const MemSystem& mem = top_.mem();
  const size_t n = open_gm_.size();
  const bool per_unit = vcd_ != nullptr;
  std::array<uint64_t, 3> share{}, first{};
  std::array<uint64_t, 2> channel_share{}, channel_first{};
  for (uint32_t s = 0; s < mem.slices(); ++s) {
    const L2Counters& now = mem.slice(s).counters();
    L2Counters& was = snap_l2_[s];
    const std::array<uint64_t, 3> d = {now.read_hits + now.write_hits - was.read_hits - was.write_hits,
                                       now.read_misses + now.write_misses - was.read_misses - was.write_misses,
                                       now.bypass_reads + now.bypass_writes - was.bypass_reads - was.bypass_writes};
    was = now;
    if (n == 0) continue;
    if (!per_unit) {
      for (int k = 0; k < 3; ++k) {
        share[k] += d[k] / n;
        first[k] += d[k] % n;
      }
      continue;
    }
    size_t i = 0;
    for (auto& [key, g] : open_gm_) {
      for (int k = 0; k < 3; ++k) g.slice[s][k] += d[k] / n + (i == 0 ? d[k] % n : 0);
      ++i;
    }
  }
  for (uint32_t c = 0; c < mem.hbm().channels(); ++c) {
    const uint64_t r = mem.hbm().bytes_read(c), w = mem.hbm().bytes_written(c);
    const std::array<uint64_t, 2> d = {r - snap_hbm_r_[c], w - snap_hbm_w_[c]};
    snap_hbm_r_[c] = r;
    snap_hbm_w_[c] = w;
    if (n == 0) continue;
    if (!per_unit) {
      for (int k = 0; k < 2; ++k) {
        channel_share[k] += d[k] / n;
        channel_first[k] += d[k] % n;
      }
      continue;
    }
    size_t i = 0;
    for (auto& [key, g] : open_gm_) {
      for (int k = 0; k < 2; ++k) g.channel[c][k] += d[k] / n + (i == 0 ? d[k] % n : 0);
      ++i;
    }
  }
  if (per_unit || n == 0) return;
  size_t i = 0;
  for (auto& [key, g] : open_gm_) {
    for (int k = 0; k < 3; ++k) g.slice[0][k] += share[k] + (i == 0 ? first[k] : 0);
    for (int k = 0; k < 2; ++k) g.channel[0][k] += channel_share[k] + (i == 0 ? channel_first[k] : 0);
    ++i;
  }
}

uint64_t TraceSession::hold_tick() const {
  uint64_t t = kMax;
  for (const auto& [key, g] : open_gm_) t = std::min(t, g.start_tick);
  return t;
}

void TraceSession::before_gm_issue(const sem::CoreId& core, Pipe pipe) {
  attribute();
  OpenGm& g = open_gm_[core_index(core) * isa::kNumPipes + static_cast<int>(pipe)];
  g.start_tick = sc_core::sc_time_stamp().value();
  g.slice.assign(vcd_ ? snap_l2_.size() : 1, {0, 0, 0});  // totals only without a VCD (attribute)
  g.channel.assign(vcd_ ? snap_hbm_r_.size() : 1, {0, 0});
  if (vcd_) vcd_->hold(hold_tick());
}

void TraceSession::memory_deltas(const InstrRecord& r, int core, TraceEvent& e) {
  attribute();
  auto it = open_gm_.find(core * isa::kNumPipes + static_cast<int>(r.unit));
  if (it == open_gm_.end()) return;  // (no before_gm_issue: nothing to attribute)
  const OpenGm g = std::move(it->second);
  open_gm_.erase(it);  // (the VCD hold is lifted at the end of on_instr, after its changes)
  uint64_t hbm_r = 0, hbm_w = 0;
  for (size_t s = 0; s < g.slice.size(); ++s) {
    const auto& d = g.slice[s];
    e.l2_hits += d[0];
    e.l2_misses += d[1];
    e.l2_bypass += d[2];
    if (vcd_ && slice_sig_[s][0] >= 0) {
      const uint64_t t = r.start * period_;
      for (int k = 0; k < 3; ++k)
        if (d[k]) vcd_->add_at(t, slice_sig_[s][k], static_cast<int64_t>(d[k]));
    }
  }
  for (size_t c = 0; c < g.channel.size(); ++c) {
    const uint64_t dr = g.channel[c][0], dw = g.channel[c][1];
    hbm_r += dr;
    hbm_w += dw;
    if (vcd_ && channel_sig_[c] >= 0 && dr + dw > 0) {
      vcd_->add_at(r.gm_start * period_, channel_sig_[c], static_cast<int64_t>(dr + dw));
      vcd_->add_at(r.gm_end * period_, channel_sig_[c], -static_cast<int64_t>(dr + dw));
    }
  }
  e.hbm_bytes = hbm_r + hbm_w;
  if (json_ && memory_selected_) add_to_bins(r, e.l2_hits, e.l2_misses, e.l2_bypass);
}

TraceSession::Bin& TraceSession::bin_at(uint64_t index) {
  index = std::max(index, bins_emitted_);  // (a bin already written: count it in the next one)
  if (bins_.empty()) bins_first_ = index;
  while (bins_first_ + bins_.size() <= index) bins_.emplace_back();
  return bins_[index - bins_first_];
}

void TraceSession::add_to_bins(const InstrRecord& r, uint64_t hits, uint64_t misses, uint64_t bypass) {
  const uint64_t S = opt_.sample_cycles ? opt_.sample_cycles : 1;
  // Bins before the earliest transfer still being issued, and before now, are final: the HBM
  // books no transfer before the time of its booking (on_hbm_busy).
  const uint64_t hold = hold_tick();
  const uint64_t now_cycle = sc_core::sc_time_stamp().value() / period_;
  flush_bins(std::min({r.start, hold == kMax ? kMax : hold / period_, now_cycle}));
  Bin& b = bin_at(r.start / S);
  b.hits += hits;
  b.misses += misses;
  b.bypass += bypass;
}

void TraceSession::on_hbm_busy(bool write, uint64_t start_tick, uint64_t end_tick) {
  // The HBM counter is the channels' real occupancy (each moves channel_bytes_per_cycle while
  // booked, and its bookings never overlap), so a bin can never exceed the configured peak.
  const uint64_t bin_ticks = (opt_.sample_cycles ? opt_.sample_cycles : 1) * period_;
  for (uint64_t t = start_tick; t < end_tick;) {
    const uint64_t idx = t / bin_ticks, hi = std::min(end_tick, (idx + 1) * bin_ticks);
    (write ? bin_at(idx).hbm_write_ticks : bin_at(idx).hbm_read_ticks) += hi - t;
    t = hi;
  }
}

void TraceSession::flush_bins(uint64_t before_cycle) {
  const uint64_t S = opt_.sample_cycles ? opt_.sample_cycles : 1;
  while (!bins_.empty() && (bins_first_ + 1) * S <= before_cycle) {
    const Bin& b = bins_.front();
    const uint64_t c0 = bins_first_ * S;
    if (json_ && in_window(c0, c0 + S)) {
      // channel-ticks -> bytes: ticks / period * channel_bytes_per_cycle; bytes per S cycles ->
      // GB/s: bytes * clock_ghz / S.
      const double gbps_per_tick = top_.launch().hw.hbm.channel_bytes_per_cycle(layout_.clock_ghz) * layout_.clock_ghz /
                                   (double(period_) * double(S));
      json_->counter(c0, "HBM GB/s", "read", double(b.hbm_read_ticks) * gbps_per_tick, "write",
                     double(b.hbm_write_ticks) * gbps_per_tick);
      const uint64_t acc = b.hits + b.misses + b.bypass;
      if (acc) json_->counter(c0, "L2 hit rate %", "hit_rate", 100.0 * double(b.hits) / double(acc));
    }
    bins_.pop_front();
    ++bins_first_;
    bins_emitted_ = bins_first_;
  }
}

void TraceSession::on_instr(const InstrRecord& r) {
  const int c = core_index(*r.core);
  const isa::Instr& in = *r.in;
  TraceEvent e;
  e.core = c;
  e.unit = r.unit;
  e.dispatch = r.dispatch;
  e.target = r.dispatch && r.di ? r.di->pipe : r.unit;
  e.pc = r.pc;
  e.op = in.op;
  e.mnemonic = in.d().mnemonic;
  const Section& sec = sections_[static_cast<int>(layout_.cores[c].type)];
  e.label_id = r.pc < sec.label.size() ? sec.label[r.pc] : 0;
  e.label = layout_.labels[e.label_id];
  e.start = r.start;
  e.end = r.end;
  e.stall = r.stall;
  e.reason = r.reason;
  e.dispatch_cycle = r.start;
  if (r.dispatch) {
    e.dispatch_cycle = r.end;
    dispatched_[c][static_cast<int>(e.target)].push_back(r.end);
  } else if (r.unit != Pipe::Scalar) {
    auto& q = dispatched_[c][static_cast<int>(r.unit)];
    if (!q.empty()) {
      e.dispatch_cycle = q.front();
      q.pop_front();
    }
  }
  if (!r.dispatch && r.di && sem::is_data_op(in.op)) {
    const sem::InstrShape shape = sem::shape_of(*r.di);
    const TimingClass tc = in.d().timing;
    if (path_of(top_.launch().hw.mte, tc)) e.bytes = shape.bytes;
    e.flops = flops_of(*r.di, shape);
  }
  if (r.has_gm) memory_deltas(r, c, e);

  if (labels_) labels_->add(e);
  const bool sel = selected_[c][static_cast<int>(r.unit)];
  const bool waits = r.reason != StallReason::Memory;
  if (sel && (json_ || csv_) && in_window(r.start - (waits ? r.stall : 0), r.end)) {
    e.disasm = disasm(c, r.pc, in);
    e.source = source(c, r.pc);
    const std::string what = wait_what(r, e.target);  // only the trace files name what was waited on
    e.wait_what = what;
    if (json_) json_->instr(e);
    if (csv_) csv_->instr(e);
  }
  if (vcd_) {
    vcd_event(r, c, e);
    if (r.has_gm) vcd_->hold(hold_tick());
  }
}

void TraceSession::vcd_event(const InstrRecord& r, int c, const TraceEvent& e) {
  VcdRecorder& v = *vcd_;
  const uint64_t t0 = r.start * period_, t1 = r.end * period_;
  const int u = static_cast<int>(r.unit);
  if (selected_[c][u]) {
    const UnitSignals& s = unit_sig_[c][u];
    if (r.end > r.start) {
      v.add_at(t0, s.busy, 1);
      v.add_at(t1, s.busy, -1);
    }
    v.set_at(t0, s.pc, r.pc);
    v.set_at(t0, s.op, static_cast<int64_t>(r.in->op));
    if (!r.dispatch && s.queue >= 0) v.add_at(t0, s.queue, -1);
  }
  if (r.dispatch) {
    const int tq = static_cast<int>(e.target);
    if (selected_[c][tq] && unit_sig_[c][tq].queue >= 0) v.add_at(t1, unit_sig_[c][tq].queue, 1);
    return;
  }
  const Op op = r.in->op;
  if ((op == Op::SET_FLAG || op == Op::WAIT_FLAG) && r.di) {
    const int64_t src = (*r.di)["src"], dst = (*r.di)["dst"];
    const int id = flag_sig_[c][src * isa::kNumPipes + dst];
    if (id >= 0) v.add_at(t0, id, op == Op::SET_FLAG ? 1 : -1);
  } else if (op == Op::CC_SET && cc_sig_[c][0] >= 0) {
    v.add_at(t0, cc_sig_[c][0], 1);
  } else if (op == Op::CC_WAIT && cc_sig_[c][1] >= 0) {
    v.add_at(t0, cc_sig_[c][1], 1);
  }
  if (mte_sig_ >= 0 && is_mover(r.unit) && e.bytes > 0 && r.end > r.start) {
    v.add_at(t0, mte_sig_, 1);
    v.add_at(t1, mte_sig_, -1);
  }
}

void TraceSession::finish() {
  if (finished_) return;
  finished_ = true;
  if (json_ && memory_selected_) top_.mem().hbm().set_busy_observer(nullptr);
  flush_bins(kMax);
  if (vcd_) vcd_->close();
  if (vcd_ && !opt_.gtkw_path.empty()) write_gtkw(opt_.gtkw_path, opt_.vcd_path, vcd_->names(), vcd_->bits());
  if (json_) json_->close();
  if (csv_) csv_->close();
}

std::vector<LabelRecord> TraceSession::label_records() const { return labels_ ? labels_->records() : std::vector<LabelRecord>{}; }

}  // namespace npu::hw
