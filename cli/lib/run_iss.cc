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
  out.mode = "iss";
  for (const iss::CoreStats& c : st.cores) {
    nlohmann::json pipes = nlohmann::json::object();
    for (int p = 0; p < isa::kNumPipes; ++p) {
      if (c.instrs[p] == 0) continue;
      pipes[std::string(isa::pipe_name(static_cast<isa::Pipe>(p)))] = {{"instructions", c.instrs[p]}};
    }
    out.cores.push_back({{"name", c.id.name()},
                         {"type", std::string(isa::core_type_name(c.id.type))},
                         {"instructions", c.total()},
                         {"pipes", pipes}});
  }
  out.extra = {{"iss", {{"steps", st.steps}, {"rounds", st.rounds}}}};
  return out;
}

}  // namespace npu::cli
