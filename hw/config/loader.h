#pragma once
// The strict configuration loader. Every key of the schema (hw/config/schema.h) must appear in
// the file unless the schema marks it optional; unknown keys, wrong types, out-of-range values,
// bad enum names, bad size units and YAML syntax errors throw npu::Error as
//   "FILE:LINE:COL: error: <key.path>: <message>"          (1-based line and column)
// and bad overrides as
//   "--set key.path=value: error: <key.path>: <message>".
// Overrides ("key.path=value", as given to `--set`) are applied after the file, with the same
// type and range checks; for per-dtype cycle tables, "vector.cycles_per_repeat.VecBinary.f32=3"
// sets one entry and "vector.cycles_per_repeat.VecBinary=3" replaces the whole table.
// A choice with per-choice parameters takes the inline mapping as in a file,
// "l2.replacement={impl: srrip, rrpv_bits: 3}"; its errors add "(column C)" after the --set text.
// Cross-field rules (l2 geometry, buffer alignment, HBM interleave) are checked last.
#include <string>
#include <vector>

#include "hw/config/hw_config.h"

namespace npu::hw {

HwConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// Same, from YAML text; `name` stands for the file name in error messages.
HwConfig load_config_string(const std::string& yaml_text,
                            const std::vector<std::string>& overrides = {},
                            const std::string& name = "<string>");

// Every key of `cfg` as YAML in the layout of configs/*.yaml (no comments on figures). Loading
// the result gives an HwConfig equal to `cfg` (source_path aside). Written beside run outputs.
std::string dump_resolved_yaml(const HwConfig& cfg);

// Field-by-field equality of two configs (source_path ignored); used by the round-trip test.
bool same_config(const HwConfig& a, const HwConfig& b);

}  // namespace npu::hw
