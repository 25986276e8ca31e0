#include "isa/sem/exec_util.h"

#include <cstring>
#include <sstream>

#include "isa/numeric/numeric.h"

namespace npu::sem::detail {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}
std::string u128(unsigned __int128 v) {
  if (v <= UINT64_MAX) return std::to_string(static_cast<uint64_t>(v));
  return "beyond 2^64";
}
}  // namespace

uint8_t* Exec::local_strided(Buffer b, uint64_t base, uint64_t n, uint64_t stride, uint64_t len,
                             bool write, CoreState* on) const {
  CoreState& c = on ? *on : core;
  ZeroedBytes& buf = c.buffer(b);
  std::string name = buffer_name(b);
  if (on && on != &core) name += " of " + c.id.name();
  uint32_t al = c.alignment(b);
  if (base % al != 0)
    bad(name + " offset " + std::to_string(base) + " is not " + std::to_string(al) + "-byte aligned");
  if (n > 1 && stride % al != 0)
    bad(name + " stride " + std::to_string(stride) + " is not " + std::to_string(al) +
        "-byte aligned");
  if (n == 0 || len == 0) return buf.data();
  unsigned __int128 end = static_cast<unsigned __int128>(base) +
                          static_cast<unsigned __int128>(n - 1) * stride + len;
  if (end > buf.size())
    bad(name + (write ? " write [" : " read [") + std::to_string(base) + ", " + u128(end) +
        ") out of bounds (" + name + " is " + std::to_string(buf.size()) + " bytes)");
  if (ctx.accesses) ctx.accesses->push_back(Access{false, write, b, c.id, base, n, stride, len});
  return buf.data() + base;
}

void Exec::gm_check(uint64_t addr, uint64_t bytes, bool write) const {
  const GlobalMemory& gm = *ctx.gm;
  if (gm.access_ok(addr, bytes)) {
    if (ctx.accesses && bytes) ctx.accesses->push_back(Access{true, write, Buffer::Ub, core.id, addr, 1, 0, bytes});
    return;
  }
  std::string range = std::string(write ? "GM write [" : "GM read [") + hex(addr) + ", " +
                      (addr + bytes < addr ? std::string("beyond 2^64") : hex(addr + bytes)) + ")";
  if (gm.capacity() && (addr + bytes < addr || addr + bytes > gm.capacity()))
    bad(range + " is beyond the GM capacity (" + hex(gm.capacity()) + ")");
  const GmRegion* r = gm.region_at(addr);
  if (r)
    bad(range + " runs past the end of GM region '" + r->name + "' [" + hex(r->base) + ", " +
        hex(r->end()) + ")");
  bad(range + " is outside every GM region");
}

CoreState* Exec::peer_aic() const {
  if (!ctx.cluster_aic)
    bad("the launch has no AIC in cluster" + std::to_string(core.id.cluster));
  return ctx.cluster_aic;
}

CoreState* Exec::peer_aiv(int64_t sub) const {
  if (sub < 0 || sub >= static_cast<int64_t>(ctx.cluster_aiv.size()) || !ctx.cluster_aiv[sub])
    bad("the launch has no cluster" + std::to_string(core.id.cluster) + ".aiv" + std::to_string(sub));
  return ctx.cluster_aiv[sub];
}

bool is_int(isa::Dtype t) {
  return t == isa::Dtype::S32 || t == isa::Dtype::S16 || t == isa::Dtype::S8 || t == isa::Dtype::U8;
}
float f32_from_bits(uint64_t bits) {
  uint32_t u = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

void load_floats(isa::Dtype dt, const uint8_t* p, size_t n, float* out) {
  using isa::Dtype;
  switch (dt) {
    case Dtype::F32:
      if (n) std::memcpy(out, p, n * 4);  // n = 0 may come with null pointers (an empty operand)
      return;
    case Dtype::BF16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        uint32_t u = static_cast<uint32_t>(h) << 16;  // exact widening
        std::memcpy(&out[i], &u, 4);
      }
      return;
    case Dtype::F16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        out[i] = num::f16_to_f32(h);
      }
      return;
    default: {
      size_t es = num::size_of(dt);
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(num::decode(dt, p + es * i));
    }
  }
}

void store_floats(isa::Dtype dt, uint8_t* p, size_t n, const float* in) {
  using isa::Dtype;
  switch (dt) {
    case Dtype::F32:
      if (n) std::memcpy(p, in, n * 4);  // as in load_floats
      return;
    case Dtype::BF16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h = num::f32_to_bf16(in[i]);
        std::memcpy(p + 2 * i, &h, 2);
      }
      return;
    case Dtype::F16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h = num::f32_to_f16(in[i]);
        std::memcpy(p + 2 * i, &h, 2);
      }
      return;
    default: {
      size_t es = num::size_of(dt);
      for (size_t i = 0; i < n; ++i) num::encode(dt, p + es * i, in[i], isa::RoundMode::Rne, false);
    }
  }
}

void load_ints(isa::Dtype dt, const uint8_t* p, size_t n, int64_t* out) {
  using isa::Dtype;
  for (size_t i = 0; i < n; ++i) {
    switch (dt) {
      case Dtype::S32: { int32_t v; std::memcpy(&v, p + 4 * i, 4); out[i] = v; break; }
      case Dtype::S16: { int16_t v; std::memcpy(&v, p + 2 * i, 2); out[i] = v; break; }
      case Dtype::S8: out[i] = static_cast<int8_t>(p[i]); break;
      default: out[i] = p[i]; break;  // U8
    }
  }
}

void store_ints(isa::Dtype dt, uint8_t* p, size_t n, const int64_t* in) {
  using isa::Dtype;
  for (size_t i = 0; i < n; ++i) {
    uint64_t u = static_cast<uint64_t>(in[i]);  // wrap: keep the low bits
    switch (dt) {
      case Dtype::S32: { uint32_t v = static_cast<uint32_t>(u); std::memcpy(p + 4 * i, &v, 4); break; }
      case Dtype::S16: { uint16_t v = static_cast<uint16_t>(u); std::memcpy(p + 2 * i, &v, 2); break; }
      default: p[i] = static_cast<uint8_t>(u); break;  // S8, U8
    }
  }
}

}  // namespace npu::sem::detail
