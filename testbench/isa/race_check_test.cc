// The race checker (isa/check/race.h) on tiny assembled programs run on the ISS: a missing
// flag is reported with both instructions and their source lines; a flag, a barrier or a
// cross-core flag orders the accesses; a hand-written double-buffered loop is clean; flags left
// set are reported; warn mode collects findings instead of ending the run.
#include <gtest/gtest.h>

#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/iss/iss.h"
#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

using check::RaceMode;

isa::Program assemble(const std::string& body) {
  std::string src = ".kernel k\n.param x, gm\n.param y, gm\n" + body;
  isa::AsmResult r = isa::assemble(src, "t.s");
  if (!r.program) throw Error(r.format_diags());
  return *r.program;
}

struct Outcome {
  std::string error;                  // "" when the run completed
  std::vector<std::string> findings;  // warn mode
  std::vector<float> y;
};

// x and y: 512 bytes each (x[i] = i), one cluster with two AIVs (and an AIC if the program has one).
Outcome run(const isa::Program& p, RaceMode mode = RaceMode::Error) {
  hw::HwConfig hw = test_hw();
  sem::GlobalMemory gm;
  gm.add_region("x", 0x1000, 512);
  gm.add_region("y", 0x2000, 512);
  std::vector<float> x(128);
  for (int i = 0; i < 128; ++i) x[i] = static_cast<float>(i);
  gm.write(0x1000, x.data(), 512);
  iss::Iss s(hw.machine(), p, gm, {0x1000, 0x2000}, 1);
  s.set_race_mode(mode);
  Outcome o;
  try {
    o.findings = s.run().race_findings;
  } catch (const Error& e) {
    o.error = e.what();
  }
  o.y.resize(128);
  gm.read(0x2000, o.y.data(), 512);
  return o;
}

// Lines 5.. of t.s (the header above takes lines 1-3, ".aiv" line 4).
const char* kLoadThenAdd = R"(.aiv
    ldp r1, x
    mov_gm_ub 0, r1, 1, 64, 0, 0
    %SYNC%
    vadds.f32 64, 0, 0, 16
    end
)";

std::string with_sync(const std::string& sync) {
  std::string s = kLoadThenAdd;
  s.replace(s.find("%SYNC%"), 6, sync);
  return s;
}

