#pragma once
// The typed hardware configuration: configs/*.yaml -> HwConfig -> modules. No hardware number
// lives in C++; each field here is filled by the strict loader (hw/config/loader.h) from YAML,
// where every figure carries a comment naming its source. Sections mirror the module tree.
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "isa/isa.h"
#include "isa/machine.h"

namespace npu::hw {

struct ChipConfig {
  std::string name;              // "ascend910b"
  isa::Arch arch = isa::Arch::A2;
  int clusters = 1;              // 1 AIC + 2 AIV each
  int aiv_per_cluster = 2;
  double clock_ghz = 1.0;
};

// Capacities and alignments of one core's local buffers: the ISA layer's description (isa/machine.h).
using BufferConfig = isa::BufferDesc;

// Scalar unit: cycles per scalar timing class, and dispatch into the pipe queues.
struct ScalarConfig {
  uint32_t alu = 1, mul = 1, div = 1, fp = 1, branch = 1;
  uint32_t dispatch = 1;                     // cycles to issue one instruction into a pipe queue
  uint32_t sync = 1;                         // set_flag/wait_flag/barrier/cross-core bookkeeping
  std::array<uint32_t, isa::kNumPipes> queue_depth{};  // per pipe (index = isa::Pipe)
};

// One data-movement path (MTE1/2/3, FixPipe): rate and fixed start-up per instruction.
struct PathConfig {
  double bytes_per_cycle = 1;
  uint32_t startup = 0;
  double trans_bytes_per_cycle = 0;  // tile loads with trans = 1 (L1->L0A/L0B); 0 = bytes_per_cycle
  uint32_t min_cycles = 0;  // floor of one instruction's pipe occupancy (0 = none)
};

struct MteConfig {
  PathConfig gm_ub, ub_gm, gm_l1, l1_l0a, l1_l0b, l1_fb, ub_l1, l1_ub, l0c_gm, l0c_ub;
  PathConfig gm_l1_nz;  // mov_gm_l1_nz: GM -> L1 with the ND -> NZ conversion
  uint32_t max_outstanding = 16;  // line requests an MTE keeps in flight to L2
  // Look-ahead bound of one GM DMA (GmPortOptions::quantum): a DMA books the shared memory
  // timelines at most this far ahead of simulation time, so concurrent DMAs interleave.
  // 0 = unbounded (each DMA books up to its end at issue).
  uint32_t quantum_cycles = 0;
};

struct CubeConfig {
  uint32_t startup = 0;
  uint32_t m0 = 16, n0 = 16;                       // fractal tile of one cube cycle
  uint32_t k0_b16 = 16, k0_s8 = 32, k0_f32 = 4, k0_fp8 = 32;  // k per cycle by input dtype
};

// Vector: startup + passes * ceil(bytes / repeat_bytes) * cycles_per_repeat(class, dtype).
struct VectorConfig {
  uint32_t startup = 0;
  uint32_t min_cycles = 0;       // floor of one instruction's issue interval (0 = none)
  uint32_t repeat_bytes = 256;
  // vector.cycles_per_repeat.<class> of one timing class: the default and per-dtype entries,
  // 0 = no entry (the schema's range starts above 0). Indexed by the enums, so the lookup of
  // each vector instruction is two array reads.
  static constexpr int kNumDtypes = static_cast<int>(isa::Dtype::E8M0) + 1;
  struct RepeatCycles {
    double default_cycles = 0;
    std::array<double, kNumDtypes> by_dtype{};
  };
  std::array<RepeatCycles, isa::kNumTimingClasses> cycles_per_repeat{};
  // The dtype's entry, else the class default; throws npu::Error if the class has neither (the
  // loader gives every vector class a default). For a cast, pass the source dtype.
  double cycles(isa::TimingClass c, isa::Dtype d) const {
    const RepeatCycles& r = cycles_per_repeat[static_cast<int>(c)];
    const double v = r.by_dtype[static_cast<int>(d)];
    if (v > 0) return v;
    if (r.default_cycles > 0) return r.default_cycles;
    no_cycles(c);
  }
  [[noreturn]] static void no_cycles(isa::TimingClass c);
};

struct L2Config {
  uint64_t size = 0;             // bytes, whole chip
  uint32_t ways = 1;
  uint32_t line = 512;           // bytes
  uint32_t slices = 1;           // address-interleaved by line (l2_rules.h: the sets they hold)
  std::string replacement = "lru";  // by name: a policy of replacement_policies()
  // Policy name -> parameter -> value (keys l2.replacement_params.<policy>.<param>); a parameter
  // absent here takes its registered default.
  std::map<std::string, std::map<std::string, double>> replacement_params;
  uint32_t read_hit_latency = 1, write_hit_latency = 1;
  double slice_bytes_per_cycle = 1;
  uint32_t mshrs_per_slice = 1;
  uint32_t prefetch_lines = 1;   // lines after its own a prefetch-hinted read miss brings in
  bool warm = false;             // start with every line of the case's inputs resident (if they fit)
  uint64_t random_seed = 1;      // for the random replacement policy (deterministic)
  std::string slice_mapping = "modulo";  // by name: a mapping of slice_mappings()
  std::map<std::string, std::map<std::string, double>> slice_mapping_params;  // as replacement_params
};

struct HbmConfig {
  uint64_t size = 0;
  uint32_t channels = 1;
  double bandwidth_gbps = 1;           // whole device, 1e9 bytes/s (the YAML key hbm.bandwidth_gbps)
  // Per channel at the core clock (derived, not stored: it follows bandwidth_gbps and the clock).
  double channel_bytes_per_cycle(double clock_ghz) const { return bandwidth_gbps / clock_ghz / channels; }
  uint32_t latency = 1;                // cycles from request to first byte
  uint32_t interleave = 512;           // bytes per channel before moving to the next
  std::string channel_mapping = "modulo";  // by name: a mapping of slice_mappings()
  std::map<std::string, std::map<std::string, double>> channel_mapping_params;  // as L2Config's
};

// Links between cores and the L2 slices, one read and one write link per core port. The rates
// depend on the port's core type (measured AIC paths are faster than AIV ones): aiv_* for AIV
// ports (and any port not declared AIC), aic_* for AIC ports (Interconnect::set_port_core).
struct NocConfig {
  double aiv_read_bytes_per_cycle = 1, aiv_write_bytes_per_cycle = 1;  // AIV
  double aic_read_bytes_per_cycle = 1, aic_write_bytes_per_cycle = 1;  // AIC
  uint32_t latency = 0;
};

// Kernel launch: the device-side cost before the first core runs, and how far apart the
// clusters (blocks) start. Cluster c's cores start at overhead_cycles + c * core_skew_cycles.
struct LaunchConfig {
  uint64_t overhead_cycles = 0;
  uint64_t core_skew_cycles = 0;
  uint64_t start_cycle(int cluster) const { return overhead_cycles + uint64_t(cluster) * core_skew_cycles; }
};

// Run settings, not hardware. The run limits end a kernel that never finishes (a loop that keeps
// dispatching pipe work never trips the watchdog); the defaults are far above any real kernel.
struct SimConfig {
  uint64_t watchdog_cycles = 1000000;  // no instruction retires and no pipe is busy this long -> error
  uint64_t max_cycles = 10000000000ull;      // SystemC model: simulated cycles
  uint64_t max_instructions = 100000000ull;   // both backends: instructions the scalar units issue
};

struct HwConfig {
  ChipConfig chip;
  BufferConfig buffers;
  ScalarConfig scalar;
  MteConfig mte;
  CubeConfig cube;
  VectorConfig vector;
  L2Config l2;
  HbmConfig hbm;
  NocConfig noc;
  LaunchConfig launch;
  SimConfig sim;
  std::string source_path;  // the YAML file it came from

  // The part of the configuration the semantics and the ISS see (isa/machine.h).
  isa::MachineDesc machine() const { return {chip.arch, chip.aiv_per_cluster, buffers, sim.max_instructions}; }
};

}  // namespace npu::hw
