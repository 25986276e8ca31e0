// Static RRIP (Jaleel et al. 2010; rrip.h): every line is inserted at insert_rrpv (the paper:
// 2^M - 2, "long", with M = 2). Scan-resistant where LRU is not.
#include "hw/pluggable/rrip.h"

namespace npu::hw {
namespace {

class SrripPolicy final : public RripPolicy {
 public:
  SrripPolicy(uint32_t sets, uint32_t ways, uint8_t max_rrpv, uint8_t insert_rrpv)
      : RripPolicy(sets, ways, max_rrpv), insert_(insert_rrpv) {}
  std::string_view name() const override { return "srrip"; }

 private:
  uint8_t insertion(const L2Access&) const override { return insert_; }
  uint8_t insert_;
};

}  // namespace

void register_srrip_policy(ReplacementRegistry& r) {
  r.add({"srrip", "static re-reference interval prediction, hit priority (scan-resistant)",
         {{"rrpv_bits", ParamSpec::Type::Int, 1, 7, 2,
           "Bits of each line's re-reference prediction value (Jaleel et al. 2010 use 2)."},
          {"insert_rrpv", ParamSpec::Type::Int, 0, 127, 2,
           "RRPV of an inserted line, at most 2^rrpv_bits - 1 (the paper: 2^rrpv_bits - 2)."}},
         [](const PolicyShape& s, const ParamValues& p) {
           const int bits = static_cast<int>(p.at("rrpv_bits"));
           return std::make_unique<SrripPolicy>(
               s.sets, s.ways, rrip_max(bits),
               rrip_checked("srrip", "insert_rrpv", static_cast<int>(p.at("insert_rrpv")), bits));
         }});
}

}  // namespace npu::hw
