// The whole calibration (calib/calib.h): every msKPP table point as a one-instruction kernel
// on the SystemC model with the committed configs. Asserts, per table, the number of points run
// (a mapping that silently drops series fails) and that the median |relative error| stays
// under a bound. The bounds are the values measured when the calibration was recorded
// (docs/calibration.md) plus a small margin, so they catch a regression of a figure without
// demanding an exact match where the model's form cannot follow the hardware (see the notes at
// each bound). Also checks that docs/calibration.md is the current `npusim calibrate --markdown`.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "calib/calib.h"
#include "cli/lib/chip_anchors.h"
#include "cli/lib/stream_anchors.h"
#include "testbench/support/calib_support.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

using calib::Table;

struct Bound {
  size_t points;       // points run (CSV rows that map to an instruction)
  double max_median;   // median |relative error| must stay below this
};

// Measured medians when the calibration was recorded (docs/calibration.md) and the bound set
// from each: the measured value rounded up by about one point of relative error, so any change
// that moves a table's typical point the wrong way by a cycle or more fails, and an improvement
// passes (DocIsCurrent then asks for the report to be regenerated).
//   910b-vector     0.0033  bound 0.01  (slopes and the common floor of 3 exact, vector.min_cycles)
//   910b-cube       0.0022  bound 0.01  (exact but for the n = 16 point)
//   910b3-cube      0.0000  bound 0.01  (configs/ascend910b3.yaml: the table's +23 constant)
//   91095-cube      0.0039  bound 0.01  (analytic table, matched)
//   910b-datamove   0.044   bound 0.05  (configs/ascend910b1.yaml: its GM->UB link, 45.6 B/cycle;
//                                        posted writes; GM_TO_L1_TRANS 11.6 %, L0C_TO_GM_TRANS
//                                        2.9 %; 5.1 % with the base config's 110 B/cycle)
//   910b3-datamove  0.031   bound 0.04  (configs/ascend910b3.yaml: its GM->UB link)
//   91095-datamove  0.010   bound 0.02  (L1_TO_L0B rows not run: a copy of L1_TO_L0A)
const std::map<std::string, Bound>& bounds() {
  static const std::map<std::string, Bound> b = {
      {"910b-vector", {1315, 0.01}},  {"910b-cube", {64, 0.01}},       {"910b3-cube", {128, 0.01}},
      {"91095-cube", {63, 0.01}},     {"910b-datamove", {537, 0.05}}, {"910b3-datamove", {86, 0.04}},
      {"91095-datamove", {88, 0.02}}};
  return b;
}

class CalibTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!calib_csv_available()) return;
    tables_ = new std::vector<Table>(calib::run_calibration(repo_calib_options()));
  }
  static void TearDownTestSuite() {
    delete tables_;
    tables_ = nullptr;
  }
  void SetUp() override {
    if (!tables_) GTEST_SKIP() << "calibration CSVs not found in " << calib_csv_dir() << " (set NPUSIM_CALIBRATION_DIR)";
  }
  static std::vector<Table>* tables_;
};
std::vector<Table>* CalibTables::tables_ = nullptr;

TEST_F(CalibTables, MedianErrorPerTableWithinBound) {
  ASSERT_EQ(tables_->size(), bounds().size());
  for (const Table& t : *tables_) {
    SCOPED_TRACE(t.id);
    const Bound& b = bounds().at(t.id);
    const calib::Summary s = calib::summarize(t);
    EXPECT_EQ(s.points, b.points);
    EXPECT_LT(s.median_abs, b.max_median) << "worst: " << s.worst << " at " << s.worst_where;
  }
}

TEST_F(CalibTables, DocIsCurrent) {
  const std::string want = calib::markdown(*tables_, calib::run_what_ifs(*tables_, repo_calib_options()), repo_calib_options());
  std::ifstream f(source_dir() + "/docs/calibration.md");
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == want) << "docs/calibration.md is stale: regenerate it with "
                                   "`npusim calibrate --markdown > docs/calibration.md`";
}

