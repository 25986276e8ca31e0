// Co-simulation of randomly generated (seeded), correctly synchronised multi-pipe programs:
// the functional ISS (isa/iss) and the SystemC model (hw/top/run.h) must leave bit-identical GM
// contents, because both execute the shared semantics (isa/sem); a difference would mean the
// model applies a data effect at a moment the synchronisation does not cover.
//
// AIV programs: T tiles, double-buffered (buffer b = t % 2):
//   MTE2   wait MTE3->MTE2 (b) [t >= 2]; GM -> UB (random bursts/strides); set MTE2->VECTOR (b)
//   VECTOR wait MTE2->VECTOR (b); vcopy in -> out; 1..4 random ops on out (vadd, vmuls, vmax,
//          vcast round trip, vexp, vrsum + vrow, vabs, vprot, vadds); set VECTOR->MTE3 (b)
//   MTE3   wait VECTOR->MTE3 (b); UB -> GM; set MTE3->MTE2 (b)
// AIC programs: T tiles, serial chain MTE2 -> MTE1 -> CUBE -> FIXP, FIXP -> MTE2 back-pressure:
//   GM -> L1 (A bf16 [m,k], B bf16 [k,n] or [n,k]), L1 -> L0A / L0B (B optionally transposed),
//   mmad (init, sometimes a second accumulating mmad), fix to f32 / bf16 / f16 (optional relu).
//   With fractal formats drawn, A and / or B go GM -> L1 as ND -> NZ (mov_gm_l1_nz, random
//   spare rows in the C0 stride) and are read back by NZ tile loads.
// Mixed programs: the AIC's result is handed to the AIVs through GM with cc_set mode 2; each AIV
// reads it back and scales it.
// Every core writes its own output region; inputs are random data from a seeded generator.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "cli/lib/sim_stats_json.h"
#include "hw/top/run.h"
#include "isa/iss/iss.h"
#include "testbench/timing/core_test_support.h"

namespace npu::coretest {
namespace {

using isa::Dtype;
using isa::Pipe;
using isa::SpecialReg;

constexpr uint64_t kIn = 0x100000;    // inputs: 1 MiB per core slot
constexpr uint64_t kOut = 0x4000000;  // outputs: 1 MiB per core slot
constexpr uint64_t kSlot = 0x100000;

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// r10 = core slot = (2 + aiv_per_cluster) * block_idx + (core_type == AIV ? 1 + sub : 0)
// r11 = input base, r12 = output base of this core.
void prologue(Code& c, int per_cluster) {
  c(Op::GETSR, {R(1), static_cast<int64_t>(SpecialReg::BlockIdx)})
   (Op::GETSR, {R(2), static_cast<int64_t>(SpecialReg::SubblockIdx)})
   (Op::GETSR, {R(3), static_cast<int64_t>(SpecialReg::CoreType)})
   (Op::MUL, {R(10), R(1), per_cluster})
   (Op::ADD, {R(10), R(10), R(3)})
   (Op::ADD, {R(10), R(10), R(2)})
   (Op::MUL, {R(11), R(10), static_cast<int64_t>(kSlot)})
   (Op::ADD, {R(12), R(11), static_cast<int64_t>(kOut)})
   (Op::ADD, {R(11), R(11), static_cast<int64_t>(kIn)});
}

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  int64_t uni(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng() % uint64_t(hi - lo + 1)); }
};

