// Fuzz target: the config loader (hw/config/loader.h) on arbitrary YAML text, with the `--set`
// overrides the input carries on "#set key.path=value" lines (YAML comments). An accepted
// config must load back equal from its own dump (the loader's documented round trip).
#include "hw/config/loader.h"
#include "testbench/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  const std::string text = fuzz::text_of(data, size);
  fuzz::tolerate_input_errors([&] {
    const hw::HwConfig cfg = hw::load_config_string(text, fuzz::directive_lines(text, "#set "), "fuzz.yaml");
    const hw::HwConfig again = hw::load_config_string(hw::dump_resolved_yaml(cfg), {}, "dump.yaml");
    if (!hw::same_config(cfg, again)) fuzz::finding("the resolved dump loads as a different config");
  });
  return 0;
}
