#include "isa/sem/sync.h"

#include "isa/error.h"
#include "isa/sem/fault.h"

namespace npu::sem {

std::string flag_name(isa::Pipe src, isa::Pipe dst, int id) {
  return std::string(isa::pipe_name(src)) + " -> " + std::string(isa::pipe_name(dst)) + " id " +
         std::to_string(id);
}

namespace {
template <class V>
FlagRef flag_of_view(const V& o) {
  return {o.src, o.dst, static_cast<int>(o.id)};
}
}  // namespace

FlagRef flag_ref(const DispatchedInstr& di) {
  return di.op() == isa::Op::SET_FLAG ? flag_of_view(di.as<isa::ops::SET_FLAG>())
                                      : flag_of_view(di.as<isa::ops::WAIT_FLAG>());
}

int cc_flag_id(const DispatchedInstr& di) {
  return static_cast<int>(di.op() == isa::Op::CC_SET ? di.as<isa::ops::CC_SET>().id
                                                     : di.as<isa::ops::CC_WAIT>().id);
}

namespace {
FlagRef flag_of(const CoreState& core, const DispatchedInstr& di) {
  FlagRef f = flag_ref(di);
  if (f.id < 0 || f.id >= kFlagIds) fault(core.id, di, "flag id " + std::to_string(f.id) + " out of range");
  return f;
}
}  // namespace

void fire_flag(CoreState& core, const DispatchedInstr& di) {
  FlagRef f = flag_of(core, di);
  bool& flag = core.flags[flag_index(f.src, f.dst, f.id)];
  if (flag)
    fault(core.id, di, "flag " + flag_name(f.src, f.dst, f.id) +
                           " set twice without a wait_flag in between");
  flag = true;
}

bool try_consume_flag(CoreState& core, const DispatchedInstr& di) {
  FlagRef f = flag_of(core, di);
  bool& flag = core.flags[flag_index(f.src, f.dst, f.id)];
  if (!flag) return false;
  flag = false;
  return true;
}

// ---------------------------------------------------------------- cross-core flags

CrossCoreHub::CrossCoreHub(int clusters, bool has_aic, bool has_aiv, int aiv_per_cluster)
    : clusters_(clusters), aiv_per_cluster_(aiv_per_cluster), has_aic_(has_aic), has_aiv_(has_aiv) {
  int per = (has_aic ? 1 : 0) + (has_aiv ? aiv_per_cluster : 0);
  counters_.assign(static_cast<size_t>(clusters) * per, std::vector<int>(kCrossCoreIds, 0));
}

int CrossCoreHub::index(const CoreId& c) const {
  int per = (has_aic_ ? 1 : 0) + (has_aiv_ ? aiv_per_cluster_ : 0);
  if (c.cluster < 0 || c.cluster >= clusters_) return -1;
  if (c.type == isa::CoreType::Aic) return has_aic_ ? c.cluster * per : -1;
  if (!has_aiv_ || c.sub < 0 || c.sub >= aiv_per_cluster_) return -1;
  return c.cluster * per + (has_aic_ ? 1 : 0) + c.sub;
}

// Group kinds: 0 = every core of a type (mode 0), 1 = AIVs of a cluster (mode 1),
// 2 = AIVs of a cluster releasing the AIC (mode 2 from AIVs).
std::vector<CoreId> CrossCoreHub::members(int kind, const CoreId& setter) const {
  std::vector<CoreId> v;
  if (kind == 0) {
    for (int c = 0; c < clusters_; ++c) {
      if (setter.type == isa::CoreType::Aic) {
        v.push_back({c, isa::CoreType::Aic, 0});
      } else {
        for (int s = 0; s < aiv_per_cluster_; ++s) v.push_back({c, isa::CoreType::Aiv, s});
      }
    }
  } else {
    for (int s = 0; s < aiv_per_cluster_; ++s) v.push_back({setter.cluster, isa::CoreType::Aiv, s});
  }
  return v;
}

void CrossCoreHub::contribute(int kind, const CoreId& setter, int id,
                              const std::vector<CoreId>& group, const std::vector<CoreId>& targets) {
  auto key = std::make_tuple(kind, kind == 0 ? -1 : setter.cluster, static_cast<int>(setter.type), id);
  auto& pend = pending_[key];
  pend.resize(group.size(), 0);
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] == setter) ++pend[i];
  for (int p : pend)
    if (p == 0) return;
  for (int& p : pend) --p;
  for (const CoreId& t : targets) ++counters_[index(t)][id];
  if (observer_) observer_->cc_released(kind, id, group, targets);
}

