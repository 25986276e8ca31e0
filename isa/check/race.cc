#include "isa/check/race.h"

#include <algorithm>
#include <sstream>

#include "isa/error.h"
#include "isa/sem/fault.h"

namespace npu::check {

using isa::Op;
using isa::Pipe;

RaceMode parse_race_mode(std::string_view s) {
  if (s == "off") return RaceMode::Off;
  if (s == "warn") return RaceMode::Warn;
  if (s == "error") return RaceMode::Error;
  throw Error("bad race-check mode '" + std::string(s) + "' (expected error, warn or off)");
}

const char* race_mode_name(RaceMode m) {
  switch (m) {
    case RaceMode::Off: return "off";
    case RaceMode::Warn: return "warn";
    default: return "error";
  }
}

RaceChecker::RaceChecker(const isa::Program& program, const std::vector<sem::CoreId>& cores, RaceMode mode,
                         const sem::GlobalMemory* gm)
    : program_(program), cores_(cores), mode_(mode), gm_(gm) {
  for (size_t i = 0; i < cores_.size(); ++i)
    index_[{cores_[i].cluster, static_cast<int>(cores_[i].type), cores_[i].sub}] = static_cast<int>(i);
  const size_t threads = cores_.size() * isa::kNumPipes;
  clocks_.assign(threads, Clock(threads, 0));
  for (size_t t = 0; t < threads; ++t) clocks_[t][t] = 1;
  pipes_.resize(threads);
  scalar_snapshot_.resize(cores_.size());
  flags_.resize(cores_.size() * sem::kNumFlags);
  local_.resize(cores_.size() * sem::kNumBuffers);
}

int RaceChecker::core_index(const sem::CoreId& c) const {
  auto it = index_.find({c.cluster, static_cast<int>(c.type), c.sub});
  if (it == index_.end()) throw Error("internal: race checker: " + c.name() + " is not part of the launch");
  return it->second;
}

void RaceChecker::join(uint32_t thread, const Clock& c) {
  Clock& mine = clocks_[thread];
  for (size_t i = 0; i < mine.size(); ++i) mine[i] = std::max(mine[i], c[i]);
  if (thread % isa::kNumPipes == 0) changed_scalar(static_cast<int>(thread / isa::kNumPipes));
}

void RaceChecker::release(uint32_t thread) {
  ++clocks_[thread][thread];
  if (thread % isa::kNumPipes == 0) changed_scalar(static_cast<int>(thread / isa::kNumPipes));
}

uint32_t RaceChecker::begin(int core, Pipe p) {
  const uint32_t t = thread_of(core, p);
  if (p == Pipe::Scalar) return t;
  PipeThread& pt = pipes_[t];
  if (pt.dispatched.empty()) throw Error("internal: race checker: " + cores_[core].name() + " " +
                                         std::string(isa::pipe_name(p)) + " ran an instruction never dispatched");
  std::shared_ptr<const Clock> snap = std::move(pt.dispatched.front());
  pt.dispatched.pop_front();
  if (snap != pt.joined) {
    join(t, *snap);
    pt.joined = std::move(snap);
  }
  return t;
}

void RaceChecker::dispatched(const sem::CoreId& core, const sem::DispatchedInstr& di) {
  const int c = core_index(core);
  std::shared_ptr<const Clock>& snap = scalar_snapshot_[c];
  if (!snap) snap = std::make_shared<const Clock>(clocks_[thread_of(c, Pipe::Scalar)]);
  pipes_[thread_of(c, di.pipe)].dispatched.push_back(snap);
}

void RaceChecker::synced(const sem::CoreId& core, const sem::DispatchedInstr& di) {
  const int c = core_index(core);
  const uint32_t t = begin(c, di.pipe);
  switch (di.op()) {
    case Op::SET_FLAG:
    case Op::WAIT_FLAG: {
      const sem::FlagRef fr = sem::flag_ref(di);
      const int idx = sem::flag_index(fr.src, fr.dst, fr.id);
      FlagInfo& f = flags_[static_cast<size_t>(c) * sem::kNumFlags + idx];
      if (di.op() == Op::SET_FLAG) {
        f.clock = clocks_[t];
        ++f.sets;
        f.last_set_pc = di.pc;
        release(t);
      } else {
        if (!f.clock.empty()) join(t, f.clock);
        ++f.waits;
      }
      return;
    }
    case Op::CC_SET: {
      const int mode = static_cast<int>(di.as<isa::ops::CC_SET>().mode), id = sem::cc_flag_id(di);
      cc_sets_[{c, mode, id}].push_back(clocks_[t]);
      release(t);
      for (const Release& r : pending_) {
        Clock unit(clocks_.size(), 0);
        for (const sem::CoreId& f : r.from) {
          auto& q = cc_sets_[{core_index(f), r.mode, r.id}];
          if (q.empty()) continue;
          for (size_t i = 0; i < unit.size(); ++i) unit[i] = std::max(unit[i], q.front()[i]);
          q.pop_front();
        }
        for (const sem::CoreId& to : r.to) cc_units_[{core_index(to), r.id}].push_back(unit);
      }
      pending_.clear();
      return;
    }
    case Op::CC_WAIT: {
      auto& q = cc_units_[{c, sem::cc_flag_id(di)}];
      if (!q.empty()) {
        join(t, q.front());
        q.pop_front();
      }
      return;
    }
    default: throw Error("internal: race checker: " + sem::describe(di.in) + " is not a sync instruction");
  }
}

void RaceChecker::cc_released(int mode, int id, const std::vector<sem::CoreId>& from,
                              const std::vector<sem::CoreId>& to) {
  pending_.push_back(Release{mode, id, from, to});
}

void RaceChecker::barrier(const sem::CoreId& core, isa::PipeSel sel) {
  const int c = core_index(core);
  const uint32_t s = thread_of(c, Pipe::Scalar);
  for (int p = 1; p < isa::kNumPipes; ++p) {
    if (sel != isa::PipeSel::All && static_cast<int>(sel) != p) continue;
    const uint32_t t = thread_of(c, static_cast<Pipe>(p));
    join(s, clocks_[t]);
    release(t);  // later instructions of the pipe are not before what the scalar unit does next
  }
}

void RaceChecker::executed(const sem::CoreId& core, const sem::DispatchedInstr& di,
                           const std::vector<sem::Access>& accesses) {
  const int c = core_index(core);
  const uint32_t t = begin(c, di.pipe);
  for (const sem::Access& a : accesses) access(c, t, di, a);
}

void RaceChecker::access(int core, uint32_t thread, const sem::DispatchedInstr& di, const sem::Access& a) {
  Shadow& sh = a.gm ? gm_shadow_ : local_[static_cast<size_t>(core_index(a.owner)) * sem::kNumBuffers +
                                          static_cast<size_t>(a.buffer)];
  const Epoch e{thread, clocks_[thread][thread], di.pc};
  const Clock& now = clocks_[thread];
  auto conflict = [&](const Conflict& k) {
    ++races_;
    auto type = [&](uint32_t t) { return static_cast<int>(cores_[t / isa::kNumPipes].type); };
    auto pipe = [](uint32_t t) { return static_cast<int>(t % isa::kNumPipes); };
    const uint32_t o = k.earlier.thread;
    if (!seen_.insert({type(thread), pipe(thread), di.pc, type(o), pipe(o), k.earlier.pc}).second) return;
    std::string verb = a.write ? "writes" : "reads";
    std::string earlier = k.earlier_write ? "wrote" : "read";
    report("race on " + space_text(a, k.lo, k.hi) + ":\n  " + instr_text(thread, di.pc) + " " + verb +
           " it, unordered with\n  " + instr_text(k.earlier.thread, k.earlier.pc) + " which " + earlier +
           " it before: no set_flag/wait_flag, barrier or cross-core flag orders the two");
  };
  const uint64_t n = a.n;
  if (n > 1 && a.stride == a.len) {
    sh.access(a.base, a.base + n * a.len, a.write, e, now, conflict);
    return;
  }
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t lo = a.base + i * a.stride;
    sh.access(lo, lo + a.len, a.write, e, now, conflict);
  }
}

