// Bad input files and options, end to end through the built `npusim` (issue 8): a directory
// where a file is expected, an endless file (/dev/zero) as every kind of input, a second YAML
// document, a tensor too large for the GM or the host, an option whose value is missing, a
// misspelt option or subcommand, a --trace-select that matches nothing, an L2 geometry the
// model cannot hold. Each must exit 2 with a message that names the file (and the case or
// config position where there is one).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

namespace fs = std::filesystem;

std::string src(const std::string& f) { return source_dir() + "/" + f; }
std::string read_text(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string config() { return src("configs/ascend910b.yaml"); }
std::string rmsnorm_kernel() { return src("testbench/system/data/run_rmsnorm.s"); }

// The good case of testbench/system/data/run_rmsnorm.yaml with `kernel` and x's `init` (and
// its rows R) replaced.
std::string rmsnorm_case(const std::string& kernel, const std::string& x_init, const std::string& rows = "4") {
  return "kernel: " + kernel + "\n"
         "block_dim: 2\n"
         "vars: {R: " + rows + ", D: 256}\n"
         "params: {rows: R, D: D, eps: 1.0e-6}\n"
         "tensors:\n"
         "  x:     {dtype: bf16, shape: [R, D], init: " + x_init + "}\n"
         "  gamma: {dtype: bf16, shape: [D], init: {uniform: [-1, 1], seed: 2}}\n"
         "  y:     {dtype: bf16, shape: [R, D], role: output}\n"
         "golden: {name: rmsnorm, has_gamma: true, inputs: {x: x, gamma: gamma}, outputs: {out: y}}\n";
}

class InputErrors : public CliScratchTest {
 protected:
  // Runs `npusim ARGS` and expects exit 2 with `message` in stderr.
  void expect_error(const std::string& args, const std::string& message) {
    EXPECT_EQ(npusim(args), 2) << args << "\n" << err_;
    EXPECT_NE(err_.find(message), std::string::npos) << args << "\nwanted: " << message << "\ngot: " << err_;
  }
  std::string rmsnorm_case_file(const std::string& name, const std::string& kernel, const std::string& x_init,
                                const std::string& rows = "4") {
    return write(name, rmsnorm_case(kernel, x_init, rows));
  }
  // Nothing may appear in the working directory.
  void expect_no_stray_files() {
    for (const auto& e : fs::directory_iterator(path("work"))) ADD_FAILURE() << "stray " << e.path();
  }
};

TEST_F(InputErrors, DirectoryWhereAFileIsExpected) {
  const std::string d = path("work");
  expect_error("disasm " + d, "'" + d + "': is a directory, not a file");
  expect_error("asm " + d + " -o " + path("k.npuo"), d + ": error: is a directory, not a file");
  expect_error("run " + d, d + ": error: cannot read the case file: is a directory, not a file");
  expect_error("config-check " + d, d + ": error: cannot read the configuration file: is a directory, not a file");
  expect_error("run " + rmsnorm_case_file("k1.yaml", rmsnorm_kernel(), "{uniform: [-1, 1], seed: 1}") + " --iss --config " + d,
               d + ": error: cannot read the configuration file: is a directory, not a file");
  expect_error("trace-summary " + d, "cannot read trace file '" + d + "': is a directory, not a file");
  // In a case file: located at the key that names the path (kernel: at 1:9; x's file: at 6:52).
  const std::string k = rmsnorm_case_file("k2.yaml", ".", "{uniform: [-1, 1], seed: 1}");
  expect_error("run " + k + " --iss --config " + config(),
               k + ":1:9: error: kernel: cannot read '" + path(".") + "': is a directory, not a file");
  const std::string i = rmsnorm_case_file("i.yaml", rmsnorm_kernel(), "{file: .}");
  expect_error("run " + i + " --iss --config " + config(),
               i + ":6:52: error: tensors.x.init.file: cannot read '" + path(".") + "': is a directory, not a file");
}

TEST_F(InputErrors, EndlessFileAsEveryKindOfInput) {
  const std::string z = "/dev/zero";
  expect_error("run " + z, z + ": error: cannot read the case file: larger than the 4 MiB limit");
  expect_error("config-check " + z, z + ": error: cannot read the configuration file: larger than the 4 MiB limit");
  expect_error("asm " + z + " -o " + path("k.npuo"), z + ": error: larger than the 16 MiB limit");
  expect_error("disasm " + z, "'/dev/zero': larger than the 40 MiB limit");
  // The kernel of a case (an object file, not .s), located at its key.
  const std::string k = rmsnorm_case_file("k.yaml", z, "{uniform: [-1, 1], seed: 1}");
  expect_error("run " + k + " --iss --config " + config(),
               k + ":1:9: error: kernel: '/dev/zero': larger than the 40 MiB limit");
  // A .npy input may be large, but no larger than its tensor (at most 8 bytes an element) plus a
  // header: x is 4 x 256 elements, so 8 KiB + 1 MiB = 1032 KiB.
  const std::string i = rmsnorm_case_file("i.yaml", rmsnorm_kernel(), "{file: /dev/zero}");
  expect_error("run " + i + " --iss --config " + config(),
               i + ":6:52: error: tensors.x.init: '/dev/zero': larger than the 1032 KiB limit for this kind of input");
  // A calibration table (the tables are read from --csv-dir).
  fs::create_directories(path("csv"));
  fs::create_symlink(z, path("csv/ascend910b_vector.csv"));
  expect_error("calibrate --table 910b-vector --config " + config() + " --csv-dir " + path("csv"),
               "cannot read calibration table " + path("csv/ascend910b_vector.csv") + ": larger than the 16 MiB limit");
  expect_no_stray_files();
}

TEST_F(InputErrors, SecondYamlDocumentIsRefused) {
  const std::string cfg = write("two.yaml", "chip: {name: x}\n---\nchip: {name: y}\n");
  expect_error("config-check " + cfg, cfg + ":2:1: error: YAML syntax: a second YAML document starts here");
  const std::string c = write("case.yaml", rmsnorm_case(rmsnorm_kernel(), "{uniform: [-1, 1], seed: 1}") + "---\n");
  expect_error("run " + c + " --iss --config " + config(), c + ":10:1: error: YAML syntax: a second YAML document starts here");
}

TEST_F(InputErrors, TextAfterAFlowDocumentIsASyntaxError) {
  // yaml-cpp 0.7 returns an empty document at the ',' forever; YAML::LoadAll collected them until
  // memory ran out (a fuzz finding). The ',' is at line 1, column 7.
  const std::string c = write("comma.yaml", "{a: 1},\n");
  expect_error("run " + c + " --iss --config " + config(), c + ":1:7: error: YAML syntax: unexpected text after the end of the document: ','");
  const std::string cfg = write("comma_cfg.yaml", "{chip: {name: x}}, {b: 2}\n");
  expect_error("config-check " + cfg, cfg + ":1:18: error: YAML syntax: unexpected text after the end of the document: ', {b: 2}'");
}

TEST_F(InputErrors, TensorTooLargeForTheGmOrTheHost) {
  const std::string linear = src("kernels/cases/linear_bf16.yaml");
  // x = bf16[16777216, 4096] = 128 GiB > hbm.size 64 GiB: refused at x's key (line 9) before
  // anything is allocated.
  expect_error("run " + linear + " --iss --config " + config() + " --var M=16777216",
               linear + ":9:3: error: tensors.x: bf16[16777216, 4096] = 137438953472 bytes (128.0 GiB) is larger than "
                        "the GM (hbm.size = 64GiB of " + config() + ")");
  // With a 1 PiB GM, x = 1 TiB fits the GM, but two host copies of it fit no test host.
  expect_error("run " + linear + " --iss --config " + config() + " --set hbm.size=1024TiB --var M=134217728",
               linear + ":9:3: error: tensors.x: bf16[134217728, 4096] = 1099511627776 bytes (1024.0 GiB) needs 2 copies in host memory");
}

TEST_F(InputErrors, LargeCaseSaysWhatItWillCost) {
  // 2 x 256 MiB of bf16 tensors: over the note's threshold; x's file then fails its shape check,
  // so the test does not pay for the run.
  const std::string c = rmsnorm_case_file("big.yaml", rmsnorm_kernel(), "{file: " + write("x.npy", "") + "}", "524288");
  EXPECT_EQ(npusim("run " + c + " --iss --config " + config()), 2) << err_;
  EXPECT_NE(err_.find(c + ": note: a large case: the tensors hold 536871424 bytes (512.0 MiB)"), std::string::npos) << err_;
}

TEST_F(InputErrors, MissingOptionValueDoesNotSwallowTheNextFlag) {
  const std::string c = src("testbench/system/data/run_rmsnorm.yaml");
  const std::string next = "missing value: the next argument is the option ";
  expect_error("run " + c + " --iss --trace --vcd x.vcd", "--trace: " + next + "'--vcd'");
  expect_error("run " + c + " --out --iss", "--out: " + next + "'--iss'");
  expect_error("run " + c + " --set -q", "--set: " + next + "'-q'");
  expect_error("asm " + rmsnorm_kernel() + " -o --arch a2", next + "'--arch'");
  expect_error("config-check " + config() + " --set --help", "--set: " + next + "'--help'");
  expect_error("calibrate --points-csv --table 910b-vector", "--points-csv: " + next + "'--table'");
  expect_error("bench --json --scale 2", "--json: " + next + "'--scale'");
  expect_no_stray_files();
  // A value that merely starts with '-' and a digit is a value (here: a bad one, rejected as such).
  expect_error("run " + c + " --iss --trace-window -5:10", "--trace-window '-5:10'");
}

TEST_F(InputErrors, MisspeltOptionOrSubcommandSuggestsTheClosest) {
  const std::string c = src("testbench/system/data/run_rmsnorm.yaml");
  expect_error("run " + c + " --tracee t.json", "error: npusim run: unknown option '--tracee' (did you mean --trace?)");
  // A swap of two neighbours is one edit; `--name=value` is judged by its name.
  expect_error("run " + c + " --vdc v.vcd", "(did you mean --vcd?)");
  expect_error("run " + c + " --trace-windw=1:2", "unknown option '--trace-windw' (did you mean --trace-window?)");
  expect_error("config-chek " + config(), "error: npusim: unknown subcommand 'config-chek' (did you mean config-check?)");
  expect_error("rnu " + c, "(did you mean run?)");
  expect_error("asm " + rmsnorm_kernel() + " --ach a2", "error: npusim asm: unknown option '--ach' (did you mean --arch?)");
  // Not a near miss (one letter of one): CLI11's message only, no guess.
  expect_error("run " + c + " -z", "The following argument was not expected: -z");
  EXPECT_EQ(err_.find("did you mean"), std::string::npos) << err_;
  expect_no_stray_files();
}

TEST_F(InputErrors, TraceSelectMatchingNoUnitListsTheUnits) {
  const std::string c = src("testbench/system/data/run_rmsnorm.yaml");
  expect_error("run " + c + " -q --config " + config() + " --trace " + path("t.json") + " --trace-select 'cluster0.*,l3.*'",
               "--trace-select 'l3.*': matches no unit of this run (units: cluster{0..1}.aiv{0..1}.SCALAR, ");
  EXPECT_NE(err_.find("l2.slice{0..31}, hbm.ch{0..31}, mte)"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(path("t.json")));
}

TEST_F(InputErrors, L2GeometryTheModelCannotHoldIsRefusedByConfigCheckAndRun) {
  // 1024 TiB of 512-byte lines in one way and one slice: 2^41 lines, above the model's 2^26.
  const std::string sets = " --set l2.size=1024TiB --set l2.ways=1 --set l2.slices=1";
  const std::string msg = "--set l2.slices=1: error: l2.slices: l2.size / l2.line = 2199023255552 lines, more than the model keeps tags for";
  expect_error("config-check " + config() + sets, msg);
  expect_error("run " + src("testbench/system/data/run_rmsnorm.yaml") + " --config " + config() + sets, msg);
  // The same in a file: at l2.size's value (its line in configs/ascend910b.yaml). 768 TiB is a
  // multiple of 24 ways * 512 B * 32 slices, so only the line count is wrong: 768 TiB / 512 B.
  std::string text = read_text(config());
  const size_t at = text.find("  size: 192MiB");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 14, "  size: 768TiB");
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  const std::string cfg = write("big_l2.yaml", text);
  expect_error("config-check " + cfg, cfg + ":" + std::to_string(line) + ":9: error: l2.size: l2.size / l2.line = 1649267441664 lines, more than the model keeps tags for");
}

}  // namespace
}  // namespace npu::test
