// The shipped configs load, carry the figures docs/machine.md gives, and survive dump -> load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "hw/config/loader.h"
#include "isa/error.h"
#include "hw/config/schema.h"

namespace npu::hw {
namespace {

std::string config_path(const std::string& name) {
  const char* env = std::getenv("NPUSIM_SOURCE_DIR");
  return std::string(env ? env : NPUSIM_SOURCE_DIR) + "/configs/" + name;
}

TEST(ConfigLoad, Ascend910bFigures) {
  HwConfig c = load_config(config_path("ascend910b.yaml"));
  EXPECT_EQ(c.chip.name, "ascend910b");
  EXPECT_EQ(c.chip.arch, isa::Arch::A2);
  EXPECT_EQ(c.chip.clusters, 24);
  EXPECT_EQ(c.chip.aiv_per_cluster, 2);
  EXPECT_EQ(c.chip.clock_ghz, 1.8);
  EXPECT_EQ(c.buffers.l1, 512u * 1024);
  EXPECT_EQ(c.buffers.ub, 192u * 1024);
  EXPECT_EQ(c.buffers.fixpipe, 7u * 1024);
  EXPECT_EQ(c.buffers.l0a_align, 512u);
  // 192 MB = 24 ways x 16384 sets x 512 B (docs/machine.md section 6).
  EXPECT_EQ(c.l2.size, 24ull * 16384 * 512);
  EXPECT_EQ(c.l2.size / (uint64_t{c.l2.ways} * c.l2.line), 16384u);
  EXPECT_EQ(c.l2.read_hit_latency, 241u);
  EXPECT_EQ(c.l2.write_hit_latency, 96u);
  EXPECT_EQ(c.hbm.size, 64ull << 30);
  // Derived: 1600 GB/s / 1.8 GHz / 32 channels.
  EXPECT_DOUBLE_EQ(c.hbm.channel_bytes_per_cycle(c.chip.clock_ghz), 1600.0 / 1.8 / 32);
  EXPECT_EQ(c.mte.l1_l0a.bytes_per_cycle, 256);
  EXPECT_EQ(c.mte.ub_gm.bytes_per_cycle, 64);
  EXPECT_EQ(c.scalar.queue_depth[static_cast<int>(isa::Pipe::Vector)], 16u);
  EXPECT_EQ(c.cube.k0_s8, 32u);
  EXPECT_EQ(c.source_path, config_path("ascend910b.yaml"));
}

TEST(ConfigLoad, Ascend950AndTiny) {
  HwConfig a5 = load_config(config_path("ascend950.yaml"));
  EXPECT_EQ(a5.chip.arch, isa::Arch::A5);
  EXPECT_EQ(a5.chip.clock_ghz, 1.65);
  EXPECT_EQ(a5.buffers.l0c, 256u * 1024);
  EXPECT_EQ(a5.buffers.ub, 248u * 1024);
  HwConfig tiny = load_config(config_path("tiny.yaml"));
  EXPECT_EQ(tiny.chip.clusters, 2);
  EXPECT_EQ(tiny.l2.size, 1u << 20);
  // tiny keeps 910b's per-channel HBM rate: 200 / 1.8 / 4 = 1600 / 1.8 / 32.
  EXPECT_DOUBLE_EQ(tiny.hbm.channel_bytes_per_cycle(tiny.chip.clock_ghz), 1600.0 / 1.8 / 32);
}

// A variant (`base:`) is its base with only the keys it sets replaced.
TEST(ConfigLoad, Ascend910b3IsTheBaseWithItsOwnFigures) {
  HwConfig b = load_config(config_path("ascend910b.yaml"));
  HwConfig b3 = load_config(config_path("ascend910b3.yaml"));
  EXPECT_EQ(b3.chip.name, "ascend910b3");
  EXPECT_EQ(b3.chip.clusters, 20);
  EXPECT_EQ(b3.cube.startup, 23u);
  EXPECT_EQ(b3.noc.aiv_read_bytes_per_cycle, 124);
  b3.chip.name = b.chip.name;
  b3.chip.clusters = b.chip.clusters;
  b3.cube.startup = b.cube.startup;
  b3.noc.aiv_read_bytes_per_cycle = b.noc.aiv_read_bytes_per_cycle;
  EXPECT_TRUE(same_config(b, b3));
  EXPECT_EQ(b3.source_path, config_path("ascend910b3.yaml"));
}

// The 910B1 variant: its clock and its GM->UB table's link, nothing else.
TEST(ConfigLoad, Ascend910b1IsTheBaseWithItsOwnFigures) {
  HwConfig b = load_config(config_path("ascend910b.yaml"));
  HwConfig b1 = load_config(config_path("ascend910b1.yaml"));
  EXPECT_EQ(b1.chip.name, "ascend910b1");
  EXPECT_EQ(b1.chip.clusters, 24);
  EXPECT_DOUBLE_EQ(b1.chip.clock_ghz, 1.85);
  EXPECT_EQ(b1.noc.aiv_read_bytes_per_cycle, 46);
  b1.chip.name = b.chip.name;
  b1.chip.clock_ghz = b.chip.clock_ghz;
  b1.noc.aiv_read_bytes_per_cycle = b.noc.aiv_read_bytes_per_cycle;
  EXPECT_TRUE(same_config(b, b1));
  EXPECT_EQ(b1.source_path, config_path("ascend910b1.yaml"));
}

TEST(ConfigLoad, VectorCyclesLookup) {
  HwConfig c = load_config(config_path("ascend910b.yaml"));
  using isa::Dtype;
  using isa::TimingClass;
  EXPECT_EQ(c.vector.cycles(TimingClass::VecBinary, Dtype::F32), 2);
  EXPECT_EQ(c.vector.cycles(TimingClass::VecTranscend, Dtype::F32), 2);  // default entry
  EXPECT_EQ(c.vector.cycles(TimingClass::VecTranscend, Dtype::F16), 4);  // specific entry
  EXPECT_EQ(c.vector.cycles(TimingClass::VecReduce, Dtype::F32), 3);
  EXPECT_EQ(c.vector.cycles(TimingClass::VecReduce, Dtype::BF16), 7);
  EXPECT_EQ(c.vector.cycles(TimingClass::VecDiv, Dtype::S32), 4);
  try {
    c.vector.cycles(TimingClass::Mmad, Dtype::F32);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "vector.cycles_per_repeat has no entry for Mmad (not a vector timing class?)");
  }
}

TEST(ConfigLoad, OverridesApply) {
  HwConfig c = load_config(config_path("ascend910b.yaml"),
                           {"l2.size=96MiB", "chip.clock_ghz=1.85", "l2.replacement=srrip",
                            "vector.cycles_per_repeat.VecDiv.f16=5", "l2.warm=true",
                            "vector.cycles_per_repeat.VecTranscend=3", "chip.name=\"my chip\""});
  EXPECT_EQ(c.l2.size, 96ull << 20);
  EXPECT_EQ(c.chip.clock_ghz, 1.85);
  EXPECT_EQ(c.l2.replacement, "srrip");
  EXPECT_TRUE(c.l2.warm);
  EXPECT_EQ(c.chip.name, "my chip");
  EXPECT_EQ(c.vector.cycles(isa::TimingClass::VecDiv, isa::Dtype::F16), 5);  // one entry
  EXPECT_EQ(c.vector.cycles(isa::TimingClass::VecDiv, isa::Dtype::F32), 4);  // others kept
  // A whole-table override drops the per-dtype entries.
  EXPECT_EQ(c.vector.cycles(isa::TimingClass::VecTranscend, isa::Dtype::F16), 3);
  // The derived HBM rate follows the overridden clock: 1600 / 1.85 / 32.
  EXPECT_DOUBLE_EQ(c.hbm.channel_bytes_per_cycle(c.chip.clock_ghz), 1600.0 / 1.85 / 32);
}

TEST(ConfigLoad, DumpRoundTripsEveryConfig) {
  for (const char* name : {"ascend910b.yaml", "ascend910b1.yaml", "ascend910b3.yaml", "ascend950.yaml", "tiny.yaml"}) {
    HwConfig a = load_config(config_path(name), {"hbm.bandwidth_gbps=1234.5678", "chip.clock_ghz=1.7"});
    const std::string dump = dump_resolved_yaml(a);
    HwConfig b = load_config_string(dump, {}, "dump");
    EXPECT_TRUE(same_config(a, b)) << name << "\n" << dump;
    // Identical text apart from the two header lines (which name the source file).
    auto body = [](const std::string& s) { return s.substr(s.find('\n', s.find('\n') + 1)); };
    EXPECT_EQ(body(dump_resolved_yaml(b)), body(dump));
  }
}

TEST(ConfigLoad, SameConfigSeesEveryKey) {
  // same_config must notice a change in any key, or the round-trip test proves nothing.
  const HwConfig base = load_config(config_path("tiny.yaml"));
  for (const KeySpec& k : config_schema()) {
    HwConfig changed = base;
    KeyValue v = k.get(base);
    switch (k.type) {
      case KeyType::Int:
      case KeyType::Size: v.i = v.i == static_cast<int64_t>(k.min) ? v.i + 1 : v.i - 1; break;
      case KeyType::Float: v.f = v.f * 0.5; break;
      case KeyType::Bool: v.b = !v.b; break;
      case KeyType::String: v.s += "x"; break;
      case KeyType::Enum:
        if (k.choices.size() < 2) continue;  // one choice (l2.slice_mapping today): nothing to change
        v.s = v.s == k.choices[0] ? k.choices[1] : k.choices[0];
        break;
      case KeyType::PerDtype: v.table["default"] += 1; break;
    }
    k.set(changed, v);
    EXPECT_FALSE(same_config(base, changed)) << k.path;
  }
}

TEST(ConfigLoad, DumpShape) {
  HwConfig c = load_config(config_path("tiny.yaml"));
  const std::string d = dump_resolved_yaml(c);
  EXPECT_NE(d.find("\nchip:\n  name: \"tiny\"\n  arch: a2\n  clusters: 2\n"), std::string::npos) << d;
  EXPECT_NE(d.find("\nl2:\n  size: 1MiB\n"), std::string::npos) << d;
  EXPECT_NE(d.find("    VecTranscend: {default: 2, f16: 4, bf16: 4}\n"), std::string::npos) << d;
  EXPECT_NE(d.find("\n  l1:\n    size: 512KiB\n    align: 32\n"), std::string::npos) << d;
}

TEST(ConfigLoad, SizeUnits) {
  int64_t b = 0;
  EXPECT_EQ(parse_size("512", b), "");
  EXPECT_EQ(b, 512);
  EXPECT_EQ(parse_size("192MB", b), "");
  EXPECT_EQ(b, 192ll << 20);
  EXPECT_EQ(parse_size("32MiB", b), "");
  EXPECT_EQ(b, 32ll << 20);
  EXPECT_EQ(parse_size("512 KiB", b), "");
  EXPECT_EQ(b, 512ll << 10);
  EXPECT_EQ(parse_size("64GiB", b), "");
  EXPECT_EQ(b, 64ll << 30);
  EXPECT_NE(parse_size("1.5MiB", b), "");
  EXPECT_NE(parse_size("12kb", b), "");
  EXPECT_NE(parse_size("MiB", b), "");
  EXPECT_EQ(format_size(7168), "7KiB");
  EXPECT_EQ(format_size(201326592), "192MiB");
  EXPECT_EQ(format_size(100), "100");
}

}  // namespace
}  // namespace npu::hw