TEST(RaceCheck, MissingFlagIsReportedWithBothInstructions) {
  Outcome o = run(assemble(with_sync("nop")));
  EXPECT_NE(o.error.find("race on UB [0, 64) of cluster0.aiv0"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("cluster0.aiv0 VECTOR pc 3 (vadds.f32"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("at t.s:8 reads it"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("cluster0.aiv0 MTE2 pc 1 (mov_gm_ub"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("at t.s:6 which wrote it"), std::string::npos) << o.error;
}

TEST(RaceCheck, FlagOrdersTheAccesses) {
  Outcome o = run(assemble(with_sync("set_flag mte2, vector, 0\n    wait_flag mte2, vector, 0")));
  EXPECT_EQ(o.error, "");
}

TEST(RaceCheck, BarrierOrdersTheAccesses) {
  EXPECT_EQ(run(assemble(with_sync("barrier mte2"))).error, "");
  EXPECT_EQ(run(assemble(with_sync("barrier all"))).error, "");
  // A barrier on another pipe does not.
  EXPECT_NE(run(assemble(with_sync("barrier mte3"))).error.find("race on UB"), std::string::npos);
}

TEST(RaceCheck, FlagBetweenOtherPipesDoesNotOrder) {
  Outcome o = run(assemble(with_sync("set_flag mte2, mte3, 0\n    wait_flag mte2, mte3, 0")));
  EXPECT_NE(o.error.find("race on UB"), std::string::npos) << o.error;
}

TEST(RaceCheck, WriteAfterReadIsReported) {
  // The vector reads buffer 0 while a second load overwrites it (no VECTOR -> MTE2 guard).
  Outcome o = run(assemble(R"(.aiv
    ldp r1, x
    mov_gm_ub 0, r1, 1, 64, 0, 0
    set_flag mte2, vector, 0
    wait_flag mte2, vector, 0
    vadds.f32 64, 0, 0, 16
    mov_gm_ub 0, r1, 1, 64, 0, 0
    end
)"));
  EXPECT_NE(o.error.find("MTE2 pc 5 (mov_gm_ub"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("writes it, unordered with"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("which read it before"), std::string::npos) << o.error;
}

// Each AIV streams 4 tiles of 64 bytes through two UB buffers (ping-pong): load into buffer
// B, add, store, with the four guards per buffer and preset / drained flags. y must equal x.
const char* kPingPong = R"(.aiv
.macro tile B
    wait_flag vector, mte2, \B          # the vector has finished reading buffer B
    mov_gm_ub \B * 64, r1, 1, 64, 0, 0
    set_flag  mte2, vector, \B
    wait_flag mte2, vector, \B
    wait_flag mte3, vector, \B          # the store of the previous result in B is done
    vadds.f32 128 + \B * 64, \B * 64, 0, 16
    set_flag  vector, mte2, \B
    set_flag  vector, mte3, \B
    wait_flag vector, mte3, \B
    mov_ub_gm r2, 128 + \B * 64, 1, 64, 0, 0
    set_flag  mte3, vector, \B
    add r1, r1, 64
    add r2, r2, 64
.endm
    ldp r1, x
    ldp r2, y
    getsr r3, subblock_idx
    mul r3, r3, 256
    add r1, r1, r3
    add r2, r2, r3
    set_flag vector, mte2, 0
    set_flag vector, mte2, 1
    set_flag mte3, vector, 0
    set_flag mte3, vector, 1
    mov r6, 0
loop:
    tile 0
    tile 1
    add r6, r6, 1
    blt r6, 2, loop
    wait_flag vector, mte2, 0
    wait_flag vector, mte2, 1
    wait_flag mte3, vector, 0
    wait_flag mte3, vector, 1
    end
)";

TEST(RaceCheck, DoubleBufferedLoopIsClean) {
  Outcome o = run(assemble(kPingPong));
  ASSERT_EQ(o.error, "");
  for (int i = 0; i < 128; ++i) EXPECT_EQ(o.y[i], static_cast<float>(i)) << i;
}

TEST(RaceCheck, DoubleBufferedLoopWithoutTheReuseGuardIsReported) {
  // Drop every VECTOR -> MTE2 flag: a load may overwrite a buffer the vector still reads.
  std::string src = kPingPong;
  for (const std::string line : {"    wait_flag vector, mte2, \\B          # the vector has finished reading buffer B\n",
                                 "    set_flag  vector, mte2, \\B\n", "    set_flag vector, mte2, 0\n",
                                 "    set_flag vector, mte2, 1\n", "    wait_flag vector, mte2, 0\n",
                                 "    wait_flag vector, mte2, 1\n"}) {
    size_t at = src.find(line);
    ASSERT_NE(at, std::string::npos) << line;
    src.erase(at, line.size());
  }
  Outcome o = run(assemble(src));
  EXPECT_NE(o.error.find("race on UB [0, 64) of cluster0.aiv0"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("(via t.s:"), std::string::npos) << o.error;  // macro lines name the invocation
}

// AIV 0 writes y[0, 64) and AIV 1 reads it back into its UB.
std::string cross_core(const std::string& writer_sync, const std::string& reader_sync) {
  return R"(.aiv
    ldp r2, y
    getsr r3, subblock_idx
    bne r3, 0, reader
    vdup.f32 0, 0x3f800000, 16
    set_flag vector, mte3, 0
    wait_flag vector, mte3, 0
    mov_ub_gm r2, 0, 1, 64, 0, 0
)" + writer_sync + R"(
    end
reader:
)" + reader_sync + R"(
    mov_gm_ub 0, r2, 1, 64, 0, 0
    end
)";
}

TEST(RaceCheck, CrossCoreFlagOrdersGmAccesses) {
  // Mode 1: the unit both AIVs' sets release is ordered after the writer's store (the set is
  // queued behind it in MTE3); the reader's cc_wait is in MTE2, ahead of its load.
  Outcome ok = run(assemble(cross_core("    cc_set mte3, 1, 0\n    cc_wait mte3, 0",
                                       "    cc_set mte2, 1, 0\n    cc_wait mte2, 0")));
  EXPECT_EQ(ok.error, "");
  Outcome bad = run(assemble(cross_core("", "")));
  EXPECT_NE(bad.error.find("race on GM [0x2000, 0x2040) (tensor 'y')"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("cluster0.aiv1 MTE2"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("cluster0.aiv0 MTE3"), std::string::npos) << bad.error;
  // The reader waits in the wrong pipe: MTE3's wait does not order the MTE2 load.
  Outcome wrong = run(assemble(cross_core("    cc_set mte3, 1, 0\n    cc_wait mte3, 0",
                                          "    cc_set mte3, 1, 0\n    cc_wait mte3, 0")));
  EXPECT_NE(wrong.error.find("race on GM"), std::string::npos) << wrong.error;
}

TEST(RaceCheck, CrossCoreMode2OrdersAivStoresBeforeTheAic) {
  // Both AIVs store their half of y, then cc_set mode 2; the AIC's counter gains 1 once both
  // have set, and its MTE2 load of all of y waits for it (in MTE2 or, wrongly, in MTE1).
  auto prog = [](const std::string& aic_wait_pipe) {
    return assemble(R"(.aiv
    ldp r2, y
    getsr r3, subblock_idx
    mul r4, r3, 64
    add r2, r2, r4
    vdup.f32 0, 0x3f800000, 16
    set_flag vector, mte3, 0
    wait_flag vector, mte3, 0
    mov_ub_gm r2, 0, 1, 64, 0, 0
    cc_set mte3, 2, 1
    end
.aic
    ldp r2, y
    cc_wait )" + aic_wait_pipe + R"(, 1
    mov_gm_l1 0, r2, 1, 128, 0, 0
    end
)");
  };
  EXPECT_EQ(run(prog("mte2")).error, "");
  Outcome o = run(prog("mte1"));
  EXPECT_NE(o.error.find("race on GM"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("cluster0.aic MTE2"), std::string::npos) << o.error;
}

TEST(RaceCheck, FlagLeftSetIsReported) {
  Outcome o = run(assemble(".aiv\n    set_flag mte2, vector, 3\n    end\n"));
  EXPECT_NE(o.error.find("flag MTE2 -> VECTOR id 3 of cluster0.aiv0 is left set at the end of the launch: "
                         "set 1 times, waited 0 times (last set: cluster0.aiv0 MTE2 pc 0 (set_flag"),
            std::string::npos)
      << o.error;
}

TEST(RaceCheck, WarnModeCollectsFindingsAndFinishes) {
  // Both AIVs race at the same pair of instructions: one finding; the leftover flag of each
  // AIV is one more each.
  Outcome o = run(assemble(with_sync("set_flag mte2, mte3, 0")), RaceMode::Warn);
  EXPECT_EQ(o.error, "");
  ASSERT_EQ(o.findings.size(), 3u);
  EXPECT_NE(o.findings[0].find("race on UB [0, 64) of cluster0.aiv0"), std::string::npos) << o.findings[0];
  EXPECT_NE(o.findings[1].find("flag MTE2 -> MTE3 id 0 of cluster0.aiv0 is left set"), std::string::npos);
  EXPECT_NE(o.findings[2].find("of cluster0.aiv1 is left set"), std::string::npos);
}

TEST(RaceCheck, OffModeChecksNothing) {
  Outcome o = run(assemble(with_sync("set_flag mte2, mte3, 0")), RaceMode::Off);
  EXPECT_EQ(o.error, "");
  EXPECT_TRUE(o.findings.empty());
}

TEST(RaceCheck, ModeNames) {
  EXPECT_EQ(check::parse_race_mode("warn"), RaceMode::Warn);
  EXPECT_STREQ(check::race_mode_name(RaceMode::Error), "error");
  EXPECT_THROW(check::parse_race_mode("on"), Error);
}

}  // namespace
}  // namespace npu::semtest
