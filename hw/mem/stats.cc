#include "hw/mem/stats.h"

#include "isa/error.h"

namespace npu::hw {

void StatGroup::check_new(const std::string& name) const {
  for (const Entry& e : entries_)
    if (e.name == name) throw Error("stat group '" + name_ + "': duplicate stat '" + name + "'");
  for (const StatGroup* c : children_)
    if (c->name() == name) throw Error("stat group '" + name_ + "': duplicate stat '" + name + "'");
}

void StatGroup::add(const std::string& name, const uint64_t* counter, const std::string& unit,
                    const std::string& description) {
  check_new(name);
  entries_.push_back(Entry{name, unit, description, counter, {}});
}

void StatGroup::add_formula(const std::string& name, std::function<double()> formula,
                            const std::string& unit, const std::string& description) {
  check_new(name);
  entries_.push_back(Entry{name, unit, description, nullptr, std::move(formula)});
}

void StatGroup::add_child(const StatGroup* child) {
  check_new(child->name());
  children_.push_back(child);
}

double StatGroup::value(const std::string& name) const {
  for (const Entry& e : entries_)
    if (e.name == name) return e.counter ? static_cast<double>(*e.counter) : e.formula();
  throw Error("stat group '" + name_ + "' has no stat '" + name + "'");
}

StatRecord StatGroup::snapshot() const {
  StatRecord r{name_, {}, {}};
  for (const Entry& e : entries_)
    r.values.push_back(StatValue{e.name, e.unit, e.counter ? std::variant<uint64_t, double>(*e.counter)
                                                           : std::variant<uint64_t, double>(e.formula())});
  for (const StatGroup* c : children_) r.children.push_back(c->snapshot());
  return r;
}

bool operator==(const StatValue& a, const StatValue& b) {
  return a.name == b.name && a.unit == b.unit && a.value == b.value;
}

bool operator==(const StatRecord& a, const StatRecord& b) {
  return a.name == b.name && a.values == b.values && a.children == b.children;
}

}  // namespace npu::hw
