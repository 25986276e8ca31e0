#include "hw/top/bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <variant>
#include <cstdio>
#include <initializer_list>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/simd.h"
#include "base/simd_width.h"
#include "hw/top/run.h"
#include "isa/sem/gm.h"

namespace npu::hw {

using isa::Op;
using isa::Pipe;

namespace {

// An operand: an immediate / enum value / target, or a register.
struct Opd {
  bool reg = false;
  int64_t v = 0;
  Opd(int64_t x) : v(x) {}  // NOLINT: implicit on purpose
  Opd(Pipe p) : v(static_cast<int64_t>(p)) {}
  Opd(isa::Dtype d) : v(static_cast<int64_t>(d)) {}
};
Opd R(int n) {
  Opd o(n);
  o.reg = true;
  return o;
}

struct Code {
  std::vector<isa::Instr> v;
  int pc() const { return static_cast<int>(v.size()); }
  Code& operator()(Op op, std::initializer_list<Opd> ops = {}) {
    isa::Instr in;
    in.op = op;
    const isa::InstrDef& d = isa::def(op);
    auto it = ops.begin();
    for (int i = 0; i < d.nfields; ++i) {
      const bool reg_kind = d.fields[i].kind == isa::FieldKind::RegDst || d.fields[i].kind == isa::FieldKind::RegSrc;
      if (it != ops.end()) {
        in.f[i].is_reg = it->reg || reg_kind;
        in.f[i].value = it->v;
        ++it;
      } else {
        in.f[i].is_reg = d.fields[i].kind == isa::FieldKind::RegSrc;
        in.f[i].value = d.fields[i].default_value;
      }
    }
    v.push_back(in);
    return *this;
  }
};

constexpr int64_t kTile = 16384;          // bytes per DMA
constexpr int64_t kCoreBytes = 1 << 20;   // bytes each streaming core copies (scale 1)

// Double-buffered GM -> UB -> GM copy of `bytes` per core (a multiple of 2 tiles) by every AIV
// (all) or by cluster 0's AIV 0 only.
isa::Program stream_program(int aiv_per_cluster, bool all, int64_t bytes) {
  Code c;
  c(Op::GETSR, {R(1), static_cast<int64_t>(isa::SpecialReg::BlockIdx)})
   (Op::GETSR, {R(2), static_cast<int64_t>(isa::SpecialReg::SubblockIdx)});
  const int skip = c.pc();
  c(Op::NOP)(Op::NOP);  // one core only: patched below into branches to `end`
  // r3 = core index, r4 = source, r5 = destination (2 * bytes per core), r6 = tile pairs left
  c(Op::MUL, {R(3), R(1), aiv_per_cluster})
   (Op::ADD, {R(3), R(3), R(2)})
   (Op::MUL, {R(4), R(3), 2 * bytes})
   (Op::ADD, {R(5), R(4), bytes})
   (Op::MOV, {R(6), bytes / kTile / 2})
   (Op::SET_FLAG, {Pipe::Mte3, Pipe::Mte2, 0})
   (Op::SET_FLAG, {Pipe::Mte3, Pipe::Mte2, 1});
  const int loop = c.pc();
  for (int b = 0; b < 2; ++b) {
    c(Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Mte2, b})
     (Op::MOV_GM_UB, {b * kTile, R(4), 1, kTile, 0, 0})
     (Op::SET_FLAG, {Pipe::Mte2, Pipe::Mte3, b})
     (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Mte3, b})
     (Op::MOV_UB_GM, {R(5), b * kTile, 1, kTile, 0, 0})
     (Op::SET_FLAG, {Pipe::Mte3, Pipe::Mte2, b})
     (Op::ADD, {R(4), R(4), kTile})
     (Op::ADD, {R(5), R(5), kTile});
  }
  c(Op::SUB, {R(6), R(6), 1})(Op::BNE, {R(6), 0, loop})
   (Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Mte2, 0})
   (Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Mte2, 1});
  const int end = c.pc();
  c(Op::END);
  if (!all) {
    c.v[skip] = Code()(Op::BNE, {R(1), 0, end}).v[0];
    c.v[skip + 1] = Code()(Op::BNE, {R(2), 0, end}).v[0];
  }
  isa::Program p;
  p.name = all ? "streamall" : "stream1";
  p.aiv.present = true;
  p.aiv.code = c.v;
  return p;
}

isa::Program mmad_program(int64_t iterations) {
  Code c;
  c(Op::MOV, {R(1), iterations});
  const int loop = c.pc();
  c(Op::MMAD, {isa::Dtype::BF16, 0, 0, 0, 128, 128, 128, 1})
   (Op::SUB, {R(1), R(1), 1})
   (Op::BNE, {R(1), 0, loop})
   (Op::END);
  isa::Program p;
  p.name = "mmad";
  p.aic.present = true;
  p.aic.code = c.v;
  return p;
}