void CrossCoreHub::set(const CoreState& core, const DispatchedInstr& di) {
  const CoreId& me = core.id;
  const int mode = static_cast<int>(di.as<isa::ops::CC_SET>().mode);
  const int id = cc_flag_id(di);
  if (id < 0 || id >= kCrossCoreIds) fault(me, di, "cross-core flag id " + std::to_string(id) + " out of range");
  if (index(me) < 0) fault(me, di, "core is not part of the launch");
  const bool aic = me.type == isa::CoreType::Aic;
  switch (mode) {
    case 0: {
      auto g = members(0, me);
      contribute(0, me, id, g, g);
      return;
    }
    case 1: {
      if (aic) fault(me, di, "cc_set mode 1 (AIVs of a cluster) executed on an AIC");
      auto g = members(1, me);
      contribute(1, me, id, g, g);
      return;
    }
    case 2:
      if (aic) {
        if (!has_aiv_) fault(me, di, "cc_set mode 2 on an AIC, but the launch has no AIV cores");
        auto targets = members(1, me);
        for (const CoreId& t : targets) ++counters_[index(t)][id];
        if (observer_) observer_->cc_released(2, id, {me}, targets);
      } else {
        if (!has_aic_) fault(me, di, "cc_set mode 2 on an AIV, but the launch has no AIC cores");
        contribute(2, me, id, members(2, me), {CoreId{me.cluster, isa::CoreType::Aic, 0}});
      }
      return;
    default: fault(me, di, "cc_set mode " + std::to_string(mode) + " does not exist (0, 1 or 2)");
  }
}

bool CrossCoreHub::try_wait(const CoreState& core, const DispatchedInstr& di) {
  const int id = cc_flag_id(di);
  if (id < 0 || id >= kCrossCoreIds) fault(core.id, di, "cross-core flag id " + std::to_string(id) + " out of range");
  int i = index(core.id);
  if (i < 0) fault(core.id, di, "core is not part of the launch");
  int& c = counters_[i][id];
  if (c == 0) return false;
  --c;
  return true;
}

int CrossCoreHub::counter(const CoreId& core, int id) const {
  int i = index(core);
  return i < 0 || id < 0 || id >= kCrossCoreIds ? 0 : counters_[i][id];
}

std::string CrossCoreHub::explain_wait(const CoreId& core, int id) const {
  std::string s = "cross-core flag " + std::to_string(id) + " is " + std::to_string(counter(core, id));
  for (const auto& [key, pend] : pending_) {
    auto [kind, cluster, type, kid] = key;
    if (kid != id) continue;
    bool any = false;
    for (int p : pend) any |= p > 0;
    if (!any) continue;
    CoreId setter{cluster < 0 ? 0 : cluster, static_cast<isa::CoreType>(type), 0};
    // Does this pending group release `core`?
    bool targets_me = kind == 2 ? (core.type == isa::CoreType::Aic && core.cluster == cluster)
                                : (core.type == setter.type && (kind == 0 || core.cluster == cluster));
    if (!targets_me) continue;
    auto group = members(kind, setter);
    std::string done, missing;
    for (size_t i = 0; i < group.size(); ++i) {
      std::string& list = pend[i] > 0 ? done : missing;
      list += (list.empty() ? "" : ", ") + group[i].name();
    }
    s += "; mode " + std::to_string(kind) + " sets by " + done + ", still waiting for " + missing;
  }
  return s;
}

}  // namespace npu::sem
