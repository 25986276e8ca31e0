#include "testbench/support/sync_mutation.h"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <memory>
#include <tuple>

#include "isa/error.h"
#include "isa/sem/core_state.h"
#include "isa/sem/sync.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/thrown_message.h"

namespace npu::test {

using isa::Op;
using num::Dtype;

namespace {

// A source line as a kernel author sees it: the path from "kernels/" on.
std::string line_name(const isa::Program& p, const isa::SourceLoc& l) {
  const int file = l.at.file;
  std::string f = file >= 0 && file < static_cast<int>(p.source_files.size()) ? p.source_files[file] : "?";
  size_t k = f.rfind("kernels/");
  return (k == std::string::npos ? f : f.substr(k + 8)) + ":" + std::to_string(l.at.line);
}

}  // namespace

const hw::HwConfig& mutant_config(const std::string& kernel) {
  static const hw::HwConfig a2 = load_repo_config("tiny");
  static const hw::HwConfig a5 = load_repo_config("ascend950", {"chip.clusters=2"});
  return kernel == "linear_mxfp8" ? a5 : a2;
}

std::vector<SyncMutant> flag_pair_mutants(const isa::Program& p) {
  std::vector<SyncMutant> out;
  for (isa::CoreType type : {isa::CoreType::Aic, isa::CoreType::Aiv}) {
    const isa::CodeSection& sec = p.section(type);
    if (!sec.present) continue;
    if (sec.src.size() != sec.code.size()) throw Error("flag_pair_mutants: the program has no source map");
    // (flag, written file, line) -> pcs, for the sets and the waits.
    using Site = std::tuple<int, int, int>;
    std::map<Site, std::vector<uint32_t>> sets, waits;
    for (uint32_t pc = 0; pc < sec.code.size(); ++pc) {
      const isa::Instr& in = sec.code[pc];
      if (in.op != Op::SET_FLAG && in.op != Op::WAIT_FLAG) continue;
      const int flag = sem::flag_index(static_cast<isa::Pipe>(in.f[0].value), static_cast<isa::Pipe>(in.f[1].value),
                                       static_cast<int>(in.f[2].value));
      (in.op == Op::SET_FLAG ? sets : waits)[{flag, sec.src[pc].at.file, sec.src[pc].at.line}].push_back(pc);
    }
    for (const auto& [s, spcs] : sets)
      for (const auto& [w, wpcs] : waits) {
        if (std::get<0>(s) != std::get<0>(w)) continue;
        SyncMutant m;
        const isa::Instr& in = sec.code[spcs[0]];
        m.name = std::string(isa::core_type_name(type)) + ": set_flag " +
                 sem::flag_name(static_cast<isa::Pipe>(in.f[0].value), static_cast<isa::Pipe>(in.f[1].value),
                                static_cast<int>(in.f[2].value)) +
                 " at " + line_name(p, sec.src[spcs[0]]) + " + wait_flag at " + line_name(p, sec.src[wpcs[0]]);
        m.program = p;
        m.type = type;
        m.set_pcs = spcs;
        m.wait_pcs = wpcs;
        isa::CodeSection& ms = type == isa::CoreType::Aic ? m.program.aic : m.program.aiv;
        for (uint32_t pc : spcs) ms.code[pc] = isa::Instr{};  // nop
        for (uint32_t pc : wpcs) ms.code[pc] = isa::Instr{};
        out.push_back(std::move(m));
      }
  }
  return out;
}

const char* verdict_name(RunVerdict v) {
  switch (v) {
    case RunVerdict::Clean: return "clean";
    case RunVerdict::Race: return "race";
    case RunVerdict::FlagLeftSet: return "flag left set";
    case RunVerdict::Deadlock: return "deadlock";
    default: return "fault";
  }
}

RunVerdict classify_run(const std::string& e) {
  if (e.empty()) return RunVerdict::Clean;
  if (e.rfind("race on ", 0) == 0) return RunVerdict::Race;
  if (e.rfind("synchronisation left pending", 0) == 0) return RunVerdict::FlagLeftSet;
  if (e.rfind("deadlock", 0) == 0) return RunVerdict::Deadlock;
  return RunVerdict::Fault;
}

namespace {
// An f32 parameter's value as its bit pattern (as the kernel reads it), and back.
int64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float f32_value(int64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

struct Shape {
  std::map<std::string, std::vector<int64_t>> tensors;  // GM parameter -> shape (bf16; rstd f32)
  std::map<std::string, int64_t> scalars;
  int block_dim = 1;
  std::map<std::string, Dtype> dtypes;  // tensors that are not bf16 (besides rstd)
};

// Small shapes that together execute every sync path of the kernels (see testbench/kernels/iss_test.cc).
std::vector<Shape> shapes(const std::string& kernel) {
  const int64_t eps = f32_bits(1e-6f);
  std::vector<Shape> v;
  if (kernel == "linear") {
    for (auto [M, K, N, bd] : std::vector<std::tuple<int64_t, int64_t, int64_t, int>>{
             {7, 1024, 256, 2}, {300, 512, 272, 2}, {130, 7168, 48, 1},
             {384, 512, 128, 2},    // one L0C slot (T < 2 bd: x not per unit row): both halves reused
             {300, 1536, 256, 2},   // pairs in one slot (x [128, K] too long), a remapped odd first unit
             {768, 256, 16, 1},     // 6 one-unit blocks: both L0C slots reused
             {16, 4096, 256, 2}})   // 72 KiB L1 stages: all 6 of them, 16 chunks
      v.push_back({{{"x", {M, K}}, {"w", {N, K}}, {"y", {M, N}}}, {{"M", M}, {"K", K}, {"N", N}}, bd, {}});
  } else if (kernel == "rmsnorm") {
    for (auto [rows, D, variant, beta, bd] : std::vector<std::tuple<int64_t, int64_t, int, int, int>>{
             {300, 512, 0, 1, 2}, {3, 16384, 1, 1, 2}, {5, 4144, 0, 0, 1}})
      v.push_back({{{"x", {rows, D}}, {"gamma", {D}}, {"beta", {D}}, {"y", {rows, D}}, {"rstd", {rows, 1}}},
                   {{"rows", rows}, {"D", D}, {"eps", eps}, {"variant", variant}, {"has_gamma", 1},
                    {"has_beta", beta}, {"out_rstd", 1}, {"is_f16", 0}},
                   bd, {}});
  } else if (kernel == "rmsnorm_linear") {
    for (auto [M, K, N, variant, bd] : std::vector<std::tuple<int64_t, int64_t, int64_t, int, int>>{
             {300, 512, 256, 0, 2}, {3, 7168, 64, 1, 1}, {16, 1024, 256, 1, 2},
             {768, 256, 16, 0, 1}, {16, 4096, 256, 0, 2}, {384, 512, 128, 0, 2},
             {300, 1536, 256, 0, 2}})  // as for linear
      v.push_back({{{"x", {M, K}}, {"gamma", {K}}, {"w", {N, K}}, {"y", {M, N}}, {"xn", {M, K}}},
                   {{"M", M}, {"K", K}, {"N", N}, {"eps", eps}, {"variant", variant}},
                   bd, {}});
  } else if (kernel == "quant_int8") {
    for (auto [M, K, f32, bd] : std::vector<std::tuple<int64_t, int64_t, int, int>>{
             {300, 512, 0, 2}, {13, 9000, 1, 2}, {3, 100, 0, 2},  // tiles, two passes, idle AIV
             {5, 16384, 0, 1}})  // 4 chunks: pass 2 reuses both buffer pairs within a tile
      v.push_back({{{"x", {M, K}}, {"q", {M, K}}, {"scale", {M}}}, {{"M", M}, {"K", K}, {"x_f32", f32}}, bd,
                   {{"x", f32 ? Dtype::F32 : Dtype::BF16}, {"q", Dtype::S8}, {"scale", Dtype::F32}}});
  } else if (kernel == "dequant") {
    for (auto [M, N, bias, bd] : std::vector<std::tuple<int64_t, int64_t, int, int>>{
             {300, 256, 1, 2}, {5, 9000, 1, 2}, {3, 100, 0, 2}})  // tiles, column chunks, idle AIV
      v.push_back({{{"acc", {M, N}}, {"x_scale", {M}}, {"w_scale", {N}}, {"bias", {N}}, {"y", {M, N}}},
                   {{"M", M}, {"N", N}, {"has_bias", bias}}, bd,
                   {{"acc", Dtype::S32}, {"x_scale", Dtype::F32}, {"w_scale", Dtype::F32}, {"bias", Dtype::F32}}});
  } else if (kernel == "linear_w8a8") {
    for (auto [M, K, N, bd] : std::vector<std::tuple<int64_t, int64_t, int64_t, int>>{
             {7, 512, 256, 2}, {300, 256, 384, 2}, {768, 256, 32, 1},  // as for linear
             {16, 256, 16, 2},      // one unit: an idle AIC (and its AIVs) still hand off
             {20, 512, 320, 2},     // M <= 128 with pairs: the by-unit AIV pass on a row-major t
             {128, 256, 1024, 1},   // 8 units per AIC: the by-unit pass reuses both buffer sets
             {16, 8192, 256, 2},    // all 6 L1 stages, 16 chunks; t by blocks
             {16, 4096, 128, 2},    // x resident, 8 chunks, all 6 stages
             {136, 1024, 256, 1}})  // x per unit row (kernels/lib/gemm_xrow.inc), one row change
      v.push_back({{{"x", {M, K}}, {"x_scale", {M}}, {"w", {N, K}}, {"w_scale", {N}}, {"y", {M, N}}, {"t", {M, N}}},
                   {{"M", M}, {"K", K}, {"N", N}}, bd,
                   {{"x", Dtype::S8}, {"x_scale", Dtype::F32}, {"w", Dtype::S8}, {"w_scale", Dtype::F32},
                    {"t", Dtype::F32}}});
  } else if (kernel == "rmsnorm_linear_quant") {
    for (auto [M, K, N, variant, bd] : std::vector<std::tuple<int64_t, int64_t, int64_t, int, int>>{
             {300, 512, 256, 0, 2}, {3, 7168, 64, 1, 1}, {16, 1024, 256, 1, 2},  // as for rmsnorm_linear
             {768, 256, 16, 0, 1}, {16, 256, 16, 0, 2},                       // one-unit blocks; idle AIC
             {20, 512, 320, 0, 2}, {128, 256, 1024, 0, 1},                    // by units, row-major t
             {16, 8192, 256, 0, 2},   // two chunks per row (3 AIV passes), all 6 L1 stages
             {16, 4096, 128, 0, 2},    // q resident, 8 chunks, all 6 stages
             {136, 1024, 256, 0, 1}})  // x per unit row, one row change (as for linear_w8a8)
      v.push_back({{{"x", {M, K}}, {"gamma", {K}}, {"w", {N, K}}, {"w_scale", {N}}, {"y", {M, N}}, {"q", {M, K}},
                    {"x_scale", {M}}, {"t", {M, N}}},
                   {{"M", M}, {"K", K}, {"N", N}, {"eps", eps}, {"variant", variant}}, bd,
                   {{"w", Dtype::S8}, {"w_scale", Dtype::F32}, {"q", Dtype::S8}, {"x_scale", Dtype::F32},
                    {"t", Dtype::F32}}});
  } else if (kernel == "linear_mxfp8") {
    for (auto [M, K, N, KC, via] : std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int>>{
             {7, 1024, 256, 224, 1},    // UB -> L1, chunks split over the cluster's 2 AIVs
             {7, 992, 96, 256, 0},      // GM, a K tail chunk, x resident
             {20, 1024, 320, 96, 0},    // paired blocks of 256 columns
             {20, 1024, 320, 96, 1},    // the same through UB -> L1
             {150, 512, 256, 96, 0},    // M > 128: x per chunk from xw
             {16, 256, 16, 256, 0},     // one unit: an idle AIC still consumes the hand-off
             {1536, 256, 16, 224, 0},   // 6 one-unit blocks per AIC: both L0C slots reused
             {16, 4096, 32, 96, 0}})    // 43 chunks: every L1 stage refilled
      v.push_back({{{"x", {M, K}}, {"w", {N, K}}, {"ws", {N, K / 32}}, {"y", {M, N}},
                    {"xw", {(K + KC - 1) / KC, (M + 15) / 16 * 16, KC + 32}}},
                   {{"M", M}, {"K", K}, {"N", N}, {"KC", KC}, {"via_l1", via}}, 2,
                   {{"w", Dtype::E4M3}, {"ws", Dtype::E8M0}, {"xw", Dtype::U8}}});
  } else {
    throw Error("no mutant shapes for kernel '" + kernel + "'");
  }
  return v;
}
}  // namespace

int mutant_shapes(const std::string& kernel) { return static_cast<int>(shapes(kernel).size()); }

std::string run_mutant(const std::string& kernel, const isa::Program& program, int shape) {
  const Shape s = shapes(kernel).at(shape);
  std::string body = "params: {";
  for (const auto& [name, v] : s.scalars) {
    const int i = program.param_index(name);
    const bool f32 = i >= 0 && program.params[static_cast<size_t>(i)].kind == isa::ParamKind::F32;
    body += fmt::format("{}{}: {}", body.size() > 9 ? ", " : "", name,
                        f32 ? fmt::format("{:.8e}", f32_value(v)) : std::to_string(v));
  }
  body += "}\ntensors:\n";
  for (const auto& [name, dims] : s.tensors) {
    auto dt = s.dtypes.find(name);
    const Dtype dtype = dt != s.dtypes.end() ? dt->second : name == "rstd" ? Dtype::F32 : Dtype::BF16;
    body += "  " + name + ": " + tensor_yaml(std::string(isa::dtype_name(dtype)).c_str(), dims, "init: zeros") + "\n";
  }
  // The case pipeline on the ISS, race checker in error mode, with the mutant as the kernel.
  cli::CaseSpec spec = test_case(source_path("kernels/" + kernel + ".s"), s.block_dim, body);
  spec.program = std::make_shared<const isa::Program>(program);
  return npu::test::thrown_message([&] { run_test_case(Engine::Iss, mutant_config(kernel), spec, false, {}, "error"); }, "");
}

bool reaches(const std::string& kernel, const isa::Program& program, isa::CoreType type,
             const std::vector<uint32_t>& pcs) {
  isa::Program probe = program;
  isa::CodeSection& sec = type == isa::CoreType::Aic ? probe.aic : probe.aiv;
  isa::Instr div;
  div.op = Op::DIV;  // div r0, r0, 0
  div.f[2] = isa::Operand{false, 0};
  for (uint32_t pc : pcs) sec.code[pc] = div;
  for (int i = 0; i < mutant_shapes(kernel); ++i)
    if (run_mutant(kernel, probe, i).find("division by zero") != std::string::npos) return true;
  return false;
}

RunVerdict judge_mutant(const std::string& kernel, const isa::Program& program, std::string* message) {
  for (int i = 0; i < mutant_shapes(kernel); ++i) {
    std::string e = run_mutant(kernel, program, i);
    if (e.empty()) continue;
    if (message) *message = e;
    return classify_run(e);
  }
  return RunVerdict::Clean;
}

}  // namespace npu::test
