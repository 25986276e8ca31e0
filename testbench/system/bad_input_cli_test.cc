// Bad inputs through the built `npusim` binary (NPUSIM_BIN): traces for trace-summary, .npy
// inputs and object files that once crashed it or were accepted silently. Each ends with exit
// status 2 and a message that says where (file and CSV line / JSON event, section and pc).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string source_dir() {
  const char* s = std::getenv("NPUSIM_SOURCE_DIR");
  return s ? s : NPUSIM_SOURCE_DIR;
}
std::string bin() {
  const char* b = std::getenv("NPUSIM_BIN");
  return b ? b : std::string(NPUSIM_BINARY_DIR) + "/bin/npusim";
}
std::string data(const std::string& f) { return source_dir() + "/testbench/system/data/" + f; }

class BadInputCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / ("npusim_bad_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& f) const { return (dir_ / f).string(); }
  std::string slurp(const std::string& f) const {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string write(const std::string& f, const std::string& bytes) const {
    std::ofstream(path(f), std::ios::binary) << bytes;
    return path(f);
  }
  // Runs `npusim ARGS`; returns the exit status, with stdout/stderr in out_/err_.
  int npusim(const std::string& args) {
    const std::string cmd = bin() + " " + args + " > " + path("stdout.txt") + " 2> " + path("stderr.txt");
    const int st = std::system(cmd.c_str());
    out_ = slurp(path("stdout.txt"));
    err_ = slurp(path("stderr.txt"));
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  // The good case of run_cli_test (data/run_rmsnorm.yaml) with another kernel and x init.
  std::string write_case(const std::string& kernel, const std::string& x_init = "{uniform: [-1, 1], seed: 1}") const {
    return write("case.yaml",
                 "kernel: " + kernel + "\n"
                 "block_dim: 2\n"
                 "vars: {R: 4, D: 256}\n"
                 "params: {rows: R, D: D, eps: 1.0e-6}\n"
                 "tensors:\n"
                 "  x:     {dtype: bf16, shape: [R, D], init: " + x_init + "}\n"
                 "  gamma: {dtype: bf16, shape: [D], init: {uniform: [-1, 1], seed: 2}}\n"
                 "  y:     {dtype: bf16, shape: [R, D], role: output}\n"
                 "golden: {name: rmsnorm, has_gamma: true, inputs: {x: x, gamma: gamma}, outputs: {out: y}}\n");
  }
  fs::path dir_;
  std::string out_, err_;
};

const std::string kCsvHeader =
    "core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind\n";
const std::string kJsonHead = "{\"displayTimeUnit\":\"ns\",\"otherData\":{},\n\"traceEvents\":[\n";

// std::stoull used to throw std::out_of_range out of main (abort).
TEST_F(BadInputCli, TraceSummaryCsvCycleAbove2To64) {
  const std::string f = write("t.csv", kCsvHeader + "cluster0.aic,SCALAR,0,nop,,0,0,18446744073709551616,0,,exec\n");
  EXPECT_EQ(npusim("trace-summary " + f), 2);
  EXPECT_EQ(err_, "error: " + f + ":2: end_cycle: 18446744073709551616 is out of range (0..9223372036854775807)\n");
  EXPECT_EQ(out_, "");
}

// A process_name without args used to index a const JSON object by a missing key (heap
// overflow under ASan).
TEST_F(BadInputCli, TraceSummaryProcessNameWithoutArgs) {
  const std::string f = write("t.json", kJsonHead + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\"},\n]}\n");
  EXPECT_EQ(npusim("trace-summary " + f), 2);
  EXPECT_EQ(err_, "error: " + f + ":3: traceEvents[0]: args: missing\n");
}

// A negative cycle used to wrap to a huge unsigned one.
TEST_F(BadInputCli, TraceSummaryNegativeCycle) {
  const std::string f = write("t.json", kJsonHead +
                                            "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"c.aic\"}},\n"
                                            "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"args\":{\"cycle\":-1,\"end_cycle\":2}}\n]}\n");
  EXPECT_EQ(npusim("trace-summary " + f), 2);
  EXPECT_EQ(err_, "error: " + f + ":4: traceEvents[1]: args.cycle: -1 is out of range (0..9223372036854775807)\n");
}

// An event ending at 2^64 - 1 used to divide by zero (the column width wrapped to 0); it is now
// out of range, and one ending at the largest accepted cycle, 2^63 - 1, renders.
TEST_F(BadInputCli, TraceSummaryEventAtTheLargestCycles) {
  const std::string bad = write("bad.csv", kCsvHeader + "cluster0.aic,SCALAR,0,nop,,0,0,18446744073709551615,0,,exec\n");
  EXPECT_EQ(npusim("trace-summary " + bad), 2);
  EXPECT_EQ(err_, "error: " + bad + ":2: end_cycle: 18446744073709551615 is out of range (0..9223372036854775807)\n");
  const std::string ok = write("ok.csv", kCsvHeader + "cluster0.aic,SCALAR,0,nop,,0,0,9223372036854775807,0,,exec\n");
  ASSERT_EQ(npusim("trace-summary " + ok + " --width 10"), 0) << err_;
  EXPECT_NE(out_.find("aic  SCALAR |@@@@@@@@@@| 100.0 %"), std::string::npos) << out_;
}

// A .npy whose shape product overflows (2^32 x 2^32 = 2^64 elements wrapped to 0) used to be
// signed overflow and to be accepted with an empty payload.
TEST_F(BadInputCli, NpyShapeProductOverflow) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header;
  const std::string f = write("x.npy", npy);
  EXPECT_EQ(npusim("run " + write_case(data("run_rmsnorm.s"), "{file: x.npy}") + " --iss --out " + path("out")), 2);
  EXPECT_NE(err_.find(f + ": shape [4294967296, 4294967296] has more than 2^63 elements"), std::string::npos) << err_;
  EXPECT_NE(err_.find("case.yaml:6:"), std::string::npos) << err_;  // the tensor's init line
  EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