// The decode weight-streaming and b_trans anchors (cli/lib/stream_anchors.h), run once.
const std::vector<calib::StreamAnchor>& decode_anchors() {
  static const auto a = cli::run_decode_anchors(source_dir(), repo_calib_options().config_910b);
  return a;
}
const std::vector<calib::ChipAnchor>& gemm_anchors() {
  static const auto a = cli::run_gemm_anchors(source_dir(), repo_calib_options().config_910b);
  return a;
}
const std::vector<calib::DtypeGemmAnchor>& dtype_gemm_anchors() {
  static const auto a = cli::run_dtype_gemm_anchors(source_dir(), repo_calib_options().config_910b);
  return a;
}
const std::vector<calib::LayoutAnchor>& btrans_anchors() {
  static const auto a = cli::run_btrans_anchors(source_dir(), repo_calib_options().config_910b);
  return a;
}

TEST_F(CalibTables, FidelityDocIsCurrent) {
  std::ifstream f(source_dir() + "/docs/fidelity.md");
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == calib::fidelity_markdown(*tables_, gemm_anchors(), dtype_gemm_anchors(), decode_anchors(), btrans_anchors(),
                                                   calib::load_fidelity_configs(repo_calib_options())))
      << "docs/fidelity.md is stale: regenerate it with `npusim calibrate --fidelity-md > docs/fidelity.md`";
}

// Decode weight streaming (docs/fidelity.md): the bf16 projections are plain HBM streams, and
// the model must stay within a quarter of the published device time (recorded: up/gate -10.9 %,
// down -21.3 %, optimistic: the HBM's sustained rate, see the doc). The W8A8 row is far off
// (recorded -33.0 %: the vendor int8 kernel is not byte-bound, the model's is); it is kept and
// guarded against drift: within 5 points of the recorded error, and the model's W8A8 time about
// half its bf16 time (half the bytes: 0.5 .. 0.65 of it) where the chip's is 0.85.
TEST_F(CalibTables, DecodeStreamingAnchorErrorsWithinBound) {
  const std::vector<calib::StreamAnchor>& d = decode_anchors();
  ASSERT_EQ(d.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(d[i].job);
    EXPECT_LT(std::abs(d[i].rel_err()), 0.25);
    EXPECT_LT(d[i].rel_err(), 0.0);  // optimistic, as the doc explains
  }
  EXPECT_NEAR(d[2].rel_err(), -0.330, 0.05) << d[2].job;
  const double ratio = d[2].model_us / d[0].model_us;
  EXPECT_GT(ratio, 0.5);
  EXPECT_LT(ratio, 0.65);
}

// b_trans overhead (docs/fidelity.md), model - published overhead as recorded (within 10 points):
// -2.4, +24.1, -4.1 points with the shipped hashed mappings (the tiles converted ND -> NZ on the
// way into L1 and the MTE request window at the shallow tiles, see the doc; -2.2, +37.6, -15.3
// before lib/gemm_kn.inc charged the conversion). The TK = 256 tile, whose bursts are whole lines in both layouts,
// must cost what the chip reports within 3 points (+2.2 %) under either mapping; a 512-request
// window removes the model's cost; and the model's overhead must still grow as TK gets shallower
// (TK 64 above TK 256), as the published one does.
TEST_F(CalibTables, BTransAnchorOverheads) {
  const std::vector<calib::LayoutAnchor>& b = btrans_anchors();
  ASSERT_EQ(b.size(), 3u);
  const double recorded[] = {-0.024, 0.241, -0.041};
  for (size_t i = 0; i < b.size(); ++i) {
    SCOPED_TRACE(b[i].tile);
    EXPECT_NEAR(b[i].model() - b[i].measured, recorded[i], 0.10);
    EXPECT_LT(b[i].model_window(), 0.05);
  }
  EXPECT_NEAR(b[0].model(), b[0].measured, 0.03);
  EXPECT_NEAR(b[0].model_modulo(), b[0].measured, 0.03);
  EXPECT_GT(b[1].model(), b[0].model());
  EXPECT_GT(b[2].model(), b[0].model());
}

// The vendor GEMM series on kernels/linear.s (W kept NZ in GM, x converted ND -> NZ on load),
// errors as recorded (within 5 points) for n >= 2048: shipped hashed mappings +12.7, +2.1, +9.9,
// +8.5 %; plain modulo +7.0, -11.3, -18.7, +3.1 %.
TEST_F(CalibTables, VendorGemmOnTheLinearKernel) {
  const std::vector<calib::ChipAnchor>& g = gemm_anchors();
  ASSERT_EQ(g.size(), 5u);
  const double hashed[] = {0.127, 0.021, 0.099, 0.085}, modulo[] = {0.070, -0.113, -0.187, 0.031};
  for (size_t i = 1; i < g.size(); ++i) {
    SCOPED_TRACE(g[i].job);
    EXPECT_NEAR(g[i].rel_err(), hashed[i - 1], 0.05);
    EXPECT_NEAR(g[i].err(g[i].model_modulo), modulo[i - 1], 0.05);
  }
}

