#pragma once
// Where npusim finds its data (the shipped configs/, kernels/, calibration/ and docs/): the
// one lookup every subcommand and the Python module use (README "Install").
//
// The data directory is the first directory D holding configs/ascend910b.yaml, where D is, in
// this order, a directory above the binary that holds this code (the npusim executable or the
// Python module's shared object), above the running executable, or above the current directory;
// at each level both D itself (a source tree) and D/share/npusim (an install prefix, and a build
// tree, which links share/npusim/configs to the sources) are tried.
#include <string>

namespace npu::cli {

// The data directory; throws npu::Error naming what was searched when there is none.
std::string data_dir();

// The config used without --config: $NPUSIM_CONFIG, else data_dir()/configs/ascend910b.yaml.
std::string default_config_path();

// A --config (or config=) value: "" = default_config_path(); a bare name without '/' or '.yaml'
// ("ascend950") = data_dir()/configs/NAME.yaml; anything else is a path, returned as given.
std::string resolve_config_path(const std::string& arg);

}  // namespace npu::cli
