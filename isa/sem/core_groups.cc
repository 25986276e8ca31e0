#include "isa/sem/core_groups.h"

#include <algorithm>
#include <map>
#include <set>

namespace npu::sem {
namespace {

// "3", "{0..23}", "{0..5,7,9..23}" for a sorted, duplicate-free list.
std::string ranges(const std::vector<int>& v) {
  std::string s;
  int runs = 0;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (runs++ ? "," : "") + std::to_string(v[i]) + (j > i ? ".." + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return runs == 1 && v.size() == 1 ? s : "{" + s + "}";
}

}  // namespace

std::optional<CoreId> core_id_from_name(const std::string& name) {
  for (const CoreId& c : {CoreId{0, isa::CoreType::Aic, 0}, CoreId{0, isa::CoreType::Aiv, 0}}) {
    const std::string suffix = c.type == isa::CoreType::Aic ? ".aic" : ".aiv";
    const size_t dot = name.find('.');
    if (name.rfind("cluster", 0) != 0 || dot == std::string::npos || name.compare(dot, suffix.size(), suffix) != 0)
      continue;
    const std::string cluster = name.substr(7, dot - 7), sub = name.substr(dot + suffix.size());
    const auto number = [](const std::string& t) {
      return !t.empty() && t.size() < 9 && t.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!number(cluster) || (c.type == isa::CoreType::Aic ? !sub.empty() : !number(sub))) continue;
    CoreId id{std::stoi(cluster), c.type, sub.empty() ? 0 : std::stoi(sub)};
    if (id.name() == name) return id;  // no leading zeros: the name round-trips
  }
  return std::nullopt;
}

std::string core_ranges(const std::vector<CoreId>& cores) {
  // Per core type, the clusters that have the same set of sub-cores share one name.
  std::string out;
  for (isa::CoreType type : {isa::CoreType::Aic, isa::CoreType::Aiv}) {
    std::map<int, std::set<int>> subs_of;  // cluster -> subs
    for (const CoreId& c : cores)
      if (c.type == type) subs_of[c.cluster].insert(c.sub);
    std::vector<std::pair<std::set<int>, std::vector<int>>> by_subs;  // first-seen order
    for (const auto& [cluster, subs] : subs_of) {
      const std::set<int>& s = subs;  // a structured binding: clang 14 cannot capture one
      auto it = std::find_if(by_subs.begin(), by_subs.end(), [&](const auto& e) { return e.first == s; });
      if (it == by_subs.end()) it = by_subs.insert(by_subs.end(), {subs, {}});
      it->second.push_back(cluster);
    }
    for (const auto& [subs, clusters] : by_subs) {
      out += (out.empty() ? "cluster" : ", cluster") + ranges(clusters);
      out += type == isa::CoreType::Aic ? ".aic" : ".aiv" + ranges({subs.begin(), subs.end()});
    }
  }
  return out;
}

void CoreGroups::add(const CoreId& core, std::string state) {
  for (Group& g : groups_)
    if (g.cores.front().type == core.type && g.state == state) return g.cores.push_back(core);
  groups_.push_back(Group{{core}, std::move(state)});
}

std::vector<std::pair<std::string, std::string>> CoreGroups::groups() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Group& g : groups_) {
    if (g.cores.size() == 1) {
      out.emplace_back(g.cores.front().name(), g.state);
      continue;
    }
    const char* kind = g.cores.front().type == isa::CoreType::Aic ? " AICs (" : " AIVs (";
    out.emplace_back(std::to_string(g.cores.size()) + kind + core_ranges(g.cores) + ")", g.state);
  }
  return out;
}

}  // namespace npu::sem
