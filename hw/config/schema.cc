// The one declaration of every configuration key (see schema.h). Add a key here and the loader,
// the dump and docs/config.md pick it up; the YAML files must then carry it (unless optional).
#include "hw/config/schema.h"

#include <algorithm>
#include <type_traits>

#include "base/edit_distance.h"
#include "hw/config/buffer_table.h"
#include "hw/pluggable/replacement_policy.h"
#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {
namespace {

// A member of HwConfig, usable on const and non-const configs.
#define FIELD(expr) [](auto& c) -> auto& { return c.expr; }

constexpr double kMaxSize = 1125899906842624.0;  // 1 PiB: far above any real memory, below 2^53

// A key of `type` whose value (the KeyValue member `field`) is the HwConfig member ref(c).
template <class Ref, class V>
KeySpec member_key(std::string path, KeyType type, Ref ref, V KeyValue::*field, std::string desc) {
  KeySpec k;
  k.path = std::move(path);
  k.type = type;
  k.description = std::move(desc);
  k.set = [ref, field](HwConfig& c, const KeyValue& v) {
    auto& m = ref(c);
    m = static_cast<std::remove_reference_t<decltype(m)>>(v.*field);
  };
  k.get = [ref, field](const HwConfig& c) {
    KeyValue v;
    v.*field = static_cast<V>(ref(c));
    return v;
  };
  return k;
}

template <class Ref, class V>
KeySpec ranged_key(std::string path, KeyType type, Ref ref, V KeyValue::*field, double lo, double hi,
                   std::string unit, std::string desc) {
  KeySpec k = member_key(std::move(path), type, ref, field, std::move(desc));
  k.min = lo;
  k.max = hi;
  k.unit = std::move(unit);
  return k;
}

template <class Ref>
KeySpec int_key(std::string path, Ref ref, double lo, double hi, std::string unit, std::string desc,
                KeyType type = KeyType::Int) {
  return ranged_key(std::move(path), type, ref, &KeyValue::i, lo, hi, std::move(unit), std::move(desc));
}

template <class Ref>
KeySpec size_key(std::string path, Ref ref, double lo, double hi, std::string desc) {
  return int_key(std::move(path), ref, lo, hi, "bytes", std::move(desc), KeyType::Size);
}

template <class Ref>
KeySpec float_key(std::string path, Ref ref, double lo, double hi, std::string unit,
                  std::string desc) {
  return ranged_key(std::move(path), KeyType::Float, ref, &KeyValue::f, lo, hi, std::move(unit), std::move(desc));
}

template <class Ref>
KeySpec bool_key(std::string path, Ref ref, std::string desc) {
  return member_key(std::move(path), KeyType::Bool, ref, &KeyValue::b, std::move(desc));
}

template <class Ref>
KeySpec string_key(std::string path, Ref ref, std::string desc, KeyType type = KeyType::String,
                   std::vector<std::string> choices = {}) {
  KeySpec k = member_key(std::move(path), type, ref, &KeyValue::s, std::move(desc));
  k.choices = std::move(choices);
  return k;
}

KeySpec optional(KeySpec k, std::string default_text) {
  k.default_text = std::move(default_text);
  return k;
}

KeySpec arch_key() {
  KeySpec k;
  k.path = "chip.arch";
  k.type = KeyType::Enum;
  k.choices = {std::string(isa::arch_name(isa::Arch::A2)), std::string(isa::arch_name(isa::Arch::A5))};
  k.description =
      "Architecture: a2 (Ascend 910B, Atlas A2/A3) or a5 (Ascend 950: adds UB<->L1, L0C->UB, MX "
      "matmul).";
  k.set = [](HwConfig& c, const KeyValue& v) {
    c.chip.arch = v.s == isa::arch_name(isa::Arch::A5) ? isa::Arch::A5 : isa::Arch::A2;
  };
  k.get = [](const HwConfig& c) {
    KeyValue v;
    v.s = std::string(isa::arch_name(c.chip.arch));
    return v;
  };
  return k;
}

// The choice of a pluggable part (l2.replacement, l2.slice_mapping): the names and their
// descriptions come from its registry.
template <class Registry, class Ref>
KeySpec choice_key(std::string path, Ref ref, std::string desc, const Registry& r) {
  desc += ", by name:";
  for (const auto& e : r.entries()) desc += " `" + e.name + "`: " + e.description + ";";
  desc.back() = '.';
  const std::string leaf = path.substr(path.rfind('.') + 1);
  desc += " Their parameters: " + path + "_params.<name>.<param>, or inline: `" + leaf +
          ": {impl: <name>, <param>: <value>}`.";
  return string_key(std::move(path), ref, std::move(desc), KeyType::Enum, r.names());
}

// One parameter of a part's implementation, `<section>.<implementation>.<param>`, filling
// tables(config)[implementation][param]; optional, the registered default if absent.
using ParamTables = std::map<std::string, std::map<std::string, double>>;
using TablesOf = ParamTables& (*)(HwConfig&);
KeySpec param_key(const std::string& section, TablesOf tables, const std::string& impl, const ParamSpec& p) {
  KeySpec k;
  k.path = section + "." + impl + "." + p.name;
  k.type = p.type == ParamSpec::Type::Int ? KeyType::Int : KeyType::Float;
  k.min = p.min;
  k.max = p.max;
  k.description = impl + ": " + p.description;
  const bool integer = k.type == KeyType::Int;
  k.set = [tables, impl, name = p.name, integer](HwConfig& c, const KeyValue& v) {
    tables(c)[impl][name] = integer ? static_cast<double>(v.i) : v.f;
  };
  k.get = [tables, impl, name = p.name, dflt = p.default_value](const HwConfig& c) {
    const ParamTables& t = tables(const_cast<HwConfig&>(c));
    auto it = t.find(impl);
    KeyValue v;
    v.f = it != t.end() && it->second.count(name) ? it->second.at(name) : dflt;
    v.i = static_cast<int64_t>(v.f);
    return v;
  };
  const std::string default_text =
      integer ? std::to_string(static_cast<int64_t>(p.default_value)) : format_float(p.default_value);
  return optional(std::move(k), default_text);
}

// The parameter keys of every implementation in r.
template <class Registry>
void add_param_keys(std::vector<KeySpec>& s, const std::string& section, TablesOf tables, const Registry& r) {
  for (const auto& e : r.entries())
    for (const ParamSpec& p : e.params) s.push_back(param_key(section, tables, e.name, p));
}

// The Dtype of a dtype key the loader has checked against dtype_key_names().
int dtype_index(const std::string& name) {
  for (int d = 0; d < VectorConfig::kNumDtypes; ++d)
    if (isa::dtype_name(static_cast<isa::Dtype>(d)) == name) return d;
  throw Error("vector.cycles_per_repeat: unknown dtype '" + name + "'");
}

// vector.cycles_per_repeat.<class>: "default" and per-dtype entries.
KeySpec vector_class_key(const isa::TimingClassDef& tc) {
  std::string name(tc.name);
  KeySpec k;
  k.path = std::string(tc.config_key);
  k.type = KeyType::PerDtype;
  k.min = 0.001;
  k.max = 100000;
  k.unit = "cycles";
  k.description = "Cycles per repeat (vector.repeat_bytes) of the " + name + " timing class (" +
                  std::string(tc.doc) + "): one number for every dtype, or a map `{default: x, <dtype>: y}`.";
  const int ci = static_cast<int>(tc.cls);
  k.set = [ci](HwConfig& c, const KeyValue& v) {
    auto& r = c.vector.cycles_per_repeat[ci];
    r = {};
    for (const auto& [dt, cyc] : v.table) {
      if (dt == "default") r.default_cycles = cyc;
      else r.by_dtype[dtype_index(dt)] = cyc;
    }
  };
  k.get = [ci](const HwConfig& c) {
    const auto& r = c.vector.cycles_per_repeat[ci];
    KeyValue v;
    if (r.default_cycles > 0) v.table["default"] = r.default_cycles;
    for (int d = 0; d < VectorConfig::kNumDtypes; ++d)
      if (r.by_dtype[d] > 0) v.table[std::string(isa::dtype_name(static_cast<isa::Dtype>(d)))] = r.by_dtype[d];
    return v;
  };
  return k;
}

void add_mte_path(std::vector<KeySpec>& s, const char* name, PathConfig MteConfig::*pm,
                  const char* what) {
  std::string p = std::string("mte.") + name;
  s.push_back(float_key(p + ".bytes_per_cycle", [pm](auto& c) -> auto& { return (c.mte.*pm).bytes_per_cycle; },
                        0.001, 4096, "B/cycle", std::string("Rate of the ") + what + " path."));
  s.push_back(int_key(p + ".startup", [pm](auto& c) -> auto& { return (c.mte.*pm).startup; }, 0,
                      100000, "cycles",
                      std::string("Fixed cost per instruction on the ") + what +
                          " path (GM paths: on top of the L2/HBM latency, which the memory model adds)."));
  s.push_back(optional(int_key(p + ".min_cycles", [pm](auto& c) -> auto& { return (c.mte.*pm).min_cycles; }, 0,
                               100000, "cycles",
                               std::string("Floor of one instruction's pipe occupancy on the ") + what +
                                   " path: max(min_cycles, startup + bytes / rate); the transfer overlaps it "
                                   "(0 = no floor)."),
                       "0"));
}

// The rate of a tile-load path when the tile is written transposed (`trans` operand).
void add_trans_rate(std::vector<KeySpec>& s, const char* name, PathConfig MteConfig::*pm) {
  s.push_back(float_key(std::string("mte.") + name + ".trans_bytes_per_cycle",
                        [pm](auto& c) -> auto& { return (c.mte.*pm).trans_bytes_per_cycle; }, 0.001, 4096,
                        "B/cycle", "Rate of a transposing tile load (trans = 1) on this path."));
}

std::vector<KeySpec> build_schema() {
  std::vector<KeySpec> s;
  // chip
  s.push_back(string_key("chip.name", FIELD(chip.name), "Name of the configuration, echoed in reports."));
  s.push_back(arch_key());
  s.push_back(int_key("chip.clusters", FIELD(chip.clusters), 1, 1024, "",
                      "Clusters on the chip; each is 1 AIC (cube core) + aiv_per_cluster AIVs."));
  s.push_back(int_key("chip.aiv_per_cluster", FIELD(chip.aiv_per_cluster), 1, 2, "",
                      "Vector cores (AIV) per cluster."));
  s.push_back(float_key("chip.clock_ghz", FIELD(chip.clock_ghz), 0.1, 10, "GHz",
                        "Core clock; every cycle figure in this file is at this clock."));
  // buffers
  for (const BufferRow& b : kBufferRows) {
    auto size = b.size;
    auto align = b.align;
    std::string p = std::string("buffers.") + b.key;
    s.push_back(size_key(p + ".size", [size](auto& c) -> auto& { return c.buffers.*size; }, 32,
                         64.0 * 1024 * 1024, std::string("Capacity of the ") + b.what + "."));
    s.push_back(int_key(p + ".align", [align](auto& c) -> auto& { return c.buffers.*align; }, 1,
                        4096, "bytes",
                        std::string("Required alignment of every access to the ") + b.what +
                            " (a power of two)."));
  }
  // scalar
  s.push_back(int_key("scalar.cycles.alu", FIELD(scalar.alu), 1, 1000, "cycles", "Integer ALU, moves, special-register reads, ldp."));
  s.push_back(int_key("scalar.cycles.mul", FIELD(scalar.mul), 1, 1000, "cycles", "Integer multiply."));
  s.push_back(int_key("scalar.cycles.div", FIELD(scalar.div), 1, 1000, "cycles", "Integer divide and remainder."));
  s.push_back(int_key("scalar.cycles.fp", FIELD(scalar.fp), 1, 1000, "cycles", "Scalar fp32 arithmetic and conversions."));
  s.push_back(int_key("scalar.cycles.branch", FIELD(scalar.branch), 1, 1000, "cycles", "Branches and jumps."));
  s.push_back(int_key("scalar.dispatch", FIELD(scalar.dispatch), 1, 1000, "cycles",
                      "Scalar-unit cycles to issue one instruction into a pipe queue."));
  s.push_back(int_key("scalar.sync", FIELD(scalar.sync), 1, 1000, "cycles",
                      "Bookkeeping cost of set_flag/wait_flag/barrier/cc_set/cc_wait in their pipe."));
  for (int p = 0; p < isa::kNumPipes; ++p) {
    std::string name(isa::keyword(isa::EnumType::Pipe, p));
    s.push_back(int_key("scalar.queue_depth." + name,
                        [p](auto& c) -> auto& { return c.scalar.queue_depth[p]; }, 1, 4096,
                        "instructions",
                        "Depth of the " + std::string(isa::pipe_name(static_cast<isa::Pipe>(p))) +
                            " instruction queue; a full queue stalls the scalar unit."));
  }
  // mte
  add_mte_path(s, "gm_ub", &MteConfig::gm_ub, "GM->UB (MTE2, AIV)");
  add_mte_path(s, "ub_gm", &MteConfig::ub_gm, "UB->GM (MTE3, AIV)");
  add_mte_path(s, "gm_l1", &MteConfig::gm_l1, "GM->L1 (MTE2, AIC)");
  add_mte_path(s, "gm_l1_nz", &MteConfig::gm_l1_nz, "GM->L1 with the ND->NZ conversion (MTE2, AIC, mov_gm_l1_nz)");
  add_mte_path(s, "l1_l0a", &MteConfig::l1_l0a, "L1->L0A (MTE1)");
  add_trans_rate(s, "l1_l0a", &MteConfig::l1_l0a);
  add_mte_path(s, "l1_l0b", &MteConfig::l1_l0b, "L1->L0B (MTE1)");
  add_trans_rate(s, "l1_l0b", &MteConfig::l1_l0b);
  add_mte_path(s, "l1_fb", &MteConfig::l1_fb, "L1->FixPipe buffer (FIXP)");
  add_mte_path(s, "ub_l1", &MteConfig::ub_l1, "UB->L1 (a5 only)");
  add_mte_path(s, "l1_ub", &MteConfig::l1_ub, "L1->UB (a5 only)");
  add_mte_path(s, "l0c_gm", &MteConfig::l0c_gm, "L0C->GM (FIXP)");
  add_mte_path(s, "l0c_ub", &MteConfig::l0c_ub, "L0C->UB (FIXP, a5 only)");
  s.push_back(int_key("mte.max_outstanding", FIELD(mte.max_outstanding), 1, 4096, "requests",
                      "L2-line requests one MTE keeps in flight (bounds one core's GM bandwidth by latency)."));
  s.push_back(int_key("mte.quantum_cycles", FIELD(mte.quantum_cycles), 0, 1e9, "cycles",
                      "Look-ahead bound of one GM DMA: it books the shared L2/HBM/link timelines at most this "
                      "far ahead of simulation time, so concurrent DMAs interleave (0 = book to the end at issue)."));
  // cube
  s.push_back(int_key("cube.startup", FIELD(cube.startup), 0, 100000, "cycles",
                      "Fixed cycles per mmad: startup + ceil(m/m0) * ceil(n/n0) * ceil(k/k0)."));
  s.push_back(int_key("cube.m0", FIELD(cube.m0), 1, 256, "elements", "Rows of the cube's fractal tile per cycle."));
  s.push_back(int_key("cube.n0", FIELD(cube.n0), 1, 256, "elements", "Columns of the cube's fractal tile per cycle."));
  s.push_back(int_key("cube.k0.b16", FIELD(cube.k0_b16), 1, 256, "elements", "k per cycle for bf16/f16 inputs."));
  s.push_back(int_key("cube.k0.s8", FIELD(cube.k0_s8), 1, 256, "elements", "k per cycle for int8 inputs."));
  s.push_back(int_key("cube.k0.f32", FIELD(cube.k0_f32), 1, 256, "elements", "k per cycle for fp32 inputs."));
  s.push_back(int_key("cube.k0.fp8", FIELD(cube.k0_fp8), 1, 256, "elements", "k per cycle for MX fp8 inputs (a5)."));
  // vector
  s.push_back(int_key("vector.startup", FIELD(vector.startup), 0, 100000, "cycles",
                      "Fixed cycles per vector instruction: max(min_cycles, startup + passes * ceil(bytes/repeat_bytes) * cycles_per_repeat)."));
  s.push_back(int_key("vector.min_cycles", FIELD(vector.min_cycles), 0, 100000, "cycles",
                      "Floor of a vector instruction's back-to-back issue interval: a short instruction "
                      "still occupies the pipe this long (0 = no floor)."));
  s.push_back(int_key("vector.repeat_bytes", FIELD(vector.repeat_bytes), 32, 4096, "bytes",
                      "Bytes of one vector repeat (8 blocks of 32 B on Ascend)."));
  for (const isa::TimingClassDef& tc : isa::timing_classes())
    if (tc.family == isa::TimingFamily::Vector) s.push_back(vector_class_key(tc));
  // l2
  s.push_back(size_key("l2.size", FIELD(l2.size), 1024, kMaxSize, "Capacity of the whole L2 (all slices); any size: the model builds round(size / "
                       "(ways * line)) sets of the configured ways and line, and the resolved config says what it built."));
  s.push_back(int_key("l2.ways", FIELD(l2.ways), 1, 256, "", "Associativity."));
  s.push_back(size_key("l2.line", FIELD(l2.line), 32, 4096, "Line size (a power of two); GM traffic moves in lines."));
  s.push_back(int_key("l2.slices", FIELD(l2.slices), 1, 1024, "",
                      "Slices, address-interleaved by line (l2.slice_mapping). The L2 holds round(size / (ways * line)) "
                      "sets, dealt round-robin to the slices (some slices hold one more when they do not divide); "
                      "the resolved config states the geometry built."));
  s.push_back(choice_key("l2.slice_mapping", FIELD(l2.slice_mapping),
                         "Address -> slice mapping (of the columns of each row of l2.slices sets)", slice_mappings()));
  add_param_keys(s, "l2.slice_mapping_params", [](HwConfig& c) -> ParamTables& { return c.l2.slice_mapping_params; },
                 slice_mappings());
  s.push_back(choice_key("l2.replacement", FIELD(l2.replacement), "Replacement policy", replacement_policies()));
  s.push_back(int_key("l2.read_hit_latency", FIELD(l2.read_hit_latency), 1, 100000, "cycles", "Read hit latency as seen by the requesting core."));
  s.push_back(int_key("l2.write_hit_latency", FIELD(l2.write_hit_latency), 1, 100000, "cycles", "Write latency until the write is acknowledged."));
  s.push_back(float_key("l2.slice_bytes_per_cycle", FIELD(l2.slice_bytes_per_cycle), 0.001, 65536, "B/cycle", "Data bandwidth of one slice."));
  s.push_back(int_key("l2.mshrs_per_slice", FIELD(l2.mshrs_per_slice), 1, 4096, "", "Outstanding misses per slice."));
  s.push_back(int_key("l2.prefetch_lines", FIELD(l2.prefetch_lines), 0, 64, "lines",
                      "Next-line prefetch: a read miss with cache hint `prefetch` also fetches this many "
                      "following lines into L2 (absent ones, off the requester's path, counted as "
                      "prefetch_fills). 0: the prefetch hint behaves as normal."));
  s.push_back(optional(bool_key("l2.warm", FIELD(l2.warm),
                                "Start with the case's input tensors resident (if they fit)."),
                       "false"));
  s.push_back(optional(int_key("l2.random_seed", FIELD(l2.random_seed), 0, 4294967295.0, "",
                               "Seed of the random replacement policy (deterministic)."),
                       "1"));
  add_param_keys(s, "l2.replacement_params", [](HwConfig& c) -> ParamTables& { return c.l2.replacement_params; },
                 replacement_policies());
  // hbm
  s.push_back(size_key("hbm.size", FIELD(hbm.size), 1024, kMaxSize, "Capacity of global memory."));
  s.push_back(int_key("hbm.channels", FIELD(hbm.channels), 1, 1024, "", "Address-interleaved channels."));
  s.push_back(float_key("hbm.bandwidth_gbps", FIELD(hbm.bandwidth_gbps), 0.001, 1e6, "GB/s",
                        "Total bandwidth of all channels in 1e9 B/s; the loader derives each channel's "
                        "bytes per core cycle = bandwidth_gbps / clock_ghz / channels."));
  s.push_back(int_key("hbm.latency", FIELD(hbm.latency), 1, 100000, "cycles", "From request to first byte, after an L2 miss."));
  s.push_back(size_key("hbm.interleave", FIELD(hbm.interleave), 32, 1048576.0,
                       "Bytes mapped to one channel before the next (a multiple of l2.line, a power of two)."));
  s.push_back(choice_key("hbm.channel_mapping", FIELD(hbm.channel_mapping),
                         "Interleave chunk -> channel mapping (rows of `channels` chunks)", slice_mappings()));
  add_param_keys(s, "hbm.channel_mapping_params", [](HwConfig& c) -> ParamTables& { return c.hbm.channel_mapping_params; },
                 slice_mappings());
  // noc
  s.push_back(float_key("noc.aiv_read_bytes_per_cycle", FIELD(noc.aiv_read_bytes_per_cycle), 0.001, 65536, "B/cycle",
                        "Read bandwidth of one AIV core's link to the L2 (also any port not declared AIC)."));
  s.push_back(float_key("noc.aiv_write_bytes_per_cycle", FIELD(noc.aiv_write_bytes_per_cycle), 0.001, 65536, "B/cycle",
                        "Write bandwidth of one AIV core's link to the L2 (also any port not declared AIC)."));
  s.push_back(float_key("noc.aic_read_bytes_per_cycle", FIELD(noc.aic_read_bytes_per_cycle), 0.001, 65536, "B/cycle",
                        "Read bandwidth of one AIC core's link to the L2 (its MTE2 port: GM->L1)."));
  s.push_back(float_key("noc.aic_write_bytes_per_cycle", FIELD(noc.aic_write_bytes_per_cycle), 0.001, 65536, "B/cycle",
                        "Write bandwidth of one AIC core's link to the L2 (its FixPipe port: L0C->GM)."));
  s.push_back(int_key("noc.latency", FIELD(noc.latency), 0, 100000, "cycles", "One-way link latency, added to every request and response."));
  // launch
  s.push_back(optional(int_key("launch.overhead_cycles", FIELD(launch.overhead_cycles), 0, 1e9, "cycles",
                               "Device-side cost of a kernel launch: no core starts before this cycle "
                               "(0 = cores start at cycle 0)."),
                       "0"));
  s.push_back(optional(int_key("launch.core_skew_cycles", FIELD(launch.core_skew_cycles), 0, 1e6, "cycles",
                               "Start skew between consecutive clusters (blocks): cluster c's cores start "
                               "at overhead_cycles + c * core_skew_cycles."),
                       "0"));
  // sim
  s.push_back(int_key("sim.watchdog_cycles", FIELD(sim.watchdog_cycles), 1000, 1e15, "cycles",
                      "End the run with an error when no instruction retires and no pipe executes one "
                      "for this long (a slow transfer in flight is progress)."));
  s.push_back(optional(int_key("sim.max_cycles", FIELD(sim.max_cycles), 1, 1e13, "cycles",
                               "Run limit (SystemC model): end the run with an error (exit 2) when it "
                               "has not finished after this many cycles. `npusim run --max-cycles N` "
                               "sets it."),
                       "10000000000"));
  s.push_back(optional(int_key("sim.max_instructions", FIELD(sim.max_instructions), 1, 1e15, "",
                               "Run limit (both backends): end the run with an error (exit 2) when the "
                               "scalar units have issued more instructions than this (every executed "
                               "instruction counts once, dispatched or not). `npusim run "
                               "--max-instructions N` sets it."),
                       "100000000"));
  return s;
}
#undef FIELD

}  // namespace

