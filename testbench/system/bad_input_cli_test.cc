// Bad inputs through the built `npusim` binary (NPUSIM_BIN): traces for trace-summary, .npy
// inputs and object files that once crashed it or were accepted silently. Each ends with exit
// status 2 and a message that says where (file and CSV line / JSON event, section and pc).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "isa/asm/assembler.h"
#include "isa/object.h"
#include "testbench/support/cli_run.h"

namespace fs = std::filesystem;

namespace {

using npu::test::slurp;
std::string data(const std::string& f) { return npu::test::system_data(f); }

class BadInputCli : public npu::test::CliScratchTest {
 protected:
  BadInputCli() : CliScratchTest("bad") {}

  std::string write(const std::string& f, const std::string& bytes) const {
    std::ofstream(path(f), std::ios::binary) << bytes;
    return path(f);
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
  // The test kernel, assembled, with its first aiv set_flag made to join a pipe with itself
  // (and its pc in *pc).
  npu::isa::Program kernel_with_bad_flag(size_t* pc) const {
    npu::isa::AsmResult r = npu::isa::assemble_file(data("run_rmsnorm.s"), npu::isa::Arch::A2);
    EXPECT_TRUE(r.program) << r.format_diags();
    npu::isa::Program p = *r.program;
    for (*pc = 0; p.aiv.code[*pc].op != npu::isa::Op::SET_FLAG; ++*pc) {
    }
    p.aiv.code[*pc].f[1].value = p.aiv.code[*pc].f[0].value;
    return p;
  }
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

// An object the assembler would refuse (a set_flag joining MTE2 with itself) is refused on
// load by disasm and by run with the assembler's message, naming the section, pc and instruction.
TEST_F(BadInputCli, InvalidObjectIsRefusedByDisasmAndRun) {
  size_t pc = 0;
  const std::string obj = path("bad.npuo");
  npu::isa::write_object_file(obj, kernel_with_bad_flag(&pc));
  const std::string what = obj + ": aiv pc " + std::to_string(pc) +
                           " (set_flag mte2, mte2, 0): 'set_flag': src and dst must be different pipes (both mte2)";
  EXPECT_EQ(npusim("disasm " + obj), 2);
  EXPECT_EQ(err_, "error: " + what + "\n");
  EXPECT_EQ(out_, "");
  EXPECT_EQ(npusim("run " + write_case(obj) + " --iss --out " + path("out")), 2);
  EXPECT_EQ(err_, path("case.yaml") + ":1:9: error: kernel: " + what + "\n");
  EXPECT_FALSE(fs::exists(path("out")));
}

// A semantic label beyond the code and a truncated object: clean errors too.
TEST_F(BadInputCli, ObjectLabelBeyondTheCodeAndTruncation) {
  npu::isa::AsmResult r = npu::isa::assemble_file(data("run_rmsnorm.s"), npu::isa::Arch::A2);
  ASSERT_TRUE(r.program) << r.format_diags();
  npu::isa::Program p = *r.program;
  ASSERT_FALSE(p.aiv.labels.empty());
  p.aiv.labels.back().pc = static_cast<uint32_t>(p.aiv.code.size() + 1);
  const std::string obj = path("label.npuo");
  npu::isa::write_object_file(obj, p);
  EXPECT_EQ(npusim("run " + write_case(obj) + " --iss"), 2);
  EXPECT_NE(err_.find(obj + ": aiv semantic label " + std::to_string(p.aiv.labels.size() - 1) + " '" +
                      p.aiv.labels.back().name + "' at pc " + std::to_string(p.aiv.code.size() + 1) +
                      ": beyond the end of the section (" + std::to_string(p.aiv.code.size()) + " instructions)"),
            std::string::npos)
      << err_;
  const std::string bytes = slurp(obj);
  const std::string cut = write("cut.npuo", bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(npusim("disasm " + cut), 2);
  EXPECT_EQ(err_.rfind("error: " + cut + ": object file truncated at byte ", 0), 0u) << err_;
}

}  // namespace
