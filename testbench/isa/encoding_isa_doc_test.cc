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
  EXPECT_NE(doc.find("| count | operand | reg or uimm20 | elements (of the instruction's dtype) | 0 .. 1048575, or a "
                     "register | [89:69] |  |"),
            std::string::npos);
  // Units, alignment and cost come from the table: vadd's dst is a UB offset (a vector class),
  // mov_l1_l0a's dst an L0A offset (its timing class), mmad's cost is the cube formula.
  EXPECT_NE(doc.find("| dst | operand | reg or uimm18 | bytes: UB offset, aligned to `buffers.ub.align` | 0 .. 262143"),
            std::string::npos);
  EXPECT_NE(doc.find("| dst | operand | reg or uimm20 | bytes: L0A offset, aligned to `buffers.l0a.align`"), std::string::npos);
  EXPECT_NE(doc.find("- cost: `cube.startup` + ceil(m / `cube.m0`) * ceil(n / `cube.n0`) * ceil(k / k0)"), std::string::npos);
  EXPECT_NE(doc.find("- cost: max(`vector.min_cycles`, ceil(`vector.startup` + repeats * "
                     "`vector.cycles_per_repeat.VecBinary.<dt>`)) cycles, repeats = ceil(count * size(dt) / "
                     "`vector.repeat_bytes`)"),
            std::string::npos);
}
