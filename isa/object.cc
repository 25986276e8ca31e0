#include "isa/object.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/file_io.h"
#include "isa/encoding.h"
#include "isa/error.h"
#include "isa/validate.h"

namespace npu::isa {
namespace {

constexpr char kMagic[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '3'};
constexpr char kMagicV2[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '2'};  // no target constants
constexpr char kMagicV1[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1'};  // and no ISA fingerprint
constexpr uint32_t kMaxTargetSymbols = 1024;

struct Writer {
  std::vector<uint8_t> b;
  void u8(uint8_t v) { b.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
};

struct Reader {
  const std::vector<uint8_t>& b;
  size_t pos = 0;
  void need(size_t n, const char* what) {
    if (b.size() - pos < n)
      throw Error(fmt::format("object file truncated at byte {} (reading {})", pos, what));
  }
  uint8_t u8(const char* what) {
    need(1, what);
    return b[pos++];
  }
  uint32_t u32(const char* what) {
    need(4, what);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(b[pos++]) << (8 * i);
    return v;
  }
  uint64_t u64(const char* what) {
    need(8, what);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(b[pos++]) << (8 * i);
    return v;
  }
  // A count of `items` (each at least `each` bytes; at most `limit`), all of which must follow.
  uint32_t count(const char* what, uint32_t limit, size_t each, const char* items) {
    const uint32_t n = u32(what);
    if (n > limit) throw Error(fmt::format("object file: {} {} (limit {})", n, items, limit));
    need(static_cast<size_t>(n) * each, items);
    return n;
  }
  std::string str(const char* what) {
    uint32_t n = u32(what);
    need(n, what);
    std::string s(b.begin() + pos, b.begin() + pos + n);
    pos += n;
    return s;
  }
};

void write_section(Writer& w, const CodeSection& s) {
  w.u32(static_cast<uint32_t>(s.code.size()));
  for (const Instr& in : s.code) {
    Word word = encode(in);
    w.u64(word[0]);
    w.u64(word[1]);
  }
  w.u32(static_cast<uint32_t>(s.labels.size()));
  for (const SemanticLabel& l : s.labels) {
    w.u32(l.pc);
    w.str(l.name);
  }
}

void read_section(Reader& r, CodeSection& s, const char* name) {
  s.present = true;
  uint32_t n = r.u32("instruction count");
  if (n > kMaxSectionSize)
    throw Error(fmt::format("object file: {} section: {} instructions (limit {})", name, n, kMaxSectionSize));
  r.need(static_cast<size_t>(n) * 16, "instructions");  // before allocating
  s.code.reserve(n);
  for (uint32_t pc = 0; pc < n; ++pc) {
    Word w;
    w[0] = r.u64("instruction");
    w[1] = r.u64("instruction");
    try {
      s.code.push_back(decode(w));
    } catch (const Error& e) {
      throw Error(fmt::format("object file: {} pc {}: {}", name, pc, e.what()));
    }
  }
  uint32_t nl = r.u32("label count");
  r.need(static_cast<size_t>(nl) * 8, "labels");
  for (uint32_t i = 0; i < nl; ++i) {
    SemanticLabel l;
    l.pc = r.u32("label pc");
    l.name = r.str("label name");
    s.labels.push_back(std::move(l));  // their order and pcs: validate_program
  }
}

}  // namespace

std::vector<uint8_t> write_object(const Program& p) {
  Writer w;
  w.b.insert(w.b.end(), kMagic, kMagic + 8);
  w.u64(isa_fingerprint());
  w.str(p.name);
  w.u32(static_cast<uint32_t>(p.params.size()));
  for (const KernelParam& kp : p.params) {
    w.str(kp.name);
    w.u8(static_cast<uint8_t>(kp.kind));
    // flags: bit 0 a dtype follows, bit 1 the tensor is NZ in GM (an older reader refuses it)
    w.u8(static_cast<uint8_t>((kp.dtype ? 1 : 0) | (kp.format == GmFormat::Nz ? 2 : 0)));
    w.u8(kp.dtype ? static_cast<uint8_t>(*kp.dtype) : 0);
  }
  w.str(p.target_config);
  w.u32(static_cast<uint32_t>(p.target_symbols.size()));
  for (const TargetSymbol& t : p.target_symbols) {
    w.str(t.name);
    w.u64(static_cast<uint64_t>(t.value));
  }
  w.u8((p.aic.present ? 1 : 0) | (p.aiv.present ? 2 : 0));
  if (p.aic.present) write_section(w, p.aic);
  if (p.aiv.present) write_section(w, p.aiv);
  return std::move(w.b);
}

Program read_object(const std::vector<uint8_t>& bytes, Arch arch) {
  auto magic = [&](const char* m) { return bytes.size() >= 8 && std::memcmp(bytes.data(), m, 8) == 0; };
  const bool v1 = magic(kMagicV1), v2 = magic(kMagicV2);
  if (!v1 && !v2 && !magic(kMagic))
    throw Error("not an npusim object file (bad magic; expected \"NPUSIMO3\")");
  Reader r{bytes, 8};
  if (!v1) {
    const uint64_t isa = r.u64("ISA fingerprint");
    if (isa != isa_fingerprint())
      throw Error(fmt::format("object file built for ISA {:016x}, this npusim has ISA {:016x}: "
                              "re-assemble it with this npusim (npusim asm)",
                              isa, isa_fingerprint()));
  }
  Program p;
  p.name = r.str("kernel name");
  const uint32_t np = r.count("parameter count", kMaxParams, 7, "parameters");
  for (uint32_t i = 0; i < np; ++i) {
    KernelParam kp;
    kp.name = r.str("parameter name");
    uint8_t kind = r.u8("parameter kind");
    if (kind > 2) throw Error(fmt::format("object file: parameter '{}' has bad kind {}", kp.name, kind));
    kp.kind = static_cast<ParamKind>(kind);
    const uint8_t flags = r.u8("parameter flags");
    uint8_t dt = r.u8("parameter dtype");
    const bool has = flags & 1;
    if (flags > 3 || (has && dt >= enum_count(EnumType::Dtype)) || (!has && dt != 0))
      throw Error(fmt::format("object file: parameter '{}' has a bad dtype", kp.name));
    if ((flags & 2) && kp.kind != ParamKind::Gm)
      throw Error(fmt::format("object file: parameter '{}' has a layout but is not a gm parameter", kp.name));
    if (has) kp.dtype = static_cast<Dtype>(dt);
    if (flags & 2) kp.format = GmFormat::Nz;
    p.params.push_back(std::move(kp));
  }
  if (!v1 && !v2) {
    p.target_config = r.str("target config");
    const uint32_t nt = r.count("target constant count", kMaxTargetSymbols, 12, "target constants");
    for (uint32_t i = 0; i < nt; ++i) {
      TargetSymbol t;
      t.name = r.str("target constant name");
      t.value = static_cast<int64_t>(r.u64("target constant value"));
      p.target_symbols.push_back(std::move(t));
    }
  }
  uint8_t mask = r.u8("section mask");
  if (mask > 3) throw Error(fmt::format("object file: bad section mask {}", mask));
  if (mask & 1) read_section(r, p.aic, "aic");
  if (mask & 2) read_section(r, p.aiv, "aiv");
  if (r.pos != bytes.size())
    throw Error(fmt::format("object file: {} unexpected bytes after the last section", bytes.size() - r.pos));
  std::string problems;
  for (const std::string& e : validate_program(p, arch)) problems += (problems.empty() ? "" : "\n") + e;
  if (!problems.empty()) throw Error(problems);
  return p;
}

Program read_object_file(const std::string& path, Arch arch) {
  const std::string text = read_input_file(path, kMaxObjectFileBytes);
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  try {
    return read_object(bytes, arch);
  } catch (const Error& e) {
    // One line per problem, each naming the file.
    std::string msg = e.what(), out;
    for (size_t b = 0, n; b <= msg.size(); b = n + 1) {
      n = std::min(msg.find('\n', b), msg.size());
      out += fmt::format("{}{}: {}", out.empty() ? "" : "\n", path, msg.substr(b, n - b));
    }
    throw Error(out);
  }
}

void write_object_file(const std::string& path, const Program& p) {
  std::vector<uint8_t> b = write_object(p);
  write_file_atomic(path, std::string(b.begin(), b.end()));
}

}  // namespace npu::isa
