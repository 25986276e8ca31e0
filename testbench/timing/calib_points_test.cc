// Representative calibration points on the SystemC model with the committed default configs.
// Each expected number is derived by hand from configs/ascend910b.yaml / ascend950.yaml (the
// formulas of docs/machine.md section 5, hw/core/timing.h); the msKPP measurement it was calibrated
// against is quoted beside it. These guard the calibration (docs/calibration.md) from
// regressions: a changed figure or formula fails here first. The measured value is a kernel's
// busy cycles of the instruction's pipe (calib/calib.h).
#include <gtest/gtest.h>

#include "calib/calib.h"
#include "cli/lib/chip_anchors.h"
#include "hw/config/loader.h"
#include "isa/error.h"
#include "testbench/support/calib_support.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

using calib::Kernel;
using calib::measure_busy;
using calib::measure_interval;
using isa::CoreType;
using isa::Pipe;

Kernel vec(const std::string& body) { return Kernel{CoreType::Aiv, Pipe::Vector, body, 0}; }
Kernel aic(Pipe p, const std::string& body, uint64_t gm = 0) { return Kernel{CoreType::Aic, p, body, gm}; }

// ---------------------------------------------------------------- vector (ascend910b.yaml)
// cycles = max(vector.min_cycles 3, vector.startup 0 + repeats * cycles_per_repeat); repeat = 256 B.
TEST(CalibPoints, VaddF32EightRepeats) {
  // 512 f32 = 2048 B = 8 repeats x VecBinary 2 = 16 (CAL VADD FP32 repeat 8: 16.03)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), vec("vadd.f32 0, 65536, 131072, 512"), true), 16.0);
}
TEST(CalibPoints, VexpF16FourRepeats) {
  // 512 f16 = 1024 B = 4 repeats x VecTranscend.f16 4 = 16 (CAL VEXP FP16 repeat 4: 15.64)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), vec("vexp.f16 0, 65536, 512"), true), 16.0);
}
TEST(CalibPoints, VrsumF32FourRows) {
  // VCADD FP32 repeat 4 = 4 rows of 64 f32: 4 x ceil(256/256) = 4 repeats x VecReduce.f32 3 = 12
  // (CAL VCADD FP32 repeat 4: 12.04)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), vec("vrsum.f32 0, 65536, 4, 64, 256"), true), 12.0);
}
TEST(CalibPoints, VcastF16ToF32OneRepeat) {
  // VCONV FP16_FP32 repeat 1 = 128 f16 (256 B of source). The model counts source bytes:
  // 128 x 2 = 256 B = 1 repeat x VecCast 1 = 1, below the floor: max(min_cycles 3, 1) = 3 (CAL: 2.98)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), vec("vcast.f16.f32.rne 0, 65536, 128"), true), 3.0);
}
TEST(CalibPoints, BusyEqualsBackToBackInterval) {
  // The tables are back-to-back throughput: one more vadd in the same pipe adds exactly its
  // busy cycles to the kernel (16, as VaddF32EightRepeats).
  const hw::HwConfig cfg = load_repo_config("ascend910b");
  EXPECT_EQ(measure_interval(cfg, vec("vadd.f32 0, 65536, 131072, 512"), true, 3), 16u);
}

// ---------------------------------------------------------------- cube
TEST(CalibPoints, Mmad32x16x256) {
  // cube.startup 2 + ceil(32/16) * ceil(256/16) * ceil(16/16) = 2 + 2 * 16 = 34 (CAL 34.074)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Cube, "mmad.f16 0, 0, 0, 32, 16, 256")), 34.0);
}
TEST(CalibPoints, MmadF32AtAQuarterOfThe16BitRate) {
  // No table measures fp32 mmads; cube.k0.f32 = 4 (the vendor's fp32 GEMM series, docs/fidelity.md):
  // 2 + ceil(32/16) * ceil(256/16) * ceil(16/4) = 2 + 2 * 16 * 4 = 130, four times the f16 mmad's 32.
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Cube, "mmad.f32 0, 0, 0, 32, 16, 256")), 130.0);
}
TEST(CalibPoints, Mmad950_16x256x32) {
  // ascend950.yaml: cube.startup 0 + 1 * ceil(32/16) * ceil(256/16) = 32 (CAL 32.26)
  EXPECT_EQ(measure_busy(load_repo_config("ascend950"), aic(Pipe::Cube, "mmad.f16 0, 0, 0, 16, 256, 32")), 32.0);
}