// The same source's fp16 and fp32 series on kernels/linear_f16.s / linear_f32.s, errors as
// recorded (within 5 points) for n >= 2048. fp16 runs take the bf16 runs' cycles (+11.5, +2.4,
// +8.4, +18.9 %: the published fp16 figures are up to 8.7 % below the bf16 ones); fp32 at
// cube.k0.f32 = 4 (+7.7, +2.6, +9.0, +10.1 %) and at the fractal rate k0 = 8 (+87.1, +89.8,
// +93.8, +98.5 %: twice the published throughput, the reason the config takes 4).
TEST_F(CalibTables, VendorGemmFp16AndFp32) {
  const std::vector<calib::DtypeGemmAnchor>& g = dtype_gemm_anchors();
  ASSERT_EQ(g.size(), 10u);
  const double fp16[] = {0.115, 0.024, 0.084, 0.189}, fp32[] = {0.077, 0.026, 0.090, 0.101},
               fp32_k8[] = {0.871, 0.898, 0.938, 0.985};
  for (size_t i = 1; i < 5; ++i) {
    SCOPED_TRACE(g[i].dtype + " n " + std::to_string(g[i].n));
    EXPECT_EQ(g[i].dtype, "fp16");
    EXPECT_NEAR(g[i].rel_err(), fp16[i - 1], 0.05);
    EXPECT_EQ(g[i].model_fractal_rate, 0.0);
  }
  for (size_t i = 6; i < 10; ++i) {
    SCOPED_TRACE(g[i].dtype + " n " + std::to_string(g[i].n));
    EXPECT_EQ(g[i].dtype, "fp32");
    EXPECT_NEAR(g[i].rel_err(), fp32[i - 6], 0.05);
    EXPECT_NEAR(g[i].model_fractal_rate / g[i].measured - 1, fp32_k8[i - 6], 0.05);
  }
}

// The same series on kernels/gemm_chip.s (the vendor's tiling), errors as recorded (within 5
// points): with the shipped hashed mappings the model is optimistic at every n >= 2048 (+14.7,
// +5.3, +14.1, +15.1 %); under plain modulo mappings the vendor block order collapses where the
// row pitch aliases the slices (n = 4096 -54.5 %, 8192 -73.9 %), and row-major order recovers
// n = 4096 (-1.6 %) but not 8192 (-26.8 %): the reason the configs hash. With the vendor's ND -> NZ
// loads at the back-to-back table's cost (NZ = 1) the model is pessimistic at every n >= 2048
// (-8.6, -17.1, -10.6, -10.1 %): the published series lies between.
TEST_F(CalibTables, VendorGemmOnTheVendorTiling) {
  const std::vector<calib::ChipAnchor>& g = gemm_anchors();
  ASSERT_EQ(g.size(), 5u);
  const double hashed[] = {0.147, 0.053, 0.141, 0.151};
  for (size_t i = 1; i < g.size(); ++i) {
    SCOPED_TRACE(g[i].job);
    EXPECT_GT(g[i].err(g[i].chip), 0.0);
    EXPECT_NEAR(g[i].err(g[i].chip), hashed[i - 1], 0.05);
  }
  EXPECT_NEAR(g[2].err(g[2].chip_modulo), -0.545, 0.05);
  EXPECT_NEAR(g[3].err(g[3].chip_modulo), -0.739, 0.05);
  EXPECT_NEAR(g[2].err(g[2].chip_rows_modulo), -0.016, 0.05);
  EXPECT_NEAR(g[3].err(g[3].chip_rows_modulo), -0.268, 0.05);
  const double nz[] = {-0.086, -0.171, -0.106, -0.101};
  for (size_t i = 1; i < g.size(); ++i) {
    SCOPED_TRACE(g[i].job);
    EXPECT_LT(g[i].chip_nz, g[i].measured);
    EXPECT_NEAR(g[i].err(g[i].chip_nz), nz[i - 1], 0.05);
  }
}

}  // namespace
}  // namespace npu::test
