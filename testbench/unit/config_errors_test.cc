// Golden error text of the strict loader: location, key path and message, exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "hw/config/loader.h"
#include "isa/error.h"
#include "testbench/support/thrown_message.h"

namespace npu::hw {
namespace {

std::string tiny_path() {
  const char* env = std::getenv("NPUSIM_SOURCE_DIR");
  return std::string(env ? env : NPUSIM_SOURCE_DIR) + "/configs/tiny.yaml";
}

std::string error_of_text(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return npu::test::thrown_message([&] { load_config_string(yaml, sets, "t.yaml"); });
}

std::string error_of_set(const std::vector<std::string>& sets) {
  return npu::test::thrown_message([&] { load_config(tiny_path(), sets); });
}

// A complete, valid configuration (the resolved dump of tiny.yaml) with one line replaced.
// Returns the text and, through `line`, the 1-based line number of the replacement.
std::string complete_with(const std::string& old_line, const std::string& new_line, int* line = nullptr) {
  std::string text = dump_resolved_yaml(load_config(tiny_path()));
  size_t at = text.find("\n" + old_line + "\n");
  EXPECT_NE(at, std::string::npos) << old_line;
  if (line) *line = 2 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  return text.replace(at + 1, old_line.size(), new_line);
}

// The walk reports the first bad key before checking for missing ones, so short texts suffice.
TEST(ConfigErrors, UnknownKeyWithSuggestion) {
  EXPECT_EQ(error_of_text("chip:\n  name: x\n  clustrs: 2\n"),
            "t.yaml:3:3: error: chip.clustrs: unknown key (did you mean chip.clusters?)");
  EXPECT_EQ(error_of_text("l2:\n  size: 1MiB\n  frobnicate: 1\n"),
            "t.yaml:3:3: error: l2.frobnicate: unknown key");
  EXPECT_EQ(error_of_text("cache:\n  size: 1\n"), "t.yaml:1:1: error: cache: unknown key (did you mean cube?)");
  EXPECT_EQ(error_of_text("frobnicator: 1\n"), "t.yaml:1:1: error: frobnicator: unknown key");
}

TEST(ConfigErrors, WrongType) {
  EXPECT_EQ(error_of_text("chip:\n  clusters: two\n"),
            "t.yaml:2:13: error: chip.clusters: expected an integer, got 'two'");
  EXPECT_EQ(error_of_text("chip:\n  clusters: \"2\"\n"),
            "t.yaml:2:13: error: chip.clusters: expected an integer, got the quoted string \"2\"");
  EXPECT_EQ(error_of_text("chip:\n  clock_ghz: fast\n"),
            "t.yaml:2:14: error: chip.clock_ghz: expected a number, got 'fast'");
  EXPECT_EQ(error_of_text("l2:\n  warm: yes\n"),
            "t.yaml:2:9: error: l2.warm: expected true or false, got 'yes'");
  EXPECT_EQ(error_of_text("l2: 5\n"), "t.yaml:1:5: error: l2: expected a mapping of keys, got '5'");
  EXPECT_EQ(error_of_text("l2:\n  ways: [1, 2]\n"),
            "t.yaml:2:9: error: l2.ways: expected an integer, got a sequence");
  EXPECT_EQ(error_of_text("l2:\n  ways:\n"),
            "t.yaml:2:3: error: l2.ways: missing value (expected an integer)");
}

TEST(ConfigErrors, OutOfRange) {
  EXPECT_EQ(error_of_text("chip:\n  clusters: 0\n"),
            "t.yaml:2:13: error: chip.clusters: value 0 is out of range [1, 1024]");
  EXPECT_EQ(error_of_text("buffers:\n  ub: {size: 16, align: 32}\n"),
            "t.yaml:2:14: error: buffers.ub.size: value 16 is out of range [32, 64MiB]");
  EXPECT_EQ(error_of_text("vector:\n  cycles_per_repeat:\n    VecDiv: {default: 4, f16: 0}\n"),
            "t.yaml:3:31: error: vector.cycles_per_repeat.VecDiv.f16: value 0 is out of range [0.001, 100000]");
}

TEST(ConfigErrors, BadEnumAndDtype) {
  EXPECT_EQ(error_of_text("chip:\n  arch: a3\n"),
            "t.yaml:2:9: error: chip.arch: 'a3' is not one of: a2, a5");
  EXPECT_EQ(error_of_text("l2:\n  replacement: fifo\n"),
            "t.yaml:2:16: error: l2.replacement: 'fifo' is not one of: lru, pacman, random, srrip");
  EXPECT_EQ(error_of_text("vector:\n  cycles_per_repeat:\n    VecDiv: {default: 4, f64: 2}\n"),
            "t.yaml:3:26: error: vector.cycles_per_repeat.VecDiv.f64: unknown dtype 'f64' (expected "
            "default or one of f32, f16, bf16, s32, s16, s8, u8, e4m3, e5m2, e8m0)");
  EXPECT_EQ(error_of_text("vector:\n  cycles_per_repeat:\n    VecDiv: {f16: 2}\n"),
            "t.yaml:3:13: error: vector.cycles_per_repeat.VecDiv: a per-dtype map needs a 'default' entry");
}

TEST(ConfigErrors, ReplacementPolicyParameters) {
  EXPECT_EQ(error_of_text("l2:\n  replacement_params:\n    srrip:\n      rrpv_bits: 9\n"),
            "t.yaml:4:18: error: l2.replacement_params.srrip.rrpv_bits: value 9 is out of range [1, 7]");
  EXPECT_EQ(error_of_text("l2:\n  replacement_params:\n    srrip:\n      rrpv_bitz: 2\n"),
            "t.yaml:4:7: error: l2.replacement_params.srrip.rrpv_bitz: unknown key (did you mean "
            "l2.replacement_params.srrip.rrpv_bits?)");
  EXPECT_EQ(error_of_text("l2:\n  replacement_params:\n    lru:\n      depth: 2\n"),
            "t.yaml:3:5: error: l2.replacement_params.lru: unknown key");
  // A rule between parameters (the policy's factory): blamed on the dependent one, located.
  int line = 0;
  const std::string text = complete_with("      insert_rrpv: 2", "      insert_rrpv: 5", &line);
  // (The first insert_rrpv of the dump is pacman's: policies in file-name order.)
  EXPECT_EQ(error_of_text(text, {"l2.replacement=pacman"}),
            "t.yaml:" + std::to_string(line) + ":20: error: l2.replacement_params.pacman.insert_rrpv: pacman: "
            "insert_rrpv 5 exceeds the largest RRPV 3 of rrpv_bits 2");
  EXPECT_EQ(error_of_set({"l2.replacement=srrip", "l2.replacement_params.srrip.rrpv_bits=1"}),
            "--set l2.replacement_params.srrip.rrpv_bits=1: error: l2.replacement_params.srrip.rrpv_bits: "
            "srrip: insert_rrpv 2 exceeds the largest RRPV 1 of rrpv_bits 1");
  EXPECT_EQ(error_of_set({"l2.replacement_params.srrip.insert_rrpv=5"}), "(no error)");  // lru selected
}

TEST(ConfigErrors, BadSizeUnit) {
  EXPECT_EQ(error_of_text("l2:\n  size: 12XB\n"),
            "t.yaml:2:9: error: l2.size: invalid size '12XB': expected an integer with an optional "
            "unit B, KiB, MiB, GiB, TiB (KB, MB, GB, TB are the same binary units)");
  EXPECT_EQ(error_of_text("hbm:\n  size: 1.5GiB\n"),
            "t.yaml:2:9: error: hbm.size: invalid size '1.5GiB': expected an integer with an optional "
            "unit B, KiB, MiB, GiB, TiB (KB, MB, GB, TB are the same binary units)");
}

TEST(ConfigErrors, YamlSyntax) {
  EXPECT_EQ(error_of_text("chip:\n  name: [x\n"),
            "t.yaml:3:1: error: YAML syntax: end of sequence flow not found");
  EXPECT_EQ(error_of_text("chip:\n  name: x\n   clusters: 2\n"),
            "t.yaml:3:12: error: YAML syntax: illegal map value");
}

TEST(ConfigErrors, DuplicateKey) {
  EXPECT_EQ(error_of_text("chip:\n  clusters: 2\n  clusters: 3\n"),
            "t.yaml:3:3: error: chip.clusters: duplicate key");
}

TEST(ConfigErrors, MissingKey) {
  int line = 0;
  // Without l2.ways the error points at the l2 section (its first key, the line after "l2:").
  std::string text = complete_with("  ways: 16", "", &line);
  EXPECT_EQ(error_of_text(text), "t.yaml:" + std::to_string(line - 1) + ":3: error: l2.ways: missing required key");
  EXPECT_EQ(error_of_text("chip:\n  name: x\n"),
            "t.yaml:2:3: error: chip.arch: missing required key (also missing: chip.clusters, "
            "chip.aiv_per_cluster, chip.clock_ghz, buffers.l1.size, buffers.l1.align, ...)");
  // Optional keys may be left out.
  text = complete_with("  warm: false", "");
  EXPECT_EQ(error_of_text(text), "(no error)");
}

// tiny.yaml as written (optional keys left out) with one line replaced.
std::string tiny_with(const std::string& old_line, const std::string& new_line) {
  std::ifstream f(tiny_path());
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const size_t at = text.find(old_line);
  EXPECT_NE(at, std::string::npos) << old_line;
  return text.replace(at, old_line.size(), new_line);
}

TEST(ConfigErrors, InlineChoiceWithParameters) {
  // `replacement: {impl: srrip, rrpv_bits: 3}` = the choice plus its replacement_params.
  HwConfig c = load_config_string(tiny_with("  replacement: lru", "  replacement: {impl: srrip, rrpv_bits: 3, insert_rrpv: 6}"),
                                  {}, "t.yaml");
  EXPECT_EQ(c.l2.replacement, "srrip");
  EXPECT_EQ(c.l2.replacement_params.at("srrip").at("rrpv_bits"), 3);
  EXPECT_EQ(c.l2.replacement_params.at("srrip").at("insert_rrpv"), 6);
  HwConfig x = load_config_string(tiny_with("  slice_mapping: modulo", "  slice_mapping: {impl: xor, hash_bits: 12}"), {},
                                  "t.yaml");
  EXPECT_EQ(x.l2.slice_mapping, "xor");
  EXPECT_EQ(x.l2.slice_mapping_params.at("xor").at("hash_bits"), 12);
  // Errors are located at the entry, before any missing key is looked for.
  EXPECT_EQ(error_of_text("l2:\n  replacement: {impl: srrip, depth: 3}\n"),
            "t.yaml:2:30: error: l2.replacement.depth: unknown parameter of srrip (its parameters: rrpv_bits, "
            "insert_rrpv)");
  EXPECT_EQ(error_of_text("l2:\n  replacement: {rrpv_bits: 3}\n"),
            "t.yaml:2:16: error: l2.replacement: a mapping here needs `impl: <name>` (one of: lru, pacman, random, "
            "srrip)");
  EXPECT_EQ(error_of_text("l2:\n  replacement: {impl: srrip, rrpv_bits: 9}\n"),
            "t.yaml:2:41: error: l2.replacement_params.srrip.rrpv_bits: value 9 is out of range [1, 7]");
  EXPECT_EQ(error_of_text("l2:\n  replacement: {impl: srrip, rrpv_bits: 3}\n  replacement_params: {srrip: {rrpv_bits: 2}}\n"),
            "t.yaml:3:32: error: l2.replacement_params.srrip.rrpv_bits: set twice (also at t.yaml:2:41)");
  // A rule between parameters is the policy's; the default insert_rrpv 2 is refused, so the
  // parameter that was written (rrpv_bits) is blamed, at its place in the mapping.
  EXPECT_NE(error_of_text(tiny_with("  replacement: lru", "  replacement: {impl: srrip, rrpv_bits: 1}"))
                .find(":41: error: l2.replacement_params.srrip.rrpv_bits: srrip: insert_rrpv 2 exceeds the largest RRPV 1"),
            std::string::npos);
}

TEST(ConfigErrors, InlineChoiceFromSet) {
  // --set takes the inline form too, replacing what the file set (tiny.yaml: lru).
  HwConfig c = load_config(tiny_path(), {"l2.replacement={impl: srrip, rrpv_bits: 3, insert_rrpv: 6}"});
  EXPECT_EQ(c.l2.replacement, "srrip");
  EXPECT_EQ(c.l2.replacement_params.at("srrip").at("rrpv_bits"), 3);
  EXPECT_EQ(c.l2.replacement_params.at("srrip").at("insert_rrpv"), 6);
  HwConfig h = load_config(tiny_path(), {"hbm.channel_mapping={impl: xor, hash_bits: 12}"});
  EXPECT_EQ(h.hbm.channel_mapping, "xor");
  EXPECT_EQ(h.hbm.channel_mapping_params.at("xor").at("hash_bits"), 12);
  // Errors name the --set and the 1-based column of the offending entry within its text:
  // "l2.replacement=" is 15 characters, so the mapping starts at column 16.
  struct Bad {
    std::string value, column, error;
  };
  const Bad bad[] = {
      {"{impl: srrip, depth: 3}", "30",
       "l2.replacement.depth: unknown parameter of srrip (its parameters: rrpv_bits, insert_rrpv)"},
      {"{rrpv_bits: 3}", "16",
       "l2.replacement: a mapping here needs `impl: <name>` (one of: lru, pacman, random, srrip)"},
      {"{impl: srrip, rrpv_bits: 9}", "41", "l2.replacement_params.srrip.rrpv_bits: value 9 is out of range [1, 7]"},
      // A rule between parameters blames the --set's entry.
      {"{impl: srrip, rrpv_bits: 1}", "41",
       "l2.replacement_params.srrip.rrpv_bits: srrip: insert_rrpv 2 exceeds the largest RRPV 1 of rrpv_bits 1"},
  };
  for (const Bad& x : bad)
    EXPECT_EQ(error_of_set({"l2.replacement=" + x.value}),
              "--set l2.replacement=" + x.value + " (column " + x.column + "): error: " + x.error);
  // A mapping for a key without per-choice parameters is still refused.
  EXPECT_NE(error_of_set({"l2.ways={impl: 3}"}).find("--set l2.ways={impl: 3}: error: l2.ways: "), std::string::npos);
}

TEST(ConfigErrors, CrossField) {
  int line = 0;
  // Any l2.size is accepted (l2_rules.h), but every slice needs a set: tiny's 1 MiB holds
  // 1 MiB / (16 ways * 512 B) = 128 sets.
  std::string text = complete_with("  slices: 4", "  slices: 200", &line);
  // Blamed on the first key of the rule (l2.size) at its place in the file: line of "size" in l2.
  const std::string too_few =
      "l2.size 1MiB holds 128 set(s) of l2.ways * l2.line = 16 * 512 bytes, fewer than l2.slices = 200 "
      "(every slice needs a set): raise l2.size or lower l2.slices or l2.ways";
  std::string got = error_of_text(text);
  EXPECT_NE(got.find(": error: l2.size: " + too_few), std::string::npos) << got;
  // From --set, the override is blamed.
  EXPECT_EQ(error_of_set({"l2.slices=200"}), "--set l2.slices=200: error: l2.slices: " + too_few);
  EXPECT_EQ(error_of_set({"l2.size=3MiB", "l2.ways=12", "l2.slices=3"}), "(no error)");
  EXPECT_EQ(error_of_set({"buffers.ub.size=1000"}),
            "--set buffers.ub.size=1000: error: buffers.ub.size: buffers.ub.size 1000 is not a "
            "multiple of buffers.ub.align 32");
  EXPECT_EQ(error_of_set({"buffers.l1.align=48"}),
            "--set buffers.l1.align=48: error: buffers.l1.align: must be a power of two, got 48");
  EXPECT_EQ(error_of_set({"hbm.interleave=256"}),
            "--set hbm.interleave=256: error: hbm.interleave: hbm.interleave 256 must be a power of "
            "two and a multiple of l2.line 512");
}

TEST(ConfigErrors, BadOverride) {
  EXPECT_EQ(error_of_set({"l2.sise=1MiB"}),
            "--set l2.sise=1MiB: error: l2.sise: unknown key (did you mean l2.size?)");
  EXPECT_EQ(error_of_set({"l2.size=12XB"}),
            "--set l2.size=12XB: error: l2.size: invalid size '12XB': expected an integer with an "
            "optional unit B, KiB, MiB, GiB, TiB (KB, MB, GB, TB are the same binary units)");
  EXPECT_EQ(error_of_set({"chip.clusters=-1"}),
            "--set chip.clusters=-1: error: chip.clusters: value -1 is out of range [1, 1024]");
  EXPECT_EQ(error_of_set({"l2.size"}), "--set l2.size: error: expected key.path=value");
  EXPECT_EQ(error_of_set({"l2.size="}),
            "--set l2.size=: error: l2.size: missing value (expected a size)");
  EXPECT_EQ(error_of_set({"l2=1"}), "--set l2=1: error: l2: is a section; set its keys one by one");
  EXPECT_EQ(error_of_set({"vector.cycles_per_repeat.VecDiv.f64=2"}),
            "--set vector.cycles_per_repeat.VecDiv.f64=2: error: vector.cycles_per_repeat.VecDiv.f64: "
            "unknown dtype 'f64' (expected default or one of f32, f16, bf16, s32, s16, s8, u8, e4m3, "
            "e5m2, e8m0)");
  EXPECT_EQ(error_of_set({"l2.replacement=plru"}),
            "--set l2.replacement=plru: error: l2.replacement: 'plru' is not one of: lru, pacman, random, srrip");
}

TEST(ConfigErrors, FileAndTopLevel) {
  try {
    load_config("/nonexistent/x.yaml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.yaml: error: cannot read the configuration file: cannot open: No such file or directory");
  }
  EXPECT_EQ(error_of_text(""),
            "t.yaml:1:1: error: expected a mapping of sections (chip, buffers, ...), got nothing");
  EXPECT_EQ(error_of_text("- a\n"),
            "t.yaml:1:1: error: expected a mapping of sections (chip, buffers, ...), got a sequence");
}

// `base: FILE`: a variant replaces the base's keys, each once; the base must be readable.
TEST(ConfigErrors, BaseVariant) {
  const std::string base = "base: " + tiny_path() + "\n";
  HwConfig v = load_config_string(base + "chip:\n  clusters: 3\n", {}, "t.yaml");
  EXPECT_EQ(v.chip.clusters, 3);
  EXPECT_EQ(v.chip.name, load_config(tiny_path()).chip.name);
  EXPECT_EQ(error_of_text(base + "chip:\n  clusters: 3\n  clusters: 4\n"), "t.yaml:4:3: error: chip.clusters: duplicate key");
  EXPECT_EQ(error_of_text(base + "chip:\n  clusters: 0\n"),
            "t.yaml:3:13: error: chip.clusters: value 0 is out of range [1, 1024]");
  EXPECT_EQ(error_of_text("base: [a]\n"), "t.yaml:1:7: error: base: expected a config file name");
  const std::string missing = error_of_text("base: /no/such/config.yaml\n");
  EXPECT_EQ(missing.rfind("t.yaml:1:7: error: base: cannot read /no/such/config.yaml: ", 0), 0u) << missing;
}

}  // namespace
}  // namespace npu::hw