std::string RaceChecker::instr_text(uint32_t thread, uint32_t pc) const {
  const sem::CoreId& id = cores_[thread / isa::kNumPipes];
  const Pipe p = static_cast<Pipe>(thread % isa::kNumPipes);
  const isa::CodeSection& sec = program_.section(id.type);
  std::string s = id.name() + " " + std::string(isa::pipe_name(p)) + " pc " + std::to_string(pc);
  if (pc < sec.code.size()) s += " (" + sem::describe(sec.code[pc]) + ")";
  std::string where = program_.where(id.type, pc);
  if (!where.empty()) s += " at " + where;
  return s;
}

std::string RaceChecker::space_text(const sem::Access& a, uint64_t lo, uint64_t hi) const {
  std::ostringstream s;
  if (a.gm) {
    s << "GM [0x" << std::hex << lo << ", 0x" << hi << ")";
    if (const sem::GmRegion* r = gm_ ? gm_->region_at(lo) : nullptr) s << " (tensor '" << r->name << "')";
  } else {
    s << sem::buffer_name(a.buffer) << " [" << lo << ", " << hi << ") of " << a.owner.name();
  }
  return s.str();
}

void RaceChecker::report(std::string message) {
  if (mode_ == RaceMode::Error) throw Error(message);
  if (findings_.size() < kMaxFindings) findings_.push_back(std::move(message));
}

void RaceChecker::finish(const std::vector<const sem::CoreState*>& cores, const sem::CrossCoreHub& hub) {
  std::vector<std::string> left;
  for (const sem::CoreState* st : cores) {
    const int c = core_index(st->id);
    for (int idx = 0; idx < sem::kNumFlags; ++idx) {
      if (!st->flags[idx]) continue;
      const Pipe src = static_cast<Pipe>(idx / (isa::kNumPipes * sem::kFlagIds));
      const Pipe dst = static_cast<Pipe>(idx / sem::kFlagIds % isa::kNumPipes);
      const FlagInfo& f = flags_[static_cast<size_t>(c) * sem::kNumFlags + idx];
      left.push_back("flag " + sem::flag_name(src, dst, idx % sem::kFlagIds) + " of " + st->id.name() +
                     " is left set at the end of the launch: set " + std::to_string(f.sets) + " times, waited " +
                     std::to_string(f.waits) + " times (last set: " + instr_text(thread_of(c, src), f.last_set_pc) +
                     ")");
    }
    for (int id = 0; id < sem::kCrossCoreIds; ++id)
      if (int v = hub.counter(st->id, id); v > 0)
        left.push_back("cross-core flag " + std::to_string(id) + " of " + st->id.name() + " is left at " +
                       std::to_string(v) + " at the end of the launch (released by cc_set, never taken by cc_wait)");
  }
  if (left.empty()) return;
  if (mode_ == RaceMode::Error) {
    std::string msg = "synchronisation left pending at the end of the launch:";
    for (const std::string& l : left) msg += "\n  " + l;
    throw Error(msg);
  }
  for (std::string& l : left)
    if (findings_.size() < kMaxFindings) findings_.push_back(std::move(l));
}

}  // namespace npu::check
