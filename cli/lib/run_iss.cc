// `npusim run --iss`: the functional ISS as a backend (run_backend.h). No timing: the outcome
// has instruction counts per core and pipe only.
#include "cli/lib/run_backend.h"
#include "isa/iss/iss.h"
#include "isa/types.h"

namespace npu::cli {

SimOutcome run_on_iss(const SimRequest& req) {
  iss::Iss sim(req.hw->machine(), *req.program, *req.gm, req.params, req.block_dim);
  sim.set_race_mode(req.race);
  iss::IssStats st = sim.run();
  SimOutcome out;
  out.race_findings = st.race_findings;
  hw::SimStats& s = out.stats;
  s.clock_ghz = req.hw->chip.clock_ghz;
  s.block_dim = req.block_dim;
  for (const iss::CoreStats& c : st.cores) {
    hw::CoreRecord core{c.id, std::nullopt, {}};
    for (int p = 0; p < isa::kNumPipes; ++p) {
      if (c.instrs[p] == 0) continue;
      hw::PipeRecord pipe{static_cast<isa::Pipe>(p), {}};
      pipe.counters.instructions = c.instrs[p];
      core.pipes.push_back(pipe);
    }
    s.cores.push_back(std::move(core));
  }
  s.iss_steps = st.steps;
  s.iss_rounds = st.rounds;
  return out;
}

}  // namespace npu::cli
