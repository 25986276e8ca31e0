#pragma once
// stats.json of `npusim run`: the RunResult as JSON, the only place a run's JSON is made (the
// layout and every field's unit: docs/stats.md).
#include <nlohmann/json.hpp>

#include "cli/lib/run_result.h"

namespace npu::cli {

nlohmann::json stats_json(const RunResult& r);

}  // namespace npu::cli
