#include "hw/top/vcd_writer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "isa/error.h"

namespace npu::hw {
namespace {

// The declaration tree: a scope's signals in the order given, its sub-scopes by name.
struct Scope {
  std::vector<std::pair<std::string, size_t>> signals;  // local name, id
  std::map<std::string, std::unique_ptr<Scope>> scopes;
};

void declare(const Scope& s, const std::string& name, const std::vector<int>& bits,
             const std::vector<std::string>& ids, std::string& out) {
  out += "$scope module " + name + " $end\n";
  char line[64];
  for (const auto& [local, id] : s.signals) {
    std::snprintf(line, sizeof line, "$var wire  % 3d  ", bits[id]);
    out += line + ids[id] + "  " + local;
    out += bits[id] == 1 ? "       $end\n" : " [" + std::to_string(bits[id] - 1) + ":0]  $end\n";
  }
  for (const auto& [sub, scope] : s.scopes) declare(*scope, sub, bits, ids, out);
  out += "$upscope $end\n";
}

}  // namespace

std::string VcdWriter::identifier(size_t i) {
  std::string id(5, 'a');
  for (int k = 4; k >= 0; --k, i /= 26) id[size_t(k)] = static_cast<char>('a' + i % 26);
  return id;
}

std::string VcdWriter::timescale(double seconds) {
  static const char* const kUnits[] = {"fs", "ps", "ns", "us", "ms", "s"};
  const double fs = std::round(seconds * 1e15);
  for (int u = 0; u < 6; ++u)
    for (int m : {1, 10, 100})
      if (fs == double(m) * std::pow(1000.0, u)) return std::to_string(m) + " " + kUnits[u];
  throw Error("VCD: a time unit of " + std::to_string(seconds) + " s is not 1, 10 or 100 of fs .. s");
}

VcdWriter::VcdWriter(std::FILE* out, const std::vector<std::string>& names, std::vector<int> bits,
                     const std::string& comment, const std::string& version, const std::string& timescale)
    : bits_(std::move(bits)), value_(names.size(), 0), written_(names.size(), 0), dirty_(names.size(), 0), out_(out) {
  if (bits_.size() != names.size()) throw Error("internal: VcdWriter needs one width per signal");
  for (size_t i = 0; i < names.size(); ++i) {
    if (bits_[i] < 1 || bits_[i] > 64)
      throw Error("internal: VCD signal '" + names[i] + "' of " + std::to_string(bits_[i]) + " bits");
    ids_.push_back(identifier(i));
  }
  buf_ += "$comment\n" + comment + "\n$end\n\n";
  buf_ += "$version\n " + version + "\n$end\n\n";
  buf_ += "$timescale\n     " + timescale + "\n$end\n\n";
  Scope top;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string name = names[i];
    std::replace(name.begin(), name.end(), '[', '(');  // brackets would read as a bit range
    std::replace(name.begin(), name.end(), ']', ')');
    Scope* s = &top;
    size_t from = 0;
    for (size_t dot; (dot = name.find('.', from)) != std::string::npos; from = dot + 1) {
      std::unique_ptr<Scope>& sub = s->scopes[name.substr(from, dot - from)];
      if (!sub) sub = std::make_unique<Scope>();
      s = sub.get();
    }
    s->signals.emplace_back(name.substr(from), i);
  }
  declare(top, "SystemC", bits_, ids_, buf_);
  buf_ += "$enddefinitions  $end\n\n";
  buf_ += "$comment\nAll initial values are dumped below at time 0 sec = 0 timescale units.\n$end\n\n";
}

void VcdWriter::set(uint64_t tick, size_t id, uint64_t value) {
  if (tick != cur_tick_) {
    end_step();
    cur_tick_ = tick;
  }
  value_[id] = value;
  if (!dirty_[id]) {
    dirty_[id] = 1;
    touched_.push_back(static_cast<uint32_t>(id));
  }
}

void VcdWriter::write_value(size_t id) {
  const uint64_t v = value_[id];
  const int bits = bits_[id];
  written_[id] = v;
  char line[80];  // "b" + 64 digits + " " + identifier + "\n"
  char* p = line;
  if (bits == 1) {
    *p++ = v ? '1' : '0';
  } else {
    *p++ = 'b';
    if (bits < 64 && (v >> bits) != 0) {
      *p++ = 'x';  // out of range: every bit x, which VCD writes as one
    } else {
      for (int k = v ? 63 - __builtin_clzll(v) : 0; k >= 0; --k) *p++ = static_cast<char>('0' + ((v >> k) & 1));
    }
    *p++ = ' ';
  }
  p = std::copy(ids_[id].begin(), ids_[id].end(), p);
  *p++ = '\n';
  buf_.append(line, size_t(p - line));
}

void VcdWriter::end_step() {
  if (!dumped_) {  // the values after time 0, as SystemC dumps them
    buf_ += "$dumpvars\n";
    for (size_t i = 0; i < value_.size(); ++i) write_value(i);
    buf_ += "$end\n\n";
    dumped_ = true;
  } else {
    std::sort(touched_.begin(), touched_.end());  // signal order
    bool stamped = false;
    for (uint32_t id : touched_) {
      if (value_[id] == written_[id]) continue;  // set back within the step: no change
      if (!stamped) {
        buf_ += '#' + std::to_string(cur_tick_) + '\n';
        stamped = true;
      }
      write_value(id);
    }
    if (stamped) buf_ += '\n';
  }
  for (uint32_t id : touched_) dirty_[id] = 0;
  touched_.clear();
  if (buf_.size() >= (size_t(1) << 20)) flush();
}

void VcdWriter::finish(uint64_t end_tick) {
  end_step();
  if (end_tick > 0) buf_ += '#' + std::to_string(end_tick) + '\n';
  flush();
}

void VcdWriter::flush() {
  if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), out_) != buf_.size())
    throw Error("error writing the VCD file");
  buf_.clear();
}

}  // namespace npu::hw
