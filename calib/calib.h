#pragma once
// `npusim calibrate`: how close the SystemC model, with a given config, comes to the msKPP
// calibration tables (calibration/ in the repository, see its README).
//
// Method. Every measured table point becomes a tiny single-core kernel that executes the
// measured instruction once at the measured size (the assembler text is kept in Point::asm_line).
// It runs on the SystemC model (hw::run_systemc, timing-only) and the point's model cycles are
// the busy cycles of the instruction's pipe. A pipe executes its queue in order, one
// instruction at a time, so busy cycles of one instruction = its back-to-back issue interval,
// which is what the msKPP tables measure (README caveats). measure_interval() checks that
// equivalence by running N and N+1 copies.
//   * AIV kernels: both AIVs of cluster 0 start; the second branches to `end` at once
//     (getsr subblock_idx), so one core runs, as msKPP's "1_core" tables.
//   * GM paths: the GM tensor is one region; with warm_l2 (default) the config's l2.warm is set
//     and the region is preloaded, so GM reads hit in L2 as msKPP assumes (its L2 factor r = 0
//     means the tables are L2-hit values). Writes: a full-line write costs the same hit or miss.
//   * Cycles are compared as cycles: the tables were taken at 1850 MHz (910B) / 1650 MHz
//     (910_95); the config's clock does not enter a per-cycle comparison.
// Relative error = (model - measured) / measured.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/sem/nz_layout.h"
#include "isa/types.h"

