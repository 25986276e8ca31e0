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

// Every timing class whose numbers are per-dtype vector cycles has its schema key, whatever its
// place in isa/timing_classes.def, and every instruction's class names a documented key.
TEST(ConfigDoc, EveryVectorTimingClassHasItsKey) {
  int vector_classes = 0;
  for (const isa::TimingClassDef& tc : isa::timing_classes()) {
    if (tc.family != isa::TimingFamily::Vector) continue;
    ++vector_classes;
    const std::string path = "vector.cycles_per_repeat." + std::string(tc.name);
    bool found = false;
    for (const KeySpec& k : config_schema()) found |= k.path == path && k.type == KeyType::PerDtype;
    EXPECT_TRUE(found) << path;
  }
  EXPECT_EQ(vector_classes, 10);
  const std::string doc = generate_config_markdown();
  for (const isa::InstrDef& d : isa::table()) {
    const std::string_view key = isa::timing_class_def(d.timing).config_key;
    if (!key.empty()) {
      EXPECT_NE(doc.find(std::string(key)), std::string::npos) << d.mnemonic << ": " << key;
    }
  }
}

}  // namespace
}  // namespace npu::hw
