#pragma once
// docs/config.md, generated from the schema (hw/config/schema.cc). The committed file is checked
// by testbench/unit/config_doc_test.cc; regenerate with `npusim config-doc > docs/config.md`
// or by running that test with NPUSIM_UPDATE_DOCS=1.
#include <string>

namespace npu::hw {

std::string generate_config_markdown();

}  // namespace npu::hw