namespace npu::calib {

// One measured table point and what the model gives for it.
struct Point {
  double x = 0;           // the swept size: repeat, n or k, bytes
  double measured = 0;    // cycles from the CSV
  double model = 0;       // cycles from the SystemC model
  std::string asm_line;   // the instruction that was run
  double rel_err() const { return measured > 0 ? (model - measured) / measured : 0.0; }
};

// One swept series: one instruction/dtype, one mmad shape family, one data path.
struct Series {
  std::string name;        // "vadd f32 (VADD FP32_FP32_FP32)", "GM_TO_UB"
  std::string x_name;      // "repeat", "n", "k", "bytes"
  std::string figure;      // the config figure(s) that move it
  std::string note;        // mapping caveats ("" if none)
  std::vector<Point> points;
};

struct Table {
  std::string id;          // "910b-vector", ...
  std::string title;
  std::string csv;         // file name inside the CSV directory
  std::string config;      // the config file used
  std::vector<Series> series;
  std::vector<std::string> skipped;  // CSV keys with no counterpart in the ISA, with the reason
};

struct Summary {
  size_t points = 0;
  double median_abs = 0;   // median |relative error|
  double worst = 0;        // signed relative error of the worst point
  std::string worst_where; // "series @ x"
};
Summary summarize(const std::vector<const Series*>& series);
Summary summarize(const Table& t);
Summary summarize(const Series& s);

// ---------------------------------------------------------------- one kernel
// A single-core kernel around `body` (assembly lines; r2 holds the GM tensor's address).
struct Kernel {
  isa::CoreType core = isa::CoreType::Aiv;
  isa::Pipe pipe = isa::Pipe::Vector;   // the pipe whose busy cycles are the answer
  std::string body;                     // one instruction (repeated `copies` times)
  uint64_t gm_bytes = 0;                // size of the GM tensor (0: none)
};

// Busy cycles of k.pipe for one copy of the body: runs `copies` copies and divides.
double measure_busy(const hw::HwConfig& cfg, const Kernel& k, bool warm_l2 = true, int copies = 1);
// End-to-end issue interval: total cycles with copies + 1 minus total cycles with copies.
uint64_t measure_interval(const hw::HwConfig& cfg, const Kernel& k, bool warm_l2 = true, int copies = 1);
// The full assembly text measure_* run (for error messages and docs).
std::string kernel_source(const Kernel& k, int copies);

// ---------------------------------------------------------------- whole calibration
struct Options {
  std::string config_910b;   // configs/ascend910b.yaml: the whole-chip anchors (GEMM, decode, b_trans)
  std::string config_910b1;  // configs/ascend910b1.yaml (a variant of the above): 910B1 tables
  std::string config_910b3;  // configs/ascend910b3.yaml (a variant of the above): 910B3 tables
  std::string config_950;    // configs/ascend950.yaml: ascend910_95 tables
  std::string csv_dir;       // calibration/ of the repository
  bool warm_l2 = true;
  std::vector<std::string> only;  // table ids to run (empty = all)
  std::vector<std::string> sets;  // config overrides "key.path=value", applied to every config
};

// A calibration CSV as rows keyed by its header's names (bounded read; throws npu::Error with
// file:line on a row whose field count differs from the header's).
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> read_csv(const std::string& path);
// The field `key` of a row as a number; npu::Error when missing or not a number.
double to_num(const CsvRow& r, const char* key);

// Ids of every table, in report order.
std::vector<std::string> table_ids();
std::vector<Table> run_calibration(const Options& o);
Table run_table(const std::string& id, const Options& o);

// One config figure changed for one table: the median and worst error before and after.
struct WhatIf {
  std::string table;
  std::string set;      // "vector.startup=0"
  std::string why;      // the gap it addresses
  Summary before, after;
};
// The what-ifs docs/calibration.md shows (a fixed list; each re-runs one table).
std::vector<WhatIf> run_what_ifs(const std::vector<Table>& tables, const Options& o);

// The report (docs/calibration.md): intro, overall summary, what-ifs, one section per table.
std::string markdown(const std::vector<Table>& tables, const std::vector<WhatIf>& what_ifs, const Options& o);
// A whole-chip anchor: a published figure of a job and the model's figure for the same job.
struct ChipAnchor {
  std::string job;       // "bf16 GEMM n = 1024"
  double n = 0;          // the square size
  double peak = 0;       // the config's bf16 peak (TFLOPS)
  double measured = 0;   // the published figure (TFLOPS)
  double model = 0;      // the model's (TFLOPS)
  std::string detail;    // what bounds the model's run ("MTE2 (aic) 94 %, CUBE 92 %, L2 hit 94 %, HBM 812 GB/s")
  double model_modulo = 0;  // the model's figure with plain modulo L2-slice and HBM-channel mappings
  // kernels/gemm_chip.s (vendor-style tiling): its block order, that order under modulo, row-major
  // order under modulo, its block order with ND -> NZ loads (NZ = 1)
  double chip = 0;
  std::string chip_detail;
  double chip_modulo = 0;
  double chip_rows_modulo = 0;
  double chip_nz = 0;
  // kernels/gemm_chip.s with l2.slice_bytes_per_cycle = chip_l2_rate, `chip_l2_ratio` x the
  // HBM bandwidth (CANN's best-practice figure for the L2's read bandwidth); run for n <= 4096
  // only, else 0.
  double chip_l2_low = 0;
  double chip_l2_ratio = 0, chip_l2_rate = 0;
  double rel_err() const { return err(model); }
  double err(double tflops) const { return measured > 0 ? (tflops - measured) / measured : 0.0; }
  double us(double tflops) const { return tflops > 0 ? 2 * n * n * n / tflops / 1e6 : 0.0; }  // time of one call
};

// The same source's GEMM series of another dtype (fp16, fp32) and the model's figure for it.
inline constexpr int kFractalK0F32 = int(sem::kC0Bytes / sizeof(float));  // one fractal block row of fp32
struct DtypeGemmAnchor {
  std::string dtype;        // "fp16", "fp32" (as the source names them)
  double n = 0;             // the square size
  double measured = 0;      // the published figure (TFLOPS)
  double bf16_measured = 0; // the same source's bf16 figure at this n (0: none)
  double model = 0;         // the model's (TFLOPS)
  double peak = 0;          // the config's cube peak for the dtype (TFLOPS)
  std::string detail;       // what bounds the model's run
  // fp32 only: the model with `cube.k0.f32` = kFractalK0F32 (one 32-byte fractal column of fp32
  // per cycle, the rate the config had before the series; docs/fidelity.md), else 0
  double model_fractal_rate = 0;
  double rel_err() const { return measured > 0 ? (model - measured) / measured : 0.0; }
};

// A published device time of a weight-streaming job and the model's time for it.
struct StreamAnchor {
  std::string job;             // "up/gate proj bf16, x[1, 5120] . W[5120, 13824]"
  double weight_bytes = 0;     // bytes of W the job streams
  double measured_us = 0;      // the published time
  double model_us = 0;
  double model_modulo_us = 0;  // with plain modulo L2-slice and HBM-channel mappings
  std::string how;             // how the model ran it ("one launch", "two launches of N = 6912")
  std::string detail;          // what bounds the model's run
  double hbm_peak_gbps = 0;    // the config's hbm.bandwidth_gbps
  double rel_err() const { return measured_us > 0 ? (model_us - measured_us) / measured_us : 0.0; }
};

// A published b_trans overhead (time with W [N, K] over time with W [K, N], minus 1) at one tile
// shape, and the model's for the same kernel in both layouts.
struct LayoutAnchor {
  std::string tile;            // "TK 256, TN 256, K 5120, N 5120"
  int64_t tk = 0, tn = 0, k = 0, n = 0;  // the tile and the matmul (M is the decode's 16)
  uint32_t window = 0;                    // mte.max_outstanding of the window columns
  double measured = 0;         // the published overhead (0.022 = +2.2 %)
  double kn_us = 0, nk_us = 0;                // the model's times, W [K, N] and [N, K]
  double kn_modulo_us = 0, nk_modulo_us = 0;  // the same with both mappings modulo
  double kn_window_us = 0, nk_window_us = 0;  // mte.max_outstanding = 512 lines
  std::string detail_kn, detail_nk;           // what bounds each run
  double model() const { return kn_us > 0 ? nk_us / kn_us - 1 : 0.0; }
  double model_modulo() const { return kn_modulo_us > 0 ? nk_modulo_us / kn_modulo_us - 1 : 0.0; }
  double model_window() const { return kn_window_us > 0 ? nk_window_us / kn_window_us - 1 : 0.0; }
};

// The configs docs/fidelity.md's prose quotes (every figure of a config it names comes from
// these, so the text follows the configs): the whole-chip config and the 910B1 / 910B3 variants,
// each loaded with Options::sets.
struct FidelityConfigs {
  hw::HwConfig chip, b1, b3;
};
FidelityConfigs load_fidelity_configs(const Options& o);

// docs/fidelity.md: every public anchor with the model's error, the assumptions, what is not
// modelled. `gemm`: the vendor-library GEMM series, `gemm_dtypes` its fp16 and fp32 series
// (cli/lib/chip_anchors.h runs them); `decode`,
// `btrans`: the decode weight-streaming and b_trans series (cli/lib/stream_anchors.h).
std::string fidelity_markdown(const std::vector<Table>& tables, const std::vector<ChipAnchor>& gemm,
                              const std::vector<DtypeGemmAnchor>& gemm_dtypes, const std::vector<StreamAnchor>& decode,
                              const std::vector<LayoutAnchor>& btrans, const FidelityConfigs& cfg);
// Every point as CSV: table,series,x,measured,model,rel_err,instruction.
std::string points_csv(const std::vector<Table>& tables);

}  // namespace npu::calib