// The AIV part. UB: buffer b in [b * 64 KiB, +32 KiB), out at +32 KiB, scratch at 128 KiB.
void aiv_tiles(Gen& g, Code& c, int tiles) {
  for (int t = 0; t < tiles; ++t) {
    const int b = t % 2;
    const int64_t in = b * 65536, out = in + 32768, scratch = 131072;
    const int64_t nburst = g.uni(1, 8), burst = 32 * g.uni(1, 32);        // <= 256 B x 8... 1 KiB
    const int64_t src_stride = burst + 32 * g.uni(0, 8), dst_stride = burst + 32 * g.uni(0, 2);
    const int64_t bytes = nburst * dst_stride;  // UB extent of the tile
    const int64_t n = bytes / 4;                // f32 elements processed
    if (t >= 2) c(Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Mte2, b});
    c(Op::ADD, {R(4), R(11), t * 16384})
     (Op::MOV_GM_UB, {in, R(4), nburst, burst, src_stride, dst_stride, g.uni(0, 1)})
     (Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, b})
     (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, b})
     (Op::VCOPY, {Dtype::F32, out, in, n});
    const int ops = static_cast<int>(g.uni(1, 4));
    for (int k = 0; k < ops; ++k) {
      switch (g.uni(0, 8)) {
        case 0: c(Op::VADD, {Dtype::F32, out, out, in, n}); break;
        case 1: c(Op::VMULS, {Dtype::F32, out, out, f32_bits(float(g.uni(-8, 8)) * 0.37f), n}); break;
        case 2: c(Op::VMAX, {Dtype::F32, out, out, in, n}); break;
        case 3:  // round trip through bf16 (two roundings)
          c(Op::VCAST, {Dtype::F32, Dtype::BF16, static_cast<int64_t>(isa::RoundMode::Rne), scratch, out, n})
           (Op::VCAST, {Dtype::BF16, Dtype::F32, static_cast<int64_t>(isa::RoundMode::Rne), out, scratch, n});
          break;
        case 4: c(Op::VEXP, {Dtype::F32, out, out, n}); break;
        case 5: {  // per-row sum into scratch, then scale each row by it
          const int64_t rows = nburst, cols = dst_stride / 4;
          c(Op::VRSUM, {Dtype::F32, scratch, out, rows, cols, dst_stride})
           (Op::VROW, {static_cast<int64_t>(isa::VecOp::Mul), Dtype::F32, out, out, scratch, rows, cols, dst_stride});
          break;
        }
        case 6: c(Op::VABS, {Dtype::F32, out, out, n}); break;
        case 7: {  // pair rotation in place (n is a multiple of 8, so even), as f32 or bf16 pairs
          const bool bf16 = g.uni(0, 1) == 1;
          c(Op::VPROT, {bf16 ? Dtype::BF16 : Dtype::F32, out, out, bf16 ? 2 * n : n});
          break;
        }
        default: c(Op::VADDS, {Dtype::F32, out, out, f32_bits(0.5f), n}); break;
      }
    }
    c(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, b})
     (Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, b})
     (Op::ADD, {R(5), R(12), t * 16384})
     (Op::MOV_UB_GM, {R(5), out, nburst, burst, dst_stride, src_stride, g.uni(0, 1)})
     (Op::SET_FLAG, {Pipe::Mte3, Pipe::Mte2, b});
  }
  // Consume the last release of each buffer: the ISS's race checker reports flags left set.
  for (int t = std::max(0, tiles - 2); t < tiles; ++t) c(Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Mte2, t % 2});
}

