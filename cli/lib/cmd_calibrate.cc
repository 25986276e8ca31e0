// npusim calibrate [--config F] [--config910b3 F] [--config950 F] [--csv-dir DIR] [--table ID]... [--set K=V]...
//                  [--markdown | --fidelity-md] [--points-csv FILE] [--cold-l2]
// Runs every msKPP calibration point as a one-instruction kernel on the SystemC model and
// prints model vs measured per table (calib/calib.h). docs/calibration.md is the --markdown
// output with an intro.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "base/file_io.h"
#include "calib/calib.h"
#include "cli/lib/chip_anchors.h"
#include "cli/lib/commands.h"
#include "cli/lib/run_case.h"
#include "cli/lib/stream_anchors.h"
#include "isa/error.h"

namespace npu::cli {

namespace fs = std::filesystem;

namespace {

struct CalOpts {
  calib::Options o;
  bool markdown = false;
  bool fidelity_md = false;
  std::string points_csv;
  bool cold_l2 = false;
};

// $NPUSIM_CALIBRATION_DIR, else calibration/ of the repository that holds the config
// (configs/../calibration).
std::string default_csv_dir(const std::string& config_910b) {
  if (const char* e = std::getenv("NPUSIM_CALIBRATION_DIR"); e && *e) return e;
  fs::path repo = fs::absolute(config_910b).parent_path().parent_path();
  return (repo / "calibration").string();
}

void run(CalOpts& c) {
  c.o.config_910b = resolve_config_path(c.o.config_910b);
  const fs::path dir = fs::path(c.o.config_910b).parent_path();
  if (c.o.config_910b1.empty()) c.o.config_910b1 = (dir / "ascend910b1.yaml").string();
  if (c.o.config_910b3.empty()) c.o.config_910b3 = (dir / "ascend910b3.yaml").string();
  if (c.o.config_950.empty()) c.o.config_950 = (dir / "ascend950.yaml").string();
  if (c.o.csv_dir.empty()) c.o.csv_dir = default_csv_dir(c.o.config_910b);
  c.o.warm_l2 = !c.cold_l2;
  std::vector<calib::Table> tables = calib::run_calibration(c.o);
  if (!c.points_csv.empty()) write_file_atomic(c.points_csv, calib::points_csv(tables));
  if (c.fidelity_md) {
    // The whole-chip series run on the 910B config from the repository holding the tables.
    const std::string repo = fs::path(c.o.csv_dir).parent_path().string();
    std::cout << calib::fidelity_markdown(tables, run_gemm_anchors(repo, c.o.config_910b, c.o.sets),
                                          run_dtype_gemm_anchors(repo, c.o.config_910b, c.o.sets),
                                          run_decode_anchors(repo, c.o.config_910b, c.o.sets),
                                          run_btrans_anchors(repo, c.o.config_910b, c.o.sets),
                                          calib::load_fidelity_configs(c.o));
    return;
  }
  if (c.markdown) {
    std::cout << calib::markdown(tables, calib::run_what_ifs(tables, c.o), c.o);
    return;
  }
  for (const calib::Table& t : tables) {
    const calib::Summary s = calib::summarize(t);
    std::cout << fmt::format("{:<15} {:>4} points  median |err| {:5.1f} %  worst {:+6.1f} % ({})\n", t.id, s.points,
                             100 * s.median_abs, 100 * s.worst, s.worst_where);
  }
}

}  // namespace

void register_calibrate(CLI::App& app) {
  auto c = std::make_shared<CalOpts>();
  auto* cmd = app.add_subcommand("calibrate", "Compare the SystemC model with the msKPP calibration tables");
  cmd->add_option("--config", c->o.config_910b,
                  "config for the whole-chip anchors (default: the `npusim run` default, configs/ascend910b.yaml)");
  cmd->add_option("--config910b1", c->o.config_910b1, "config for the 910B1 tables (default: ascend910b1.yaml beside --config)");
  cmd->add_option("--config910b3", c->o.config_910b3, "config for the 910B3 tables (default: ascend910b3.yaml beside --config)");
  cmd->add_option("--config950", c->o.config_950, "config for the ascend910_95 tables (default: ascend950.yaml beside --config)");
  cmd->add_option("--csv-dir", c->o.csv_dir,
                  "directory of the calibration CSVs (default: $NPUSIM_CALIBRATION_DIR, else calibration/ "
                  "of the repository holding --config)");
  cmd->add_option("--table", c->o.only, "run only this table (repeatable)")->check(CLI::IsMember(calib::table_ids()));
  cmd->add_option("--set", c->o.sets, "override a config key in every config: key.path=value (repeatable)");
  cmd->add_flag("--markdown", c->markdown, "print the full markdown report (docs/calibration.md)");
  cmd->add_flag("--fidelity-md", c->fidelity_md, "print the fidelity summary (docs/fidelity.md)")->excludes("--markdown");
  cmd->add_option("--points-csv", c->points_csv, "also write every point (model vs measured) to this CSV file");
  cmd->add_flag("--cold-l2", c->cold_l2, "run GM paths with a cold L2 (default: warm, as msKPP's L2-hit tables)");
  cmd->callback([c] {
    try {
      run(*c);
    } catch (const npu::Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
