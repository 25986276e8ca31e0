// Prefetch-aware RRIP, after PACMan (Wu et al., "PACMan: Prefetch-Aware Cache Management for
// High Performance Caching", MICRO 2011, policy PACMan-M): SRRIP (rrip.h) whose insertion sees
// the access. A demand line goes in at insert_rrpv ("long"); a line the L2 prefetched on its
// own (L2Access::prefetch_fill, after a prefetch-hinted miss: l2.prefetch_lines) goes in at
// prefetch_insert_rrpv ("distant" by default), so a useless prefetch is the next victim and
// cannot push out demand lines, while a prefetch that is used is promoted to 0 by its hit.
#include "hw/pluggable/rrip.h"

namespace npu::hw {
namespace {

class PacmanPolicy final : public RripPolicy {
 public:
  PacmanPolicy(uint32_t sets, uint32_t ways, uint8_t max_rrpv, uint8_t demand, uint8_t prefetch)
      : RripPolicy(sets, ways, max_rrpv), demand_(demand), prefetch_(prefetch) {}
  std::string_view name() const override { return "pacman"; }

 private:
  uint8_t insertion(const L2Access& a) const override { return a.prefetch_fill ? prefetch_ : demand_; }
  uint8_t demand_, prefetch_;
};

}  // namespace

void register_pacman_policy(ReplacementRegistry& r) {
  r.add({"pacman",
         "prefetch-aware SRRIP (PACMan-M, Wu et al. 2011): prefetch fills inserted at a distant "
         "RRPV, demand lines at a long one",
         {{"rrpv_bits", ParamSpec::Type::Int, 1, 7, 2, "Bits of each line's re-reference prediction value."},
          {"insert_rrpv", ParamSpec::Type::Int, 0, 127, 2,
           "RRPV of a demand line, at most 2^rrpv_bits - 1 (SRRIP's 2^rrpv_bits - 2)."},
          {"prefetch_insert_rrpv", ParamSpec::Type::Int, 0, 127, 3,
           "RRPV of a prefetch fill, at most 2^rrpv_bits - 1 (PACMan-M: the largest, distant)."}},
         [](const PolicyShape& s, const ParamValues& p) {
           const int bits = static_cast<int>(p.at("rrpv_bits"));
           return std::make_unique<PacmanPolicy>(
               s.sets, s.ways, rrip_max(bits),
               rrip_checked("pacman", "insert_rrpv", static_cast<int>(p.at("insert_rrpv")), bits),
               rrip_checked("pacman", "prefetch_insert_rrpv", static_cast<int>(p.at("prefetch_insert_rrpv")), bits));
         }});
}

}  // namespace npu::hw
