#include "hw/mem/mem_types.h"

#include <string>

#include "hw/config/l2_rules.h"
#include "isa/error.h"

namespace npu::hw {

L2Geometry L2Geometry::from(const L2Config& cfg) {
  // The loader has applied the rules (hw/config/l2_rules.h); a config built in code is checked
  // by the same function, so the model accepts exactly what config-check accepts.
  if (cfg.line == 0 || cfg.ways == 0 || cfg.slices == 0)
    throw Error("invalid L2 configuration: l2.line, l2.ways and l2.slices must be > 0");
  if (std::string problem = l2_geometry_problem(cfg); !problem.empty())
    throw Error("invalid L2 configuration: " + problem);
  L2Geometry g;
  g.line = cfg.line;
  g.slices = cfg.slices;
  g.ways = cfg.ways;
  g.sets = l2_total_sets(cfg);
  g.full_rows = g.sets / cfg.slices;
  g.extra = static_cast<uint32_t>(g.sets % cfg.slices);
  g.line_div_ = Divisor(g.line);
  g.sets_div_ = Divisor(g.sets);
  g.slices_div_ = Divisor(g.slices);
  g.rows_div_ = Divisor(g.full_rows);
  g.mapping = slice_mappings().make(cfg.slice_mapping, SliceShape{cfg.slices},
                                    params_for(cfg.slice_mapping_params, cfg.slice_mapping));
  return g;
}

}  // namespace npu::hw
