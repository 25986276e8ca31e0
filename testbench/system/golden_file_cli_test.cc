// `npusim run` with a golden from a .npy file (tensors.NAME.golden: {file, atol, rtol,
// max_error_ratio}) and the input tensors written out (--out DIR/inputs, --dump-inputs DIR), on
// the test kernel testbench/system/data/run_rmsnorm.s (docs/case-format.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "golden/compare.h"
#include "golden/npy.h"
#include "golden/random.h"
#include "golden/registry.h"
#include "testbench/support/cli_support.h"

namespace fs = std::filesystem;

namespace {

using npu::golden::Dtype;
using npu::test::slurp;
using npu::test::stats_item;

class GoldenFileCli : public npu::test::CliScratchTest {
 protected:
  // The RMSNorm reference of the test case's inputs (seeds 1 and 2), computed here.
  static npu::golden::Tensor reference_y() {
    npu::golden::Rng r1(1), r2(2);
    npu::golden::TensorMap in;
    in["x"] = npu::golden::random_uniform(Dtype::BF16, {4, 256}, -1, 1, r1);
    in["gamma"] = npu::golden::random_uniform(Dtype::BF16, {256}, -1, 1, r2);
    return npu::golden::run_golden("rmsnorm", {{"eps", "1e-6"}, {"has_gamma", "true"}}, in).at("out");
  }

