// Markdown reference of every configuration key, from the schema.
#include "hw/config/config_doc.h"

#include <string>

#include "hw/config/l2_rules.h"
#include "hw/config/schema.h"

namespace npu::hw {
namespace {

std::string cell(std::string s) {
  for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

std::string type_text(const KeySpec& k) {
  if (k.type == KeyType::Enum) {
    std::string out = "enum: ";
    for (size_t i = 0; i < k.choices.size(); ++i) out += (i ? " \\| " : "") + ("`" + k.choices[i] + "`");
    return out;
  }
  return std::string(key_type_name(k.type));
}

std::string range_text(const KeySpec& k) {
  switch (k.type) {
    case KeyType::Int:
    case KeyType::Float:
    case KeyType::PerDtype: return format_float(k.min) + " .. " + format_float(k.max);
    case KeyType::Size:
      return format_size(static_cast<int64_t>(k.min)) + " .. " + format_size(static_cast<int64_t>(k.max));
    default: return "";
  }
}

}  // namespace

std::string generate_config_markdown() {
  std::string out =
      "<!-- Generated from hw/config/schema.cc; do not edit. Regenerate with\n"
      "     `npusim config-doc > docs/config.md` or `NPUSIM_UPDATE_DOCS=1 unit_config_doc_test`. -->\n"
      "# Hardware configuration reference\n\n"
      "A run's hardware is one YAML file (`configs/ascend910b.yaml`, the default; "
      "`configs/ascend910b1.yaml` and `configs/ascend910b3.yaml`, variants of it; `configs/ascend950.yaml`; `configs/tiny.yaml` for "
      "fast tests). Its sections mirror the "
      "model's module tree: `chip`, `buffers`, `scalar`, `mte`, `cube`, `vector`, `l2`, `hbm`, "
      "`noc`, `sim`. Every figure in the shipped files carries a comment naming its source.\n\n"
      "## Rules\n\n"
      "- **Strict.** Every key below is required unless the *required* column gives a default. "
      "Unknown keys, missing keys, wrong types (a quoted `\"5\"` is a string, not an integer), "
      "values out of range, unknown enum names and bad size units are errors of the form "
      "`FILE:LINE:COL: error: key.path: message`; YAML syntax errors are reported the same way.\n"
      "- **Variants.** A top-level `base: FILE` (relative to the file's own directory) reads that "
      "config first; the variant's keys then replace the base's, each at most once.\n"
      "- **Sizes** are integers with an optional unit: `512`, `512B`, `64KiB`, `192MiB`, `64GiB`. "
      "`KB`, `MB`, `GB`, `TB` are accepted and mean the same *binary* units (1 KB = 1024 B), as in "
      "memory data sheets. Fractions (`1.5MiB`) are not accepted.\n"
      "- **Cycles** are core cycles at `chip.clock_ghz`. HBM bandwidth is the one figure given in "
      "GB/s (1e9 B/s, whole device), because DRAM does not run on the core clock; the loader "
      "derives each channel's bytes per core cycle = `hbm.bandwidth_gbps / chip.clock_ghz / "
      "hbm.channels`, so overriding the clock keeps the memory's real bandwidth.\n"
      "- **Per-dtype cycles** (`vector.cycles_per_repeat.<class>`): a number for every dtype, or a "
      "map `{default: 2, f16: 4}` whose keys are `default` (required) and dtype names (";
  const auto& dts = dtype_key_names();
  for (size_t i = 0; i < dts.size(); ++i) out += (i ? ", " : "") + ("`" + dts[i] + "`");
  out +=
      "). For a cast the source dtype selects the entry.\n"
      "- **Cross-field rules**: each buffer's alignment is a power of two and its size a multiple "
      "of it; "
      "`l2.line` is a power of two; any `l2.size` is accepted: the model builds round(l2.size / "
      "(l2.ways * l2.line)) sets, which must be at least `l2.slices` (the resolved config states the "
      "geometry built and any rounding; docs/cache.md), and at most " +
      std::to_string(kMaxL2Lines) +
      " lines (the model keeps every line's tag on the host); `hbm.interleave` is a power of two and a "
      "multiple of `l2.line`; `vector.repeat_bytes` is a power of two; the parameters of the "
      "selected replacement policy obey the policy's own rules (reported at the parameter). The run and `npusim "
      "config-check` apply the same rules. A config file is one YAML document (a second one is an "
      "error at its `---`).\n"
      "- **Overrides**: `--set key.path=value` (repeatable) is applied after the file with the same "
      "checks; errors read `--set key.path=value: error: key.path: message`. "
      "`--set vector.cycles_per_repeat.VecDiv.f16=5` sets one entry of a per-dtype table; "
      "`--set vector.cycles_per_repeat.VecDiv=5` replaces the whole table.\n"
      "- **Resolved dump**: each run writes the configuration it used (every key, after "
      "overrides) beside its outputs; loading that file again gives the same configuration.\n"
      "- **Optional keys** are run options rather than hardware figures (`l2.warm`, "
      "`l2.random_seed`); every hardware figure must be written out, with its source.\n\n"
      "## Keys\n";
  std::string section;
  for (const KeySpec& k : config_schema()) {
    std::string top = k.path.substr(0, k.path.find('.'));
    if (top != section) {
      section = top;
      out += "\n### `" + section + "`\n\n"
             "| key | type | unit | range | required | description |\n"
             "|---|---|---|---|---|---|\n";
    }
    out += "| `" + k.path + "` | " + type_text(k) + " | " + cell(k.unit) + " | " + range_text(k) +
           " | " + (k.optional() ? "no, default `" + k.default_text + "`" : "yes") + " | " +
           cell(k.description) + " |\n";
  }
  return out;
}

}  // namespace npu::hw