std::string_view key_type_name(KeyType t) {
  switch (t) {
    case KeyType::Int: return "int";
    case KeyType::Float: return "float";
    case KeyType::Bool: return "bool";
    case KeyType::String: return "string";
    case KeyType::Size: return "size";
    case KeyType::Enum: return "enum";
    case KeyType::PerDtype: return "cycles per dtype";
  }
  return "?";
}

const std::vector<KeySpec>& config_schema() {
  static const std::vector<KeySpec> schema = build_schema();
  return schema;
}

const KeySpec* find_key(const std::string& path) {
  for (const KeySpec& k : config_schema())
    if (k.path == path) return &k;
  return nullptr;
}

std::string closest_key(const std::string& path) {
  std::string best;
  size_t best_d = 4;  // suggest only near misses
  for (const KeySpec& k : config_schema()) {
    // Compare with the key and each of its sections, so a misspelt section is caught too.
    for (size_t end = k.path.find('.');; end = k.path.find('.', end + 1)) {
      std::string cand = k.path.substr(0, end);
      size_t d = edit_distance(path, cand);
      if (d < best_d) best_d = d, best = cand;
      if (end == std::string::npos) break;
    }
  }
  return best;
}

const std::vector<std::string>& dtype_key_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < isa::enum_count(isa::EnumType::Dtype); ++i)
      v.emplace_back(isa::keyword(isa::EnumType::Dtype, i));
    return v;
  }();
  return names;
}

}  // namespace npu::hw
