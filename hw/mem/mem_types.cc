#include "hw/mem/mem_types.h"

#include <string>

#include "isa/error.h"

namespace npu::hw {

L2Geometry L2Geometry::from(const L2Config& cfg) {
  auto fail = [&](const std::string& why) {
    throw Error("invalid L2 configuration (size " + std::to_string(cfg.size) + ", ways " +
                std::to_string(cfg.ways) + ", line " + std::to_string(cfg.line) + ", slices " +
                std::to_string(cfg.slices) + "): " + why);
  };
  if (cfg.line == 0 || cfg.ways == 0 || cfg.slices == 0) fail("line, ways and slices must be > 0");
  uint64_t per_set = uint64_t(cfg.line) * cfg.ways * cfg.slices;
  if (cfg.size == 0 || cfg.size % per_set != 0) fail("size must be a multiple of line * ways * slices");
  uint64_t sets = cfg.size / per_set;
  if (sets > UINT32_MAX) fail("too many sets");
  if (cfg.slice_bytes_per_cycle <= 0) fail("slice_bytes_per_cycle must be > 0");
  if (cfg.mshrs_per_slice == 0) fail("mshrs_per_slice must be > 0");
  return L2Geometry{cfg.line, cfg.slices, static_cast<uint32_t>(sets), cfg.ways,
                    slice_mappings().make(cfg.slice_mapping, SliceShape{cfg.slices},
                                          params_for(cfg.slice_mapping_params, cfg.slice_mapping))};
}

}  // namespace npu::hw
