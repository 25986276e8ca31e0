#include "testbench/support/trace_test_support.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "isa/error.h"
#include "testbench/support/kernel_cases.h"

namespace npu::test {

std::vector<std::string> traced_kernels() {
  std::vector<std::string> out;
  for (const char* k : {"linear", "rmsnorm", "rmsnorm_linear"})
    if (std::filesystem::exists(source_dir() + "/kernels/" + k + ".s")) out.push_back(k);
  return out;
}

hw::RunResult run_traced(const std::string& name, const hw::HwConfig& cfg, const hw::TraceOptions& trace,
                         int block_dim) {
  auto zeros = [](const char* dtype, std::vector<int64_t> shape) { return tensor_yaml(dtype, shape, "init: zeros"); };
  std::string body;
  if (name == "linear") {
    const int64_t M = 32, K = 512, N = 256;
    body = fmt::format("params: {{M: {}, K: {}, N: {}}}\ntensors:\n  x: {}\n  w: {}\n  y: {}\n", M, K, N,
                       zeros("bf16", {M, K}), zeros("bf16", {N, K}), zeros("bf16", {M, N}));
  } else if (name == "rmsnorm") {
    const int64_t rows = 8, D = 1024;
    body = fmt::format("params: {{beta: 0, rstd: 0, rows: {}, D: {}, eps: 1.0e-6, variant: 0, has_gamma: 1, "
                       "has_beta: 0, out_rstd: 0, is_f16: 0}}\ntensors:\n  x: {}\n  gamma: {}\n  y: {}\n",
                       rows, D, zeros("bf16", {rows, D}), zeros("bf16", {D}), zeros("bf16", {rows, D}));
  } else if (name == "rmsnorm_linear") {
    const int64_t M = 16, K = 512, N = 256;
    body = fmt::format("params: {{M: {}, K: {}, N: {}, eps: 1.0e-6, variant: 0}}\ntensors:\n  x: {}\n  gamma: {}\n"
                       "  w: {}\n  y: {}\n  xn: {}\n",
                       M, K, N, zeros("bf16", {M, K}), zeros("bf16", {K}), zeros("bf16", {N, K}),
                       zeros("bf16", {M, N}), zeros("bf16", {M, K}));
  } else {
    throw Error("run_traced: unknown kernel '" + name + "'");
  }
  const cli::RunResult r = run_test_case(Engine::SystemC, cfg, test_case(source_path("kernels/" + name + ".s"),
                                                                         block_dim, body), false, trace);
  hw::RunResult out;
  out.stats = r.sim;
  out.total_cycles = r.sim.total_cycles.value_or(0);
  return out;
}

VcdFile read_vcd(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open VCD '" + path + "'");
  VcdFile f;
  std::map<std::string, std::string> by_id;  // VCD identifier -> full name
  std::vector<std::string> scope;
  bool top_scope_seen = false;
  std::string tok;
  uint64_t now = 0;
  auto read_until_end = [&](std::vector<std::string>* words) {
    std::string w;
    while (in >> w && w != "$end")
      if (words) words->push_back(w);
  };
  while (in >> tok) {
    if (tok == "$scope") {
      std::vector<std::string> w;
      read_until_end(&w);
      if (w.size() < 2) throw Error("VCD: bad $scope");
      // SystemC puts every signal under a top scope "SystemC": names are given without it.
      if (!(scope.empty() && w[1] == "SystemC" && !top_scope_seen)) scope.push_back(w[1]);
      top_scope_seen = true;
    } else if (tok == "$upscope") {
      read_until_end(nullptr);
      if (!scope.empty()) scope.pop_back();  // (the top "SystemC" scope was not pushed)
    } else if (tok == "$var") {
      std::vector<std::string> w;
      read_until_end(&w);
      if (w.size() < 4) throw Error("VCD: bad $var");
      std::string name;
      for (const std::string& s : scope) name += s + ".";
      name += w[3];
      VcdSignal s;
      s.name = name;
      s.width = std::stoi(w[1]);
      by_id[w[2]] = name;
      f.signals[name] = s;
    } else if (tok == "$timescale") {
      std::vector<std::string> w;
      read_until_end(&w);
      for (const auto& x : w) f.timescale += (f.timescale.empty() ? "" : " ") + x;
    } else if (tok == "$comment") {
      std::vector<std::string> w;
      read_until_end(&w);
      std::string c;
      for (const auto& x : w) c += (c.empty() ? "" : " ") + x;
      f.comments.push_back(c);
    } else if (tok[0] == '$') {
      if (tok != "$dumpvars" && tok != "$end" && tok != "$dumpon" && tok != "$dumpoff" && tok != "$dumpall")
        read_until_end(nullptr);
    } else if (tok[0] == '#') {
      now = std::stoull(tok.substr(1));
      f.last_time = now;
    } else if (tok[0] == 'b' || tok[0] == 'B') {
      std::string id;
      in >> id;
      auto it = by_id.find(id);
      if (it == by_id.end()) throw Error("VCD: unknown identifier " + id);
      uint64_t v = 0;
      for (size_t i = 1; i < tok.size(); ++i) v = v * 2 + (tok[i] == '1' ? 1 : 0);
      f.signals[it->second].changes.emplace_back(now, v);
    } else if (tok[0] == '0' || tok[0] == '1' || tok[0] == 'x' || tok[0] == 'z') {
      auto it = by_id.find(tok.substr(1));
      if (it == by_id.end()) throw Error("VCD: unknown identifier " + tok.substr(1));
      f.signals[it->second].changes.emplace_back(now, tok[0] == '1' ? 1 : 0);
    } else {
      throw Error("VCD: unexpected token '" + tok + "'");
    }
  }
  return f;
}

uint64_t vcd_nonzero_time(const VcdSignal& s, uint64_t end) {
  uint64_t total = 0, since = 0, value = 0;
  for (const auto& [t, v] : s.changes) {
    if (value != 0) total += t - since;
    since = t;
    value = v;
  }
  if (value != 0 && end > since) total += end - since;
  return total;
}

std::string temp_path(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/npusim_trace_test." + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace npu::test
