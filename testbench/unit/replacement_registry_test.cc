// The replacement policy registry: every policy builds, the schema, docs and error texts are
// derived from it, and a policy registered from one file (this one) is usable from the config.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "hw/config/config_doc.h"
#include "hw/config/loader.h"
#include "hw/config/schema.h"
#include "hw/mem/l2_tags.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

// A test-only policy, registered here and nowhere else: most recently used, except that lines
// of region `protect_region` are only chosen when nothing else is left (so it sees the access).
class TestMruPolicy final : public ReplacementPolicy {
 public:
  TestMruPolicy(uint32_t ways, uint32_t protect) : region_(ways, 0), protect_(protect) {}
  std::string_view name() const override { return "test_mru"; }
  void reset(uint32_t, uint32_t way, const L2Access& a) override { last_ = way, region_[way] = a.region; }
  void touch(uint32_t, uint32_t way, const L2Access&) override { last_ = way; }
  void invalidate(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t, const L2Access&) override {
    if (region_[last_] != protect_) return last_;
    for (uint32_t w = 0; w < region_.size(); ++w)
      if (region_[w] != protect_) return w;
    return last_;
  }

 private:
  uint32_t last_ = 0;
  std::vector<uint32_t> region_;  // one set is enough for the test
  uint32_t protect_;
};

[[maybe_unused]] const bool kRegistered = [] {
  replacement_policies().add(
      {"test_mru", "test only: most recently used, sparing one region",
       {{"protect_region", ParamSpec::Type::Int, 0, 1000, 0, "Region whose lines are evicted last."}},
       [](const PolicyShape& s, const ParamValues& p) {
         return std::make_unique<TestMruPolicy>(s.ways, static_cast<uint32_t>(p.at("protect_region")));
       }});
  return true;
}();

std::string tiny_path() {
  const char* env = std::getenv("NPUSIM_SOURCE_DIR");
  return std::string(env ? env : NPUSIM_SOURCE_DIR) + "/configs/tiny.yaml";
}

// The error text of loading tiny.yaml with `sets` (they must be bad).
void expect_load_error(const std::vector<std::string>& sets, const std::string& text) {
  EXPECT_THROW(
      {
        try {
          load_config(tiny_path(), sets);
        } catch (const Error& e) {
          EXPECT_EQ(e.what(), text);
          throw;
        }
      },
      Error);
}

TEST(ReplacementRegistry, EveryPolicyBuildsWithItsDefaultsUnderItsName) {
  std::set<std::string> seen;
  for (const auto& e : replacement_policies().entries()) {
    EXPECT_TRUE(seen.insert(e.name).second) << e.name;
    EXPECT_FALSE(e.description.empty()) << e.name;
    auto p = make_replacement_policy(e.name, PolicyShape{4, 8, 1});
    EXPECT_EQ(p->name(), e.name);
    EXPECT_LT(p->victim(0, L2Access{}), 8u);
  }
  for (const char* shipped : {"lru", "random", "srrip"}) EXPECT_TRUE(seen.count(shipped)) << shipped;
}

TEST(ReplacementRegistry, DuplicateNamesAreRefused) {
  ReplacementRegistry r("test part");
  auto make = [](const PolicyShape&, const ParamValues&) { return std::unique_ptr<ReplacementPolicy>(); };
  r.add({"a", "one", {}, make});
  EXPECT_THROW(r.add({"a", "again", {}, make}), std::logic_error);
  ParamSpec x{"x", ParamSpec::Type::Int, 0, 1, 0, "x"};
  EXPECT_THROW(r.add({"b", "two x", {x, x}, make}), std::logic_error);
}

TEST(ReplacementRegistry, SchemaChoicesDocsAndErrorTextComeFromTheRegistry) {
  const KeySpec* k = find_key("l2.replacement");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->choices, replacement_policies().names());
  const std::string doc = generate_config_markdown();
  for (const auto& e : replacement_policies().entries()) {
    EXPECT_NE(k->description.find("`" + e.name + "`: " + e.description), std::string::npos) << e.name;
    for (const ParamSpec& p : e.params) {
      const std::string path = "l2.replacement_params." + e.name + "." + p.name;
      const KeySpec* pk = find_key(path);
      ASSERT_NE(pk, nullptr) << path;
      EXPECT_TRUE(pk->optional());
      EXPECT_NE(doc.find("`" + path + "`"), std::string::npos) << path;
    }
  }
  expect_load_error({"l2.replacement=fifo"}, "--set l2.replacement=fifo: error: l2.replacement: 'fifo' is not one of: " +
                                                  replacement_policies().names_text());
  EXPECT_NE(replacement_policies().names_text().find("test_mru"), std::string::npos);
}

TEST(ReplacementRegistry, APolicyFromOneFileIsSelectableWithItsParameters) {
  HwConfig c = load_config(tiny_path(), {"l2.replacement=test_mru", "l2.replacement_params.test_mru.protect_region=3"});
  EXPECT_EQ(c.l2.replacement, "test_mru");
  EXPECT_EQ(c.l2.replacement_params.at("test_mru").at("protect_region"), 3);
  EXPECT_TRUE(same_config(c, load_config_string(dump_resolved_yaml(c))));  // the dump carries it
  expect_load_error({"l2.replacement_params.test_mru.protect_region=1001"},
            "--set l2.replacement_params.test_mru.protect_region=1001: error: "
            "l2.replacement_params.test_mru.protect_region: value 1001 is out of range [0, 1000]");

  // Blocks 0..3 fill a 1-set, 4-way L2; block 1 belongs to region 3. MRU evicts the last line
  // touched unless it is region 3's: touching 1 then inserting 4 spares 1 and takes way 0.
  L2Tags t(1, 4, 512, make_replacement_policy("test_mru", PolicyShape{1, 4, 1}, c.l2.replacement_params.at("test_mru")));
  for (uint64_t b = 0; b < 4; ++b) t.insert(b, L2Access{isa::CacheHint::Normal, b == 1 ? 3u : 0u, false}, false);
  t.touch(1, 1, L2Access{});
  L2Tags::Fill f = t.insert(4, L2Access{}, false);
  EXPECT_EQ(f.way, 0u);
  EXPECT_EQ(f.evicted.block, 0u);
  t.touch(2, 2, L2Access{});
  EXPECT_EQ(t.insert(5, L2Access{}, false).evicted.block, 2u);  // plain MRU when not protected
}

}  // namespace
}  // namespace npu::hw
