#pragma once
// The chip for one kernel launch: block_dim clusters (each: the AIC if the program has an AIC
// section, aiv_per_cluster AIVs if it has an AIV section) above the memory system (L2 slices,
// HBM, interconnect). Each GM-facing pipe has its own GmPort (AIC: MTE2, FIXP; AIV: MTE2, MTE3),
// so the outstanding-line window of one pipe does not throttle another.
// Construct inside a fresh SimContext (hw/mem/sim_kernel.h); run it with run_systemc (run.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "hw/core/core_model.h"
#include "hw/core/launch_state.h"
#include "hw/mem/mem_system.h"
#include "isa/program.h"

namespace npu::hw {

class Cluster : public sc_core::sc_module {
 public:
  // build() runs inside the constructor, so the cores it creates are children of the cluster.
  Cluster(sc_core::sc_module_name name, const std::function<void(Cluster&)>& build) : sc_module(name) {
    build(*this);
  }
  CoreModel* aic = nullptr;        // owned by ChipTop
  std::vector<CoreModel*> aivs;
};

class ChipTop : public sc_core::sc_module {
 public:
  ChipTop(sc_core::sc_module_name name, const HwConfig& hw, const isa::Program& program,
          sem::GlobalMemory& gm, const std::vector<int64_t>& params, int block_dim, bool timing_only);
  ~ChipTop() override;

  LaunchState& launch() { return *launch_; }
  const LaunchState& launch() const { return *launch_; }
  MemSystem& mem() { return *mem_; }
  const MemSystem& mem() const { return *mem_; }
  const std::vector<std::unique_ptr<CoreModel>>& cores() const { return cores_; }  // launch order
  const std::vector<std::unique_ptr<Cluster>>& clusters() const { return clusters_; }

  // Set by the run loop at the end, read by the utilisation formulas.
  uint64_t total_cycles = 0;

  // Who waits on what, for every core that has not ended.
  std::string blocked_report() const;
  // Some core's pipe is executing an instruction (CoreModel::pipe_executing).
  bool pipe_executing() const;

 private:
  std::unique_ptr<LaunchState> launch_;
  std::unique_ptr<MemSystem> mem_;
  std::vector<std::unique_ptr<Cluster>> clusters_;
  std::vector<std::unique_ptr<CoreModel>> cores_;
};

}  // namespace npu::hw