// The AIC part: returns the GM offset (from r12) of the last tile's C and its row bytes. With
// `nz`, each operand is drawn ND or NZ in L1 (without it no extra draws: the seeds' programs stay).
void aic_tiles(Gen& g, Code& c, int tiles, int64_t* last_c_bytes, bool nz = false) {
  for (int t = 0; t < tiles; ++t) {
    const int64_t m = g.uni(1, 48), k = 16 * g.uni(1, 6), n = 16 * g.uni(1, 4);
    const bool btrans = g.uni(0, 1) == 1;
    const int64_t a_l1 = 0, b_l1 = 131072;
    if (t > 0) c(Op::WAIT_FLAG, {Pipe::Fixp, Pipe::Mte2, 0});
    // A [m, k] bf16 rows 2k bytes; B [k, n] (or [n, k] when transposed) bf16.
    const int64_t brows = btrans ? n : k, bcols = btrans ? k : n;
    // GM -> L1 of one operand; returns the stride its tile load reads with (row or C0 stride).
    auto load = [&](int64_t l1, int64_t rows, int64_t row_bytes, bool as_nz) {
      if (!as_nz) {
        c(Op::MOV_GM_L1, {l1, R(4), rows, row_bytes, row_bytes, row_bytes});
        return row_bytes;
      }
      const int64_t c0 = 32 * (rows + g.uni(0, 3));
      c(Op::MOV_GM_L1_NZ, {l1, R(4), rows, row_bytes, row_bytes, c0});
      return c0;
    };
    const bool a_nz = nz && g.uni(0, 1) == 1, b_nz = nz && g.uni(0, 1) == 1;
    c(Op::ADD, {R(4), R(11), t * 65536});
    const int64_t a_stride = load(a_l1, m, 2 * k, a_nz);
    c(Op::ADD, {R(4), R(4), 32768});
    const int64_t b_stride = load(b_l1, brows, 2 * bcols, b_nz);
    c(Op::SET_FLAG, {Pipe::Mte2, Pipe::Mte1, 0})
     (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Mte1, 0})
     (Op::MOV_L1_L0A, {Dtype::BF16, 0, a_l1, m, k, a_stride, 0, a_nz ? 1 : 0})
     (Op::MOV_L1_L0B, {Dtype::BF16, 0, b_l1, brows, bcols, b_stride, btrans ? 1 : 0, b_nz ? 1 : 0})
     (Op::SET_FLAG, {Pipe::Mte1, Pipe::Cube, 0})
     (Op::WAIT_FLAG, {Pipe::Mte1, Pipe::Cube, 0})
     (Op::MMAD, {Dtype::BF16, 0, 0, 0, m, k, n, 1});
    if (g.uni(0, 1)) c(Op::MMAD, {Dtype::BF16, 0, 0, 0, m, k, n, 0});  // accumulate once more
    const int ddt = static_cast<int>(g.uni(0, 2));
    const Dtype dt = ddt == 0 ? Dtype::F32 : ddt == 1 ? Dtype::BF16 : Dtype::F16;
    const int64_t row = n * (ddt == 0 ? 4 : 2);
    c(Op::SET_FLAG, {Pipe::Cube, Pipe::Fixp, 0})
     (Op::WAIT_FLAG, {Pipe::Cube, Pipe::Fixp, 0})
     (Op::ADD, {R(5), R(12), t * 65536})
     (Op::FIX, {Dtype::F32, dt, R(5), 0, m, n, row, 0, R(0), g.uni(0, 1)});
    if (t + 1 < tiles) c(Op::SET_FLAG, {Pipe::Fixp, Pipe::Mte2, 0});
    if (last_c_bytes) *last_c_bytes = m * row;
  }
}

void fill_inputs(sem::GlobalMemory& gm, uint64_t seed, int slots) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> buf(kSlot / 4);  // the first 256 KiB of each input slot
  for (int s = 0; s < slots; ++s) {
    for (size_t i = 0; i < buf.size(); i += 2) {
      // bf16-friendly data: small floats as fp32 whose low half is also a valid bf16 pair
      float f = float(int64_t(rng() % 2001) - 1000) / 256.0f;
      uint32_t u = f32_bits(f);
      buf[i] = static_cast<uint8_t>(u >> 16);
      buf[i + 1] = static_cast<uint8_t>(u >> 24);
    }
    gm.write(kIn + s * kSlot, buf.data(), buf.size());
  }
}

