#include "isa/iss/iss.h"

#include "isa/error.h"
#include "isa/run_limits.h"
#include "isa/sem/core_groups.h"
#include "isa/sem/execute.h"
#include "isa/sem/fault.h"
#include "isa/sem/scalar.h"

namespace npu::iss {

using isa::Op;
using isa::Pipe;

uint64_t CoreStats::total() const {
  uint64_t t = 0;
  for (uint64_t n : instrs) t += n;
  return t;
}

struct Iss::Core {
  Core(const sem::CoreId& id, const isa::MachineDesc& m, std::vector<int64_t> params, int block_dim,
       const isa::CodeSection& c)
      : st(id, m, std::move(params), block_dim), code(&c) {
    stats.id = id;
  }
  sem::CoreState st;
  const isa::CodeSection* code;
  std::array<std::deque<sem::DispatchedInstr>, isa::kNumPipes> q;
  sem::ExecContext ctx;
  std::vector<sem::Access> accesses;  // of the last data instruction (race checker)
  CoreStats stats;

  bool drained(isa::PipeSel sel) const {
    if (sel == isa::PipeSel::All) {
      for (const auto& p : q)
        if (!p.empty()) return false;
      return true;
    }
    return q[static_cast<int>(sel)].empty();
  }
};

Iss::Iss(const isa::MachineDesc& machine, const isa::Program& program, sem::GlobalMemory& gm,
         std::vector<int64_t> params, int block_dim)
    : machine_(machine), program_(program), gm_(gm), block_dim_(block_dim) {
  if (block_dim < 1) throw Error("launch: block_dim must be >= 1 (got " + std::to_string(block_dim) + ")");
  if (params.size() != program.params.size())
    throw Error("launch of '" + program.name + "': " + std::to_string(program.params.size()) +
                " kernel parameters declared, " + std::to_string(params.size()) + " values given");
  if (!program.aic.present && !program.aiv.present)
    throw Error("launch of '" + program.name + "': the program has neither an AIC nor an AIV section");
  const int naiv = machine.aiv_per_cluster;
  for (int c = 0; c < block_dim; ++c) {
    if (program.aic.present)
      cores_.push_back(std::make_unique<Core>(sem::CoreId{c, isa::CoreType::Aic, 0}, machine, params,
                                              block_dim, program.aic));
    if (program.aiv.present)
      for (int s = 0; s < naiv; ++s)
        cores_.push_back(std::make_unique<Core>(sem::CoreId{c, isa::CoreType::Aiv, s}, machine, params,
                                                block_dim, program.aiv));
  }
  // Peer pointers for the a5 cluster-local paths.
  for (auto& core : cores_) {
    core->ctx.core = &core->st;
    core->ctx.gm = &gm_;
    core->ctx.cluster_aiv.assign(naiv, nullptr);
    for (auto& peer : cores_) {
      if (peer->st.id.cluster != core->st.id.cluster) continue;
      if (peer->st.id.type == isa::CoreType::Aic) core->ctx.cluster_aic = &peer->st;
      else core->ctx.cluster_aiv[peer->st.id.sub] = &peer->st;
    }
  }
  hub_ = std::make_unique<sem::CrossCoreHub>(block_dim, program.aic.present, program.aiv.present, naiv);
}

Iss::~Iss() = default;

const sem::CoreState& Iss::core(int i) const { return cores_.at(i)->st; }

// A sync op at the head of its pipe (or on the scalar unit): true when it completed.
bool Iss::run_sync(Core& c, const sem::DispatchedInstr& di) {
  bool done = true;
  switch (di.op()) {
    case Op::SET_FLAG: sem::fire_flag(c.st, di); break;
    case Op::WAIT_FLAG: done = sem::try_consume_flag(c.st, di); break;
    case Op::CC_SET: hub_->set(c.st, di); break;
    case Op::CC_WAIT: done = hub_->try_wait(c.st, di); break;
    default: sem::fault(c.st.id, di, "internal: not a sync instruction");
  }
  if (done && race_) race_->synced(c.st.id, di);
  return done;
}

bool Iss::step_scalar_unit(Core& c) {
  if (c.st.ended) return false;
  const isa::Instr& in = sem::fetch(c.st, *c.code);
  sem::ScalarOutcome o = sem::step_scalar(c.st, in);
  using K = sem::ScalarOutcome::Kind;
  switch (o.kind) {
    case K::Next: break;
    case K::Dispatch:
      if (race_) race_->dispatched(c.st.id, o.di);
      c.q[static_cast<int>(o.pipe)].push_back(std::move(o.di));
      c.st.pc = o.next_pc;
      return true;
    case K::SyncScalar:
      if (!run_sync(c, o.di)) return false;
      break;
    case K::Barrier:
      if (!c.drained(o.barrier)) return false;
      if (race_) race_->barrier(c.st.id, o.barrier);
      break;
    case K::End:
      if (!c.drained(isa::PipeSel::All)) return false;
      c.st.ended = true;
      break;
  }
  c.st.pc = o.next_pc;
  ++c.stats.instrs[static_cast<int>(Pipe::Scalar)];
  return true;
}

bool Iss::step_pipe(Core& c, int pipe) {
  auto& q = c.q[pipe];
  if (q.empty()) return false;
  const sem::DispatchedInstr& di = q.front();
  if (sem::is_sync_op(di.op())) {
    if (!run_sync(c, di)) return false;
  } else {
    c.accesses.clear();
    sem::execute(di, c.ctx);
    if (race_) race_->executed(c.st.id, di, c.accesses);
  }
  q.pop_front();
  ++c.stats.instrs[pipe];
  return true;
}

IssStats Iss::run() {
  stats_ = IssStats{};
  race_.reset();
  if (race_mode_ != check::RaceMode::Off) {
    std::vector<sem::CoreId> ids;
    for (const auto& c : cores_) ids.push_back(c->st.id);
    race_ = std::make_unique<check::RaceChecker>(program_, ids, race_mode_, &gm_);
  }
  hub_->set_observer(race_.get());
  for (auto& c : cores_) c->ctx.accesses = race_ ? &c->accesses : nullptr;
  for (;;) {
    bool progress = false, live = false;
    for (auto& cp : cores_) {
      Core& c = *cp;
      if (c.st.ended) continue;
      live = true;
      // A live core issues at least its `end` still: with the budget spent, the run needs more.
      if (stats_.issued == machine_.max_instructions)
        throw Error(isa::max_instructions_exceeded(machine_.max_instructions) + " in '" + program_.name +
                    "'. Where each core was:\n" + blocked_report());
      if (step_scalar_unit(c)) {
        progress = true;
        ++stats_.steps;
        ++stats_.issued;
      }
      for (int p = 1; p < isa::kNumPipes; ++p)
        if (step_pipe(c, p)) { progress = true; ++stats_.steps; }
    }
    if (!live) break;
    ++stats_.rounds;
    if (!progress)
      throw Error("deadlock in '" + program_.name + "': no unit can progress\n" + blocked_report());
  }
  for (const auto& c : cores_) stats_.cores.push_back(c->stats);
  if (race_) {
    std::vector<const sem::CoreState*> states;
    for (const auto& c : cores_) states.push_back(&c->st);
    race_->finish(states, *hub_);
    stats_.race_findings = race_->findings();
  }
  return stats_;
}

// One line per unit of every live core: what its current instruction waits for.
std::string Iss::blocked_report() const {
  auto why_sync = [&](const Core& c, const sem::DispatchedInstr& di) -> std::string {
    switch (di.op()) {
      case Op::WAIT_FLAG: {
        const sem::FlagRef f = sem::flag_ref(di);
        return "waits for flag " + sem::flag_name(f.src, f.dst, f.id);
      }
      case Op::CC_WAIT: return "waits: " + hub_->explain_wait(c.st.id, sem::cc_flag_id(di));
      default: return "ready";
    }
  };
  auto busy_pipes = [](const Core& c, isa::PipeSel sel) {
    std::string s;
    for (int p = 1; p < isa::kNumPipes; ++p)
      if (!c.q[p].empty() && (sel == isa::PipeSel::All || static_cast<int>(sel) == p))
        s += (s.empty() ? "" : ", ") + std::string(isa::pipe_name(static_cast<Pipe>(p)));
    return s;
  };
  // Per unit line; the cores whose line reads the same are one line.
  sem::CoreGroups lines;
  for (const auto& cp : cores_) {
    const Core& c = *cp;
    if (c.st.ended) continue;
    if (c.st.pc < c.code->code.size()) {
      const isa::Instr& in = c.code->code[c.st.pc];
      const std::string head = " SCALAR pc " + std::to_string(c.st.pc) + " (" + sem::describe(in) + "): ";
      if (in.op == Op::BARRIER)
        lines.add(c.st.id, head + "waits for pipes " + busy_pipes(c, static_cast<isa::PipeSel>(in.f[0].value)) + " to drain");
      else if (in.op == Op::END)
        lines.add(c.st.id, head + "waits for pipes " + busy_pipes(c, isa::PipeSel::All) + " to drain before ending");
      else if (sem::is_sync_op(in.op) && isa::pipe_of(in) == Pipe::Scalar)
        lines.add(c.st.id, head + why_sync(c, sem::resolve(c.st, in, c.st.pc)));
      else
        lines.add(c.st.id, head + "ready");
    }
    for (int p = 1; p < isa::kNumPipes; ++p) {
      if (c.q[p].empty()) continue;
      const sem::DispatchedInstr& di = c.q[p].front();
      lines.add(c.st.id, " " + std::string(isa::pipe_name(static_cast<Pipe>(p))) + " pc " + std::to_string(di.pc) + " (" +
                             sem::describe(di.in) + "): " + why_sync(c, di));
    }
  }
  std::string r;
  for (const auto& [who, line] : lines.groups()) r += "  " + who + line + "\n";
  return r;
}

}  // namespace npu::iss