  // The test case without a registered golden; y's spec gets `y_extra` (e.g. a golden file).
  std::string write_case(const std::string& y_extra, const std::string& x_extra = "") {
    return write("case.yaml",
                 "kernel: " + npu::test::system_data("run_rmsnorm.s") + "\n"
                 "block_dim: 2\n"
                 "params: {rows: 4, D: 256, eps: 1.0e-6}\n"
                 "tensors:\n"
                 "  x:     {dtype: bf16, shape: [4, 256], init: {uniform: [-1, 1], seed: 1}" + x_extra + "}\n"
                 "  gamma: {dtype: bf16, shape: [256], init: {uniform: [-1, 1], seed: 2}}\n"
                 "  y:     {dtype: bf16, shape: [4, 256], role: output" + y_extra + "}\n");
  }
  int run(const std::string& args) { return npusim("run --iss " + args); }
};

TEST_F(GoldenFileCli, NpyGoldenPassesAndAWrongOneFails) {
  const std::string ref = path("y_ref.npy");
  npu::golden::write_npy(ref, npu::golden::values_npy(reference_y()));
  const std::string c = write_case(", golden: {file: " + ref + "}");
  ASSERT_EQ(run(c + " --out " + path("out")), 0) << err_ << out_;
  EXPECT_NE(out_.find("Result: PASS (1 of 1 compared outputs pass)"), std::string::npos) << out_;
  // The report wraps at 80 columns, so the path may start on the next line.
  const std::string flat = std::regex_replace(out_, std::regex("\\s+"), " ");
  EXPECT_NE(flat.find("vs golden file " + ref), std::string::npos) << out_;
  const nlohmann::json s = nlohmann::json::parse(slurp(path("out/stats.json")));
  const nlohmann::json& y = stats_item(s["numerics"]["outputs"], "tensor", "y");
  EXPECT_EQ(y["golden_output"], "file " + ref);
  EXPECT_EQ(y["tolerance"]["atol"], 1e-4);  // bf16's default tolerance (docs/numerics.md)

  // Every reference value off by 0.5: far outside bf16's default tolerance, inside atol 1.
  npu::golden::Tensor off = reference_y();
  for (int64_t i = 0; i < off.numel(); ++i) off.set(i, off.get(i) + 0.5);
  npu::golden::Tensor off32(Dtype::F32, off.shape());
  for (int64_t i = 0; i < off.numel(); ++i) off32.set(i, off.get(i));
  npu::golden::write_npy(ref, npu::golden::values_npy(off32));
  EXPECT_EQ(run(c + " -q"), 1) << err_;
  EXPECT_EQ(run(write_case(", golden: {file: " + ref + ", atol: 1}") + " -q"), 0) << err_;
}

TEST_F(GoldenFileCli, BadGoldenFilesAreLocatedErrors) {
  const std::string ref = path("y_ref.npy");
  npu::golden::write_npy(ref, npu::golden::values_npy(npu::golden::Tensor(Dtype::F32, {4, 255})));
  // Line 7 is y's line; the error points at the file name's column.
  EXPECT_EQ(run(write_case(", golden: {file: " + ref + "}") + " -q"), 2);
  EXPECT_NE(err_.find("case.yaml:7:"), std::string::npos) << err_;
  EXPECT_NE(err_.find("error: tensors.y.golden.file: '" + ref + "' holds shape [4, 255] but the output is bf16[4, 256]"),
            std::string::npos) << err_;
  EXPECT_EQ(run(write_case(", golden: {file: nope.npy}") + " -q"), 2);
  EXPECT_NE(err_.find("error: tensors.y.golden.file: cannot read"), std::string::npos) << err_;
  EXPECT_EQ(run(write_case(", golden: {atol: 1}") + " -q"), 2);
  EXPECT_NE(err_.find("error: tensors.y.golden: missing key 'file'"), std::string::npos) << err_;
  EXPECT_EQ(run(write_case("", ", golden: {file: " + ref + "}") + " -q"), 2);
  EXPECT_NE(err_.find("error: tensors.x.golden: only an output has a golden"), std::string::npos) << err_;
  EXPECT_EQ(run(write_case(", golden: {file: " + ref + ", rtol: -1}") + " -q"), 2);
  EXPECT_NE(err_.find("error: tensors.y.golden.rtol: value out of range"), std::string::npos) << err_;
  // A raw-bits file for a bf16 output must be '<u2': '|u1' is refused with the reason.
  npu::golden::NpyArray u8{"|u1", {4, 256}, std::vector<uint8_t>(1024, 0)};
  npu::golden::write_npy(ref, u8);
  EXPECT_EQ(run(write_case(", golden: {file: " + ref + "}") + " -q"), 2);
  EXPECT_NE(err_.find("cannot be loaded as bf16"), std::string::npos) << err_;
}

// --out DIR/inputs and --dump-inputs DIR hold the inputs as the kernel saw them: the generator's
// bf16 values (regenerated here from the seeds), float32 values plus raw bits.
TEST_F(GoldenFileCli, InputsAreWrittenAsTheKernelSawThem) {
  ASSERT_EQ(run(write_case("") + " -q --out " + path("out") + " --dump-inputs " + path("in")), 3) << err_;
  npu::golden::Rng r1(1), r2(2);
  const npu::golden::Tensor x = npu::golden::random_uniform(Dtype::BF16, {4, 256}, -1, 1, r1);
  const npu::golden::Tensor gamma = npu::golden::random_uniform(Dtype::BF16, {256}, -1, 1, r2);
  for (const std::string& dir : {path("out/inputs"), path("in")}) {
    for (const auto& [name, t] : {std::pair<std::string, const npu::golden::Tensor&>{"x", x}, {"gamma", gamma}}) {
      const npu::golden::NpyArray raw = npu::golden::read_npy(dir + "/" + name + ".raw.npy");
      EXPECT_EQ(raw.descr, "<u2");
      EXPECT_EQ(raw.data, t.bytes()) << dir << " " << name;
      const npu::golden::Tensor v = npu::golden::read_npy_tensor(dir + "/" + name + ".npy");
      ASSERT_EQ(v.shape(), t.shape());
      for (int64_t i = 0; i < t.numel(); ++i) ASSERT_EQ(v.get(i), t.get(i)) << name << " " << i;
    }
    EXPECT_FALSE(fs::exists(dir + "/y.npy"));  // an output without init is no input
  }
  const nlohmann::json index = nlohmann::json::parse(slurp(path("in/inputs.json")));
  ASSERT_EQ(index.size(), 2u);
  EXPECT_EQ(index[0]["name"], "x");
  EXPECT_EQ(index[0]["dtype"], "bf16");
  EXPECT_EQ(index[0]["init"], "uniform[-1, 1) seed 1");
  // A second dump replaces the first; a directory npusim did not write is refused.
  EXPECT_EQ(run(write_case("") + " -q --dump-inputs " + path("in")), 3) << err_;
  fs::create_directory(path("mine"));
  std::ofstream(path("mine/notes.txt")) << "mine";
  EXPECT_EQ(run(write_case("") + " -q --dump-inputs " + path("mine")), 2);
  EXPECT_NE(err_.find("--dump-inputs " + path("mine") + ": exists and is not the output of a previous run (no inputs.json)"),
            std::string::npos) << err_;
}

}  // namespace
