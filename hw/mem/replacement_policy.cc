#include "hw/mem/replacement_policy.h"

#include "hw/mem/lru_policy.h"
#include "hw/mem/random_policy.h"
#include "hw/mem/srrip_policy.h"
#include "isa/error.h"

namespace npu::hw {

std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, uint32_t sets,
                                                           uint32_t ways, uint64_t seed) {
  if (sets == 0 || ways == 0) throw Error("replacement policy needs at least one set and one way");
  if (name == "lru") return std::make_unique<LruPolicy>(sets, ways);
  if (name == "srrip") return std::make_unique<SrripPolicy>(sets, ways);
  if (name == "random") return std::make_unique<RandomPolicy>(sets, ways, seed);
  throw Error("unknown L2 replacement policy '" + name + "' (known: lru, srrip, random)");
}

}  // namespace npu::hw
