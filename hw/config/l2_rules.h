#pragma once
// The L2 geometry rules, in one place: the config loader reports a violation at the key that
// set it (config-check and run alike), and the memory model (hw/mem L2Geometry) relies on them.
#include <cstdint>
#include <string>

#include "hw/config/hw_config.h"

namespace npu::hw {

// The model keeps a tag (16 B) and replacement state (up to 8 B) per L2 line on the host, so it
// refuses geometries above this many lines (about 1.5 GiB of host memory).
inline constexpr uint64_t kMaxL2Lines = 1ull << 26;

// "" when size = slices * sets * ways * line with a power-of-two number of sets per slice and
// at most kMaxL2Lines lines; else what is wrong, naming the keys (l2.size, l2.ways, ...).
// Assumes line, ways and slices are > 0 (the schema's ranges).
std::string l2_geometry_problem(const L2Config& l2);

// Sets per slice of a geometry that passes l2_geometry_problem.
uint32_t l2_sets_per_slice(const L2Config& l2);

}  // namespace npu::hw
