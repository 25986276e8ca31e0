// docs/config.md must equal what the schema generates. Regenerate with
//   npusim config-doc > docs/config.md
// or run this test with NPUSIM_UPDATE_DOCS=1 (it then rewrites the file and passes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "hw/config/config_doc.h"
#include "hw/config/schema.h"

namespace npu::hw {
namespace {

std::string doc_path() {
  const char* env = std::getenv("NPUSIM_SOURCE_DIR");
  return std::string(env ? env : NPUSIM_SOURCE_DIR) + "/docs/config.md";
}

TEST(ConfigDoc, CommittedFileIsCurrent) {
  const std::string want = generate_config_markdown();
  const char* update = std::getenv("NPUSIM_UPDATE_DOCS");
  if (update && std::string(update) == "1") {
    std::ofstream(doc_path()) << want;
  }
  std::ifstream in(doc_path());
  std::stringstream have;
  have << in.rdbuf();
  EXPECT_TRUE(have.str() == want)
      << doc_path() << " is stale (or missing). Regenerate it with `npusim config-doc > "
      << "docs/config.md`, or run this test with NPUSIM_UPDATE_DOCS=1.";
}

TEST(ConfigDoc, EveryKeyDocumented) {
  const std::string doc = generate_config_markdown();
  for (const KeySpec& k : config_schema()) {
    EXPECT_NE(doc.find("| `" + k.path + "` |"), std::string::npos) << k.path;
    EXPECT_FALSE(k.description.empty()) << k.path;
  }
}

}  // namespace
}  // namespace npu::hw
