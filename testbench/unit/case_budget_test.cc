// What a case costs (cli/lib/case_budget.h): tensors checked against the GM before anything is
// allocated, and the note a large case prints.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cli/lib/case_budget.h"
#include "hw/config/loader.h"
#include "isa/error.h"
#include "testbench/support/thrown_message.h"

namespace npu::cli {
namespace {

std::string source_dir() {
  const char* s = std::getenv("NPUSIM_SOURCE_DIR");
  return s ? s : NPUSIM_SOURCE_DIR;
}
std::string linear_case() { return source_dir() + "/kernels/cases/linear_bf16.yaml"; }

std::string fit_error(const CaseSpec& spec, const hw::HwConfig& hw) {
  return npu::test::thrown_message([&] { check_case_fits(spec, place_tensors(spec, hw.l2.line), hw, "hw.yaml"); }, "(fits)");
}

TEST(CaseBudget, TensorsMustFitTheGmWhereTheyArePlaced) {
  hw::HwConfig hw = hw::load_config(source_dir() + "/configs/ascend910b.yaml");  // hbm.size 64 GiB
  // Each 40 GiB tensor fits alone; the second is placed after the first and ends beyond 64 GiB.
  const std::string text =
      "kernel: run_rmsnorm.s\nblock_dim: 1\n"
      "tensors:\n"
      "  a: {dtype: u8, shape: [40, 1024, 1024, 1024], role: workspace}\n"
      "  b: {dtype: u8, shape: [40, 1024, 1024, 1024], role: output}\n";
  CaseSpec spec = parse_case_string(text, "c.yaml", source_dir() + "/testbench/system/data");
  EXPECT_EQ(fit_error(spec, hw),
            "c.yaml:5:3: error: tensors.b: u8[40, 1024, 1024, 1024] = 42949672960 bytes (40.0 GiB) at GM offset "
            "42950725632 ends beyond the GM (hbm.size = 64GiB of hw.yaml; the tensors before it and the guard "
            "gaps take the rest)");
  // The seed's shape fits, and costs no note.
  CaseSpec linear = parse_case_file(linear_case());
  EXPECT_EQ(fit_error(linear, hw), "(fits)");
  EXPECT_EQ(expensive_case_note(linear), "");
}

TEST(CaseBudget, OnChipBuffersMustFitTheHost) {
  // 1024 clusters with every buffer at its 64 MiB maximum: 1024 * (6 + 2 UBs) * 64 MiB = 512 GiB
  // of buffers on the host, more than any test host has.
  std::vector<std::string> sets = {"chip.clusters=1024"};
  for (const char* b : {"l1", "l0a", "l0b", "l0c", "bias_table", "fixpipe", "ub"})
    sets.push_back(std::string("buffers.") + b + ".size=64MiB");
  hw::HwConfig hw = hw::load_config(source_dir() + "/configs/ascend910b.yaml", sets);
  CaseSpec spec = parse_case_string("kernel: run_rmsnorm.s\nblock_dim: 1024\ntensors: {y: {dtype: u8, shape: [1], role: output}}\n",
                                    "c.yaml", source_dir() + "/testbench/system/data");
  const std::string e = fit_error(spec, hw);
  EXPECT_EQ(e.rfind("c.yaml:2:12: error: block_dim: the on-chip buffers of 1024 clusters take 549755813888 bytes (512.0 GiB) of "
                    "host memory (buffers.* of hw.yaml), more than this host's ", 0), 0u) << e;
}

TEST(CaseBudget, LargeGoldenGetsANote) {
  // M = 65536: 2 * 65536 * 1536 * 4096 = 8.246e11 FLOP for the golden (the case's flops), and
  // x 512 MiB + w 12 MiB + y 192 MiB of tensors.
  CaseSpec spec = parse_case_file(linear_case(), {"M=65536"});
  EXPECT_EQ(expensive_case_note(spec),
            linear_case() + ": note: a large case: the tensors hold 750780416 bytes (716.0 MiB), the golden "
                            "'linear' computes 8.25e+11 FLOP (the case's flops); the golden and the simulation "
                            "may take minutes");
}

}  // namespace
}  // namespace npu::cli