// Runs on both engines; returns SystemC cycles. Compares the whole output area byte by byte.
uint64_t cosim(const isa::Program& p, int block_dim, uint64_t seed, hw::HwConfig cfg = test_config()) {
  const int slots = cfg.chip.clusters * (2 + cfg.chip.aiv_per_cluster);
  sem::GlobalMemory gm_iss(cfg.hbm.size), gm_sc(cfg.hbm.size);
  fill_inputs(gm_iss, seed, slots);
  fill_inputs(gm_sc, seed, slots);
  iss::Iss iss(cfg.machine(), p, gm_iss, {}, block_dim);
  iss.run();
  hw::RunResult r = hw::run_systemc(cfg, p, gm_sc, {}, block_dim);
  uint64_t nonzero = 0;
  for (int s = 0; s < slots; ++s) {
    const uint64_t base = kOut + s * kSlot;
    std::vector<uint8_t> a = gm_iss.read_bytes(base, kSlot), b = gm_sc.read_bytes(base, kSlot);
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) {
        ADD_FAILURE() << "seed " << seed << ": GM byte " << std::hex << base + i << " differs: iss " << int(a[i])
                      << ", systemc " << int(b[i]);
        return r.total_cycles;
      } else {
        nonzero += a[i] != 0;
      }
  }
  EXPECT_GT(nonzero, 0u) << "seed " << seed << ": the program wrote nothing, the comparison proves nothing";
  return r.total_cycles;
}

TEST(CosimRandom, AivPrograms) {
  std::set<Op> seen;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Gen g(seed);
    Code aiv;
    prologue(aiv, 3);
    aiv_tiles(g, aiv, static_cast<int>(g.uni(1, 5)));
    aiv(Op::END);
    for (const isa::Instr& in : aiv.v) seen.insert(in.op);
    const int block_dim = static_cast<int>(g.uni(1, 3));
    uint64_t cycles = cosim(make_program("rand_aiv", 0, nullptr, &aiv), block_dim, seed);
    EXPECT_GT(cycles, 0u);
  }
  // The seeds draw every vector operation of aiv_tiles' menu at least once.
  for (Op op : {Op::VADD, Op::VMULS, Op::VMAX, Op::VCAST, Op::VEXP, Op::VRSUM, Op::VROW, Op::VABS, Op::VPROT,
                Op::VADDS})
    EXPECT_EQ(seen.count(op), 1u) << isa::def(op).mnemonic << " is never drawn";
}

TEST(CosimRandom, AicPrograms) {
  for (uint64_t seed = 100; seed < 110; ++seed) {
    Gen g(seed);
    Code aic;
    prologue(aic, 3);
    aic_tiles(g, aic, static_cast<int>(g.uni(1, 4)), nullptr);
    aic(Op::END);
    const int block_dim = static_cast<int>(g.uni(1, 2));
    EXPECT_GT(cosim(make_program("rand_aic", 0, &aic, nullptr), block_dim, seed), 0u);
  }
}

// As AicPrograms with the fractal formats drawn: the seeds load every operand combination
// (A / B each ND or NZ) at least once, so a misplaced block in either engine shows in C.
TEST(CosimRandom, AicProgramsWithFractalFormats) {
  std::set<std::pair<bool, bool>> drawn;
  for (uint64_t seed = 300; seed < 310; ++seed) {
    Gen g(seed);
    Code aic;
    prologue(aic, 3);
    aic_tiles(g, aic, static_cast<int>(g.uni(1, 4)), nullptr, true);
    aic(Op::END);
    bool a_nz = false;
    for (const isa::Instr& in : aic.v) {
      if (in.op == Op::MOV_L1_L0A) a_nz = in.f[7].value == 1;
      if (in.op == Op::MOV_L1_L0B) drawn.insert({a_nz, in.f[7].value == 1});
    }
    const int block_dim = static_cast<int>(g.uni(1, 2));
    EXPECT_GT(cosim(make_program("rand_aic_nz", 0, &aic, nullptr), block_dim, seed), 0u);
  }
  EXPECT_EQ(drawn.size(), 4u) << "not every ND / NZ operand combination is drawn";
}

