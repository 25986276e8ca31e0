#include "testbench/support/calib_support.h"

#include <cstdlib>
#include <filesystem>

#include "testbench/support/repo_config.h"

namespace npu::test {

std::string calib_csv_dir() {
  if (const char* e = std::getenv("NPUSIM_CALIBRATION_DIR"); e && *e) return e;
  return source_path("calibration");
}

bool calib_csv_available() {
  return std::filesystem::is_regular_file(std::filesystem::path(calib_csv_dir()) / "ascend910b_vector.csv");
}

calib::Options repo_calib_options() {
  calib::Options o;
  o.config_910b = source_dir() + "/configs/ascend910b.yaml";
  o.config_910b1 = source_dir() + "/configs/ascend910b1.yaml";
  o.config_910b3 = source_dir() + "/configs/ascend910b3.yaml";
  o.config_950 = source_dir() + "/configs/ascend950.yaml";
  o.csv_dir = calib_csv_dir();
  o.warm_l2 = true;
  return o;
}

}  // namespace npu::test
