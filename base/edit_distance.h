#pragma once
// Edit distance for "did you mean" suggestions (config keys, CLI options and subcommands).
#include <cstddef>
#include <string>

namespace npu {

// Insertions, deletions, substitutions and swaps of two neighbours each cost 1 ("vdc" is one
// edit from "vcd"), so the common typos are near misses.
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace npu
