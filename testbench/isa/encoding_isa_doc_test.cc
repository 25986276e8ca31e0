// docs/isa.md is generated; this fails when the committed file is stale.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "isa/isa_doc.h"

TEST(IsaDoc, CommittedDocMatchesTheGenerator) {
  std::ifstream f(std::string(NPUSIM_SOURCE_DIR) + "/docs/isa.md", std::ios::binary);
  ASSERT_TRUE(f) << "docs/isa.md is missing; generate it with `npusim isa-doc > docs/isa.md`";
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == npu::isa::generate_isa_markdown())
      << "docs/isa.md is stale (isa/instructions.def or the generator changed); "
         "regenerate it with `npusim isa-doc > docs/isa.md`";
}

TEST(IsaDoc, NamesEveryInstruction) {
  std::string doc = npu::isa::generate_isa_markdown();
  EXPECT_EQ(doc.rfind("<!-- generated from isa/instructions.def, do not edit; regenerate with `npusim isa-doc > docs/isa.md` -->", 0), 0u);
  EXPECT_NE(doc.find("\n### vadd\n\n`vadd.<dt> dst, src0, src1, count`\n"), std::string::npos);
  EXPECT_NE(doc.find("`mov_gm_ub dst, src, nburst, burst, src_stride, dst_stride[, hint]`"), std::string::npos);
  // vadd: dt [11:8], dst flag+18 [30:12], src0 [49:31], src1 [68:50], count flag+20 [89:69].
  EXPECT_NE(doc.find("| count | operand | reg or uimm20 | [89:69] |  |"), std::string::npos);
}
