#pragma once
// The L2 geometry rules, in one place: the config loader reports a violation at the key that
// set it (config-check and run alike), and the memory model (hw/mem L2Geometry) relies on them.
//
// Any l2.size is accepted: the L2 holds l2_total_sets(l2) = round(size / (ways * line)) sets
// (the nearest whole number, at least one) of l2.ways lines of l2.line bytes, dealt round-robin
// to the slices (slice s holds sets/slices sets, one more if s < sets % slices). So the
// associativity and line size are always the configured ones, and the modelled capacity is the
// requested one whenever it is a multiple of ways * line; otherwise it is the nearest such
// multiple, and l2_geometry_note says so (the resolved config and config-check print it).
#include <cstdint>
#include <string>

#include "hw/config/hw_config.h"

namespace npu::hw {

// The model keeps a tag (16 B) and replacement state (up to 8 B) per L2 line on the host, so it
// refuses geometries above this many lines (about 1.5 GiB of host memory).
inline constexpr uint64_t kMaxL2Lines = 1ull << 26;

// Sets of the whole L2 (all slices): size / (ways * line) rounded to the nearest, at least 1.
uint64_t l2_total_sets(const L2Config& l2);

// "" when the geometry can be built: every slice gets at least one set and the L2 has at most
// kMaxL2Lines lines; else what is wrong, naming the keys (l2.size, l2.slices, ...).
// Assumes line, ways and slices are > 0 (the schema's ranges).
std::string l2_geometry_problem(const L2Config& l2);

// What the model builds from l2.size, in one line for the resolved config:
// "85 sets x 24 ways x 512 B = 1020KiB (l2.size 1MiB / 12KiB = 85.33 sets, rounded: -0.39 %);
//  slices 0-20 hold 3 sets, slices 21-31 hold 2".
std::string l2_geometry_note(const L2Config& l2);

}  // namespace npu::hw