TEST(CosimRandom, CubeToVectorThroughGm) {
  // The AIC's first C tile (at the start of its output slot; c_bytes of the last tile are read,
  // beyond tile 0 that is zeros) is read by both AIVs of the cluster after a mode-2 cross-core
  // flag queued in FIXP behind the last fix, scaled, and written to each AIV's own output slot.
  for (uint64_t seed = 200; seed < 206; ++seed) {
    Gen g(seed);
    Code aic, aiv;
    prologue(aic, 3);
    int64_t c_bytes = 0;
    aic_tiles(g, aic, static_cast<int>(g.uni(1, 3)), &c_bytes);
    aic(Op::CC_SET, {Pipe::Fixp, 2, 5})(Op::END);
    c_bytes = (c_bytes + 31) / 32 * 32;
    prologue(aiv, 3);
    // The AIC of this cluster has slot 3 * block_idx: its output base = kOut + 3 * block_idx * kSlot.
    aiv(Op::MUL, {R(6), R(1), 3 * static_cast<int64_t>(kSlot)})
       (Op::ADD, {R(6), R(6), static_cast<int64_t>(kOut)})
       (Op::CC_WAIT, {Pipe::Mte2, 5})
       (Op::MOV_GM_UB, {0, R(6), 1, c_bytes, 0, 0})
       (Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0})
       (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 0})
       (Op::VMULS, {Dtype::F32, 0, 0, f32_bits(1.5f), c_bytes / 4})
       (Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, 0})
       (Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, 0})
       (Op::MOV_UB_GM, {R(12), 0, 1, c_bytes, 0, 0})
       (Op::END);
    EXPECT_GT(cosim(make_program("rand_cv", 0, &aic, &aiv), static_cast<int>(g.uni(1, 2)), seed), 0u);
  }
}

TEST(CosimRandom, TimingOnlyGivesSameCyclesAndLeavesGmAlone) {
  Gen g(7);
  Code aiv;
  prologue(aiv, 3);
  aiv_tiles(g, aiv, 4);
  aiv(Op::END);
  isa::Program p = make_program("t", 0, nullptr, &aiv);
  hw::HwConfig cfg = test_config();
  sem::GlobalMemory full(cfg.hbm.size), timing(cfg.hbm.size);
  fill_inputs(full, 7, 12);
  fill_inputs(timing, 7, 12);
  hw::RunOptions opt;
  opt.timing_only = true;
  hw::RunResult a = hw::run_systemc(cfg, p, full, {}, 2);
  hw::RunResult b = hw::run_systemc(cfg, p, timing, {}, 2, opt);
  EXPECT_EQ(a.total_cycles, b.total_cycles);
  nlohmann::json sa = cli::sim_stats_json(a.stats), sb = cli::sim_stats_json(b.stats);
  sa.erase("timing_only");
  sb.erase("timing_only");
  EXPECT_EQ(sa.dump(), sb.dump());
  std::vector<uint8_t> out = timing.read_bytes(kOut, 4 * kSlot);
  for (uint8_t x : out) ASSERT_EQ(x, 0);
}

TEST(CosimRandom, DeterministicStats) {
  Gen g(11);
  Code aic, aiv;
  prologue(aic, 3);
  aic_tiles(g, aic, 3, nullptr);
  aic(Op::END);
  prologue(aiv, 3);
  aiv_tiles(g, aiv, 4);
  aiv(Op::END);
  isa::Program p = make_program("t", 0, &aic, &aiv);
  hw::HwConfig cfg = test_config();
  std::string first;
  for (int i = 0; i < 2; ++i) {
    sem::GlobalMemory gm(cfg.hbm.size);
    fill_inputs(gm, 11, 16);
    hw::RunResult r = hw::run_systemc(cfg, p, gm, {}, 4);
    if (i == 0)
      first = cli::sim_stats_json(r.stats).dump();
    else
      EXPECT_EQ(first, cli::sim_stats_json(r.stats).dump());
  }
}

}  // namespace
}  // namespace npu::coretest
