#pragma once
// Cores in the same state, for the deadlock / hang reports of both backends: 48 AIVs stuck at
// one wait read as one entry that lists them, not as 48 copies of the same lines.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/sem/core_state.h"

namespace npu::sem {

// The core a name of CoreId::name() stands for ("cluster3.aiv1"), or nullopt.
std::optional<CoreId> core_id_from_name(const std::string& name);

// The cores as names with ranges: "cluster{0..23}.aiv{0..1}", "cluster{0..5,7}.aic".
std::string core_ranges(const std::vector<CoreId>& cores);

class CoreGroups {
 public:
  // `state` is the core's text without its name; cores of one type with the same text group.
  void add(const CoreId& core, std::string state);
  // In first-seen order: who ("cluster3.aiv1" alone, "48 AIVs (cluster{0..23}.aiv{0..1})" for
  // several) and the state.
  std::vector<std::pair<std::string, std::string>> groups() const;

 private:
  struct Group {
    std::vector<CoreId> cores;
    std::string state;
  };
  std::vector<Group> groups_;
};

}  // namespace npu::sem
