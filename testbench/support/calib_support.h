#pragma once
// Paths the calibration tests use: the repository's configs and the msKPP CSV directory.
#include <string>

#include "calib/calib.h"

namespace npu::test {

// $NPUSIM_CALIBRATION_DIR, else <source dir>/calibration.
std::string calib_csv_dir();
// True when calib_csv_dir() holds the tables (the long test skips, saying so, otherwise).
bool calib_csv_available();
// configs/ascend910b.yaml, configs/ascend950.yaml and calib_csv_dir(); warm L2.
calib::Options repo_calib_options();

}  // namespace npu::test
