// The resolved configuration as YAML (every key, schema order), and config equality.
#include <sstream>
#include <vector>

#include "hw/config/l2_rules.h"
#include "hw/config/loader.h"
#include "hw/config/schema.h"

namespace npu::hw {
namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  return parts;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string value_text(const KeySpec& k, const KeyValue& v) {
  switch (k.type) {
    case KeyType::Int: return std::to_string(v.i);
    case KeyType::Size: return format_size(v.i);
    case KeyType::Float: return format_float(v.f);
    case KeyType::Bool: return v.b ? "true" : "false";
    case KeyType::String: return quoted(v.s);
    case KeyType::Enum: return v.s;
    case KeyType::PerDtype: {
      if (v.table.size() == 1 && v.table.count("default")) return format_float(v.table.at("default"));
      std::string out = "{default: " + format_float(v.table.count("default") ? v.table.at("default") : 0);
      for (const std::string& dt : dtype_key_names())
        if (v.table.count(dt)) out += ", " + dt + ": " + format_float(v.table.at(dt));
      return out + "}";
    }
  }
  return "";
}

bool same_value(const KeySpec& k, const KeyValue& a, const KeyValue& b) {
  switch (k.type) {
    case KeyType::Int:
    case KeyType::Size: return a.i == b.i;
    case KeyType::Float: return a.f == b.f;
    case KeyType::Bool: return a.b == b.b;
    case KeyType::String:
    case KeyType::Enum: return a.s == b.s;
    case KeyType::PerDtype: return a.table == b.table;
  }
  return false;
}

}  // namespace

std::string dump_resolved_yaml(const HwConfig& cfg) {
  std::string out =
      "# Resolved npusim hardware configuration: every key after --set overrides.\n"
      "# Generated from " + (cfg.source_path.empty() ? std::string("(no file)") : cfg.source_path) +
      "; see that file for the source of each figure.\n"
      "# Derived, not keys: l2 built as " + l2_geometry_note(cfg.l2) + ".\n"
      "# Derived, not keys: hbm " + format_float(cfg.hbm.channel_bytes_per_cycle(cfg.chip.clock_ghz)) + " B/cycle per channel.\n";
  std::vector<std::string> open;  // sections currently open
  for (const KeySpec& k : config_schema()) {
    std::vector<std::string> parts = split(k.path);
    const std::string leaf = parts.back();
    parts.pop_back();
    size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    open.resize(common);
    for (size_t i = common; i < parts.size(); ++i) {
      out += std::string(2 * i, ' ') + parts[i] + ":\n";
      open.push_back(parts[i]);
    }
    out += std::string(2 * parts.size(), ' ') + leaf + ": " + value_text(k, k.get(cfg)) + "\n";
  }
  return out;
}

bool same_config(const HwConfig& a, const HwConfig& b) {
  for (const KeySpec& k : config_schema())
    if (!same_value(k, k.get(a), k.get(b))) return false;
  return true;
}

}  // namespace npu::hw
