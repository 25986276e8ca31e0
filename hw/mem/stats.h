#pragma once
// Statistics as plain counters registered once (gem5 ADD_STAT style): a module owns its
// uint64_t counters as members and registers a pointer to each, with a unit and a description.
// Derived figures (hit rate, GB/s) are formulas evaluated only when the group is dumped.
// Nothing on a hot path looks a counter up by name.
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace npu::hw {

// A group's values at one moment, with their units: integers for counters, doubles for formulas.
struct StatValue {
  std::string name, unit;
  std::variant<uint64_t, double> value;
};
struct StatRecord {
  std::string name;
  std::vector<StatValue> values;
  std::vector<StatRecord> children;
};
// Same names, units, values and children (two runs that must be identical).
bool operator==(const StatValue& a, const StatValue& b);
bool operator==(const StatRecord& a, const StatRecord& b);

class StatGroup {
 public:
  struct Entry {
    std::string name, unit, description;
    const uint64_t* counter = nullptr;       // a counter, or
    std::function<double()> formula;         // a derived figure computed at dump time
  };

  explicit StatGroup(std::string name) : name_(std::move(name)) {}
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  // Registers a counter owned by the caller (it must outlive the group). Names are unique
  // within a group; a duplicate throws npu::Error.
  void add(const std::string& name, const uint64_t* counter, const std::string& unit,
           const std::string& description);
  void add_formula(const std::string& name, std::function<double()> formula, const std::string& unit,
                   const std::string& description);
  // A sub-group appears in the dump under its own name (it must outlive this group).
  void add_child(const StatGroup* child);

  const std::string& name() const { return name_; }
  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<const StatGroup*>& children() const { return children_; }

  // Value of one entry of this group (counter as double, or formula), by name; throws if absent.
  double value(const std::string& name) const;

  // The values now, typed (JSON is written from records only at the CLI edge).
  StatRecord snapshot() const;

 private:
  void check_new(const std::string& name) const;
  std::string name_;
  std::vector<Entry> entries_;
  std::vector<const StatGroup*> children_;
};

// a / b, or 0 when b is 0 (rates of idle units).
inline double ratio(double a, double b) { return b == 0 ? 0.0 : a / b; }

}  // namespace npu::hw