#if defined(__x86_64__)
}  // namespace
// fma_chains (fma_chains.inc) once per vector width, each compiled for its instruction set.
NPU_SIMD_AVX2_BEGIN
namespace {
namespace avx2 {
using Ops = simd::Avx2;
#include "hw/top/fma_chains.inc"
}  // namespace avx2
}  // namespace
NPU_SIMD_END
NPU_SIMD_AVX512_BEGIN
namespace {
namespace avx512 {
using Ops = simd::Avx512;
#include "hw/top/fma_chains.inc"
}  // namespace avx512
}  // namespace
NPU_SIMD_END
namespace {
#endif

}  // namespace

bool host_fma_available() {
#if defined(__x86_64__)
  return cpu_has_avx2() && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

BenchResult host_fma_peak(int scale) {
  BenchResult b;
  b.host_only = true;
#if defined(__x86_64__)
  // The widest FMA the CPU has (the functional cube takes it too: cube_kernel.h).
  const bool wide = cpu_has_avx512f() && !no_simd_requested();
  b.name = wide ? "host fp32 FMA peak (1 thread, AVX-512)" : "host fp32 FMA peak (1 thread, AVX2+FMA)";
  const uint64_t iters = uint64_t(scale) << 26;
  volatile float sink = wide ? avx512::fma_chains(iters) : avx2::fma_chains(iters);
  (void)sink;
  b.macs = iters * 12 * (wide ? avx512::Ops::kLanes : avx2::Ops::kLanes);
#else
  b.name = "host fp32 FMA peak";
  (void)scale;
#endif
  return b;
}

std::vector<BenchWorkload> bench_workloads(const HwConfig& hw, int scale) {
  const int64_t bytes = kCoreBytes * scale;
  const int aivs = hw.chip.aiv_per_cluster;
  std::vector<BenchWorkload> w;
  w.push_back({"stream1 (1 AIV, GM->UB->GM)", stream_program(aivs, false, bytes), {}, 1, uint64_t(2 * bytes)});
  w.push_back({"streamall (" + std::to_string(hw.chip.clusters * aivs) + " AIVs)", stream_program(aivs, true, bytes),
               {}, hw.chip.clusters, uint64_t(2 * bytes) * hw.chip.clusters * aivs});
  w.push_back({"mmad (1 AIC, bf16 128^3 loop)", mmad_program(2000 * scale), {}, 1, 0});
  return w;
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// Line requests of every GM port: the ports' "requests" counters (hw/mem, group gm_ports).
uint64_t requests_in(const StatRecord& r) {
  uint64_t n = 0;
  for (const StatValue& v : r.values)
    if (v.name == "requests" && std::holds_alternative<uint64_t>(v.value)) n += std::get<uint64_t>(v.value);
  for (const StatRecord& c : r.children) n += requests_in(c);
  return n;
}

uint64_t gm_lines_of(const SimStats& stats) {
  for (const StatRecord& r : stats.memory)
    if (r.name == "gm_ports") return requests_in(r);
  return 0;
}

BenchResult measure(int repeats, const std::function<BenchResult()>& once) {
  std::vector<double> wall, cpu;
  BenchResult b;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    const double c0 = process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    b = once();
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(process_cpu_seconds() - c0);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  b.host_seconds = median(wall);
  b.cpu_seconds = median(cpu);
  b.repeats = int(wall.size());
  return b;
}

BenchResult run_bench(const HwConfig& hw, const BenchWorkload& w, bool timing_only) {
  sem::GlobalMemory gm(hw.hbm.size);
  if (w.gm_bytes) gm.fill(0, 1, w.gm_bytes);  // touch the pages up front (not part of the timing)
  RunOptions opt;
  opt.timing_only = timing_only;
  RunResult r = run_systemc(hw, w.program, gm, w.params, w.block_dim, opt);
  BenchResult b;
  b.name = w.name;
  b.timing_only = timing_only;
  b.cycles = r.total_cycles;
  b.instructions = r.stats.instructions();
  b.macs = r.stats.macs();
  b.gm_lines = gm_lines_of(r.stats);
  return b;
}

std::string bench_table(const std::vector<BenchResult>& results) {
  std::string s;
  char line[320];
  std::snprintf(line, sizeof line, "%-40s %-6s %10s %8s %8s %10s %10s %10s %10s %11s\n", "workload", "mode",
                "sim cycles", "wall s", "cpu s", "cycles/s", "instr/s", "lines/s", "MACs/s", "cpu ns/line");
  s += line;
  for (const BenchResult& b : results) {
    // CPU time per line: on a shared host the wall time includes waiting for a core.
    const double ns_line = b.gm_lines ? 1e9 * b.cpu_seconds / double(b.gm_lines) : 0;
    std::snprintf(line, sizeof line, "%-40s %-6s %10llu %8.3f %8.3f %10.3g %10.3g %10.3g %10.3g %11.0f\n",
                  b.name.c_str(), b.host_only ? "host" : b.timing_only ? "timing" : "full", static_cast<unsigned long long>(b.cycles),
                  b.host_seconds, b.cpu_seconds, b.cycles_per_second(), b.instructions_per_second(),
                  b.lines_per_second(), b.macs_per_second(), ns_line);
    s += line;
  }
  return s;
}

}  // namespace npu::hw