// ---------------------------------------------------------------- local data paths
TEST(CalibPoints, L1ToL0a16KiB) {
  // 32 rows x 256 f16 = 16384 B: mte.l1_l0a startup 2 + 16384 / 256 = 66 (CAL 66.06)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Mte1, "mov_l1_l0a.f16 0, 0, 32, 256, 512")), 66.0);
}
TEST(CalibPoints, L1ToL0b16KiB) {
  // mte.l1_l0b startup 2 + 16384 / 128 = 130 (CAL L1_TO_L0B 16384: 130.09)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Mte1, "mov_l1_l0b.f16 0, 0, 32, 256, 512")), 130.0);
}
TEST(CalibPoints, L1ToFb256B) {
  // mte.l1_fb startup 15 + 256 / 32 = 23 (CAL L1_TO_FB 256: 23.01)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Fixp, "mov_l1_fb 0, 0, 256")), 23.0);
}

// ---------------------------------------------------------------- GM path, warm L2
TEST(CalibPoints, GmToUb1KiBWarmL2) {
  // 1 KiB = 2 lines of 512 B, both L2 hits (warm). mte.gm_ub: startup 0, lines issued 512 / 128
  // = 4 cycles apart, to two different slices. A hit: slice port 512 / 128 = 4 cycles, then
  // l2.read_hit_latency 241, then the core read link 512 / 110 = 4.65 cycles (shared).
  // Line 0: port [0,4) -> 245, link [245, 249.65). Line 1: port [4,8) -> 249, link waits for
  // line 0: [249.65, 254.31) -> 255 (rounded up to a cycle). (CAL GM_TO_UB 1024: 241.87)
  Kernel k{CoreType::Aiv, Pipe::Mte2, "mov_gm_ub 0, r2, 1, 1024, 0, 0", 1024};
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), k, true), 255.0);
}

// GM writes are posted: the pipe is busy until the data has crossed the core's write link, at
// least mte.<path>.min_cycles; the L2 write latency is not on the pipe.
TEST(CalibPoints, UbToGm1KiBPosted) {
  // mte.ub_gm: startup 8, lines paced 512 / 64 = 8 cycles apart (issue 8, 16), AIV write link
  // 512 / 86 = 5.95 cycles each: handed off at 21.95; own 8 + 1024 / 64 = 24; floor 196:
  // max(196, 24, 22) = 196 (CAL UB_TO_GM 1024: 154.84; the floor is fitted over all 76 rows).
  Kernel k{CoreType::Aiv, Pipe::Mte3, "mov_ub_gm r2, 0, 1, 1024, 0, 0", 1024};
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), k, true), 196.0);
}
TEST(CalibPoints, L0cToGm64KiBPosted) {
  // 256 rows x 256 B f32. mte.l0c_gm: startup 2, lines paced 512 / 128 = 4 cycles apart, but the
  // AIC write link takes 512 / 118 = 4.34 per line: 128 lines back to back from cycle 2 end at
  // 2 + 65536 / 118 = 557.4 -> 558 (own 2 + 512 = 514, floor 86). (CAL L0C_TO_GM 65536: 574.51)
  EXPECT_EQ(measure_busy(load_repo_config("ascend910b"), aic(Pipe::Fixp, "fix.f32.f32 r2, 0, 256, 64, 256", 65536)), 558.0);
}

// `calibrate --fidelity-md --set K=V` applies the sets to the whole-chip GEMM runs too: a bad one
// fails at the first size, naming the --set.
TEST(CalibPoints, GemmAnchorsTakeTheSets) {
  try {
    cli::run_gemm_anchors(source_dir(), source_dir() + "/configs/ascend910b.yaml", {"chip.clusters=0"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--set chip.clusters=0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace npu::test
