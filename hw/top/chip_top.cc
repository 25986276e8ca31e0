#include "hw/top/chip_top.h"

#include <string>

#include "isa/error.h"
#include "isa/sem/core_groups.h"

namespace npu::hw {

using isa::CoreType;
using isa::Pipe;

ChipTop::ChipTop(sc_core::sc_module_name name, const HwConfig& hw, const isa::Program& program,
                 sem::GlobalMemory& gm, const std::vector<int64_t>& params, int block_dim,
                 bool timing_only)
    : sc_module(name) {
  const bool has_aic = program.aic.present, has_aiv = program.aiv.present;
  if (!has_aic && !has_aiv) throw Error("program '" + program.name + "' has neither an AIC nor an AIV section");
  if (block_dim < 1 || block_dim > hw.chip.clusters)
    throw Error("block_dim " + std::to_string(block_dim) + " is outside 1.." + std::to_string(hw.chip.clusters) +
                " (clusters of " + hw.chip.name + ")");
  if (params.size() != program.params.size())
    throw Error("kernel '" + program.name + "' takes " + std::to_string(program.params.size()) +
                " parameters, " + std::to_string(params.size()) + " given");
  launch_ = std::make_unique<LaunchState>(hw, gm, block_dim, has_aic, has_aiv, timing_only);
  const int aivs = has_aiv ? hw.chip.aiv_per_cluster : 0;
  const int cores_per_cluster = (has_aic ? 1 : 0) + aivs;
  mem_ = std::make_unique<MemSystem>("mem", hw, static_cast<uint32_t>(2 * cores_per_cluster * block_dim));

  uint32_t port = 0;
  auto make_core = [&](Cluster& cl, const sem::CoreId& id) {
    std::array<GmPort*, isa::kNumPipes> ports{};
    // Each port's links run at its core type's rates (NocConfig aic_* / aiv_*).
    mem_->set_port_core(port, id.type);
    ports[static_cast<int>(Pipe::Mte2)] = &mem_->port(port++);
    mem_->set_port_core(port, id.type);
    ports[static_cast<int>(id.type == CoreType::Aic ? Pipe::Fixp : Pipe::Mte3)] = &mem_->port(port++);
    const std::string n = id.type == CoreType::Aic ? "aic" : "aiv" + std::to_string(id.sub);
    cores_.push_back(std::make_unique<CoreModel>(n.c_str(), id, *launch_, program.section(id.type), params, ports,
                                                 &total_cycles));
    return cores_.back().get();
  };
  for (int c = 0; c < block_dim; ++c) {
    clusters_.push_back(std::make_unique<Cluster>(("cluster" + std::to_string(c)).c_str(), [&](Cluster& cl) {
      if (has_aic) cl.aic = make_core(cl, sem::CoreId{c, CoreType::Aic, 0});
      for (int s = 0; s < aivs; ++s) cl.aivs.push_back(make_core(cl, sem::CoreId{c, CoreType::Aiv, s}));
    }));
    Cluster& cl = *clusters_.back();
    // a5 paths reach the peer cores of the cluster.
    for (CoreModel* core : cl.aivs) core->exec.cluster_aic = cl.aic ? &cl.aic->state : nullptr;
    if (cl.aic)
      for (CoreModel* core : cl.aivs) cl.aic->exec.cluster_aiv.push_back(&core->state);
  }
  launch_->cores_total = static_cast<int>(cores_.size());
}

ChipTop::~ChipTop() = default;

bool ChipTop::pipe_executing() const {
  for (const auto& c : cores_)
    if (c->pipe_executing()) return true;
  return false;
}

std::string ChipTop::blocked_report() const {
  // The cores whose report reads the same are one entry.
  sem::CoreGroups groups;
  for (const auto& c : cores_)
    if (!c->state.ended) groups.add(c->state.id, c->blocked_report());
  std::string s;
  for (const auto& [who, report] : groups.groups()) s += who + ":\n" + report;
  return s;
}

}  // namespace npu::hw
