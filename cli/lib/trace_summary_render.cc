#include "cli/lib/trace_summary_render.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "isa/sem/core_groups.h"
#include "isa/types.h"

namespace npu::cli {

namespace {

using Interval = std::pair<uint64_t, uint64_t>;

std::string f(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
std::string u(uint64_t v) { return std::to_string(v); }
// Sums over events and cores saturate instead of wrapping (a hand-made trace may hold many
// overlapping events near kMaxTraceCycle).
uint64_t sat_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
std::string pct(double num, double den) { return den > 0 ? f("%5.1f %%", 100.0 * num / den) : "    - "; }
std::string pad(std::string s, size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}
std::string lpad(std::string s, size_t w) {
  if (s.size() < w) s.insert(0, w - s.size(), ' ');
  return s;
}
const char* unit_name(int p) { return isa::pipe_name(static_cast<isa::Pipe>(p)).data(); }
std::string core_type(const std::string& core) {
  const size_t dot = core.rfind('.');
  std::string t = dot == std::string::npos ? core : core.substr(dot + 1);
  while (!t.empty() && std::isdigit(static_cast<unsigned char>(t.back()))) t.pop_back();
  return t;
}
bool is_mte(int p) {
  auto q = static_cast<isa::Pipe>(p);
  return q == isa::Pipe::Mte1 || q == isa::Pipe::Mte2 || q == isa::Pipe::Mte3 || q == isa::Pipe::Fixp;
}
bool is_compute(int p) {
  auto q = static_cast<isa::Pipe>(p);
  return q == isa::Pipe::Cube || q == isa::Pipe::Vector;
}

// Sorted, merged union of intervals.
std::vector<Interval> merge(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (i.second <= i.first) continue;
    if (!out.empty() && i.first <= out.back().second)
      out.back().second = std::max(out.back().second, i.second);
    else
      out.push_back(i);
  }
  return out;
}
uint64_t length(const std::vector<Interval>& v) {
  uint64_t n = 0;
  for (const Interval& i : v) n += i.second - i.first;
  return n;
}
uint64_t intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  uint64_t n = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) n += hi - lo;
    (a[i].second < b[j].second ? i : j)++;
  }
  return n;
}

std::string utilisation(const TraceData& d, uint64_t t0, uint64_t t1, const SummaryOptions& o) {
  std::string s = "Pipe utilisation over time (cycles " + u(t0) + ".." + u(t1) + ", one column = ";
  const int w = std::max(1, o.width);
  const uint64_t span = std::max<uint64_t>(1, t1 - t0);
  const uint64_t col = span / w + (span % w != 0);  // ceil without span + w - 1 overflowing
  s += u(col) + " cycles; mean over the cores of each type):\n";
  // (type, unit) -> busy cycles per column, and the cores that have the unit.
  std::map<std::pair<std::string, int>, std::vector<uint64_t>> busy;
  std::map<std::pair<std::string, int>, std::set<int>> cores;
  for (const SummaryEvent& e : d.events) {
    const auto key = std::make_pair(core_type(d.cores[e.core]), e.unit);
    auto& v = busy[key];
    if (v.empty()) v.assign(w, 0);
    cores[key].insert(e.core);
    for (uint64_t a = std::max(e.start, t0); a < e.end;) {
      const uint64_t c = std::min<uint64_t>((a - t0) / col, w - 1);
      const uint64_t hi = std::min(e.end, t0 + (c + 1) * col);
      v[c] = sat_add(v[c], hi - a);
      a = hi;
    }
  }
  static const char levels[] = " .:-=+*#%@";
  for (const auto& [key, v] : busy) {
    const double n = double(cores[key].size());
    std::string bar;
    uint64_t total = 0;
    for (int c = 0; c < w; ++c) {
      total = sat_add(total, v[c]);
      const uint64_t width = std::min<uint64_t>(col, span - std::min<uint64_t>(span, c * col));
      const double x = width ? double(v[c]) / (double(width) * n) : 0;
      // Ninths: '.' up to 1/9 busy, ':' up to 2/9, ..., '@' above 8/9.
      const int lvl = x <= 0 ? 0 : std::max(1, std::min(9, static_cast<int>(std::ceil(x * 9.0 - 1e-9))));
      bar += levels[lvl];
    }
    s += "  " + pad(key.first, 4) + " " + pad(unit_name(key.second), 6) + " |" + bar + "| " +
         pct(double(total), double(span) * n) + "\n";
  }
  return s;
}

std::string overlap(const TraceData& d) {
  // (label, core) -> intervals
  struct Acc {
    std::vector<Interval> mte, compute;
    uint64_t lo = UINT64_MAX, hi = 0;
  };
  std::map<std::pair<int, int>, Acc> acc;
  for (const SummaryEvent& e : d.events) {
    if (e.dispatch) continue;
    Acc& a = acc[{e.label, e.core}];
    a.lo = std::min(a.lo, e.start);
    a.hi = std::max(a.hi, e.end);
    if (is_mte(e.unit)) a.mte.emplace_back(e.start, e.end);
    if (is_compute(e.unit)) a.compute.emplace_back(e.start, e.end);
  }
  struct Row {
    uint64_t span = 0, both = 0, mte = 0, compute = 0;
    std::set<int> cores;
  };
  std::map<int, Row> rows;
  for (auto& [key, a] : acc) {
    const auto m = merge(a.mte), c = merge(a.compute);
    const uint64_t both = intersect(m, c);
    Row& r = rows[key.first];
    r.span = sat_add(r.span, a.hi - a.lo);
    r.both = sat_add(r.both, both);
    r.mte = sat_add(r.mte, length(m) - both);
    r.compute = sat_add(r.compute, length(c) - both);
    r.cores.insert(key.second);
  }
  std::string s = "MTE / compute overlap per label (share of the label's span, summed over cores):\n";
  s += "  " + pad("label", 16) + lpad("cores", 6) + lpad("span", 12) + lpad("both", 9) + lpad("MTE only", 10) +
       lpad("compute", 9) + lpad("neither", 9) + "\n";
  for (const auto& [label, r] : rows) {
    const uint64_t neither = r.span - std::min(r.span, sat_add(sat_add(r.both, r.mte), r.compute));
    s += "  " + pad(d.labels[label].empty() ? "(none)" : d.labels[label], 16) + lpad(u(r.cores.size()), 6) +
         lpad(u(r.span), 12) + lpad(pct(r.both, r.span), 9) + lpad(pct(r.mte, r.span), 10) +
         lpad(pct(r.compute, r.span), 9) + lpad(pct(neither, r.span), 9) + "\n";
  }
  return s;
}

// The cores of one group of waits: "cluster0.aic" alone, "48 AIVs (cluster{0..23}.aiv{0..1})"
// for several (names the trace spells otherwise are listed as they are).
std::string who(const TraceData& d, const std::vector<int>& cores) {
  if (cores.size() == 1) return d.cores[cores.front()];
  std::vector<sem::CoreId> ids;
  sem::CoreGroups of_type;  // one group per core type
  std::string listed;
  for (int c : cores) {
    listed += (listed.empty() ? "" : ", ") + d.cores[c];
    const auto id = sem::core_id_from_name(d.cores[c]);
    if (!id) return listed;
    ids.push_back(*id);
    of_type.add(*id, "");
  }
  const auto groups = of_type.groups();
  return groups.size() == 1 ? groups.front().first : u(cores.size()) + " cores (" + sem::core_ranges(ids) + ")";
}

std::string longest_waits(const TraceData& d, const SummaryOptions& o) {
  std::vector<const SummaryEvent*> w;
  for (const SummaryEvent& e : d.events)
    if (e.stall > 0 && (e.reason == "flag_wait" || e.reason == "cross_core")) w.push_back(&e);
  std::stable_sort(w.begin(), w.end(), [](const SummaryEvent* a, const SummaryEvent* b) { return a->stall > b->stall; });
  // Waits that differ only in their core are one row (48 AIVs waiting at one wait_flag).
  struct Group {
    const SummaryEvent* e;
    std::vector<int> cores;
  };
  std::vector<Group> groups;
  for (const SummaryEvent* e : w) {
    auto same = [&](const Group& g) {
      const SummaryEvent& x = *g.e;
      return x.unit == e->unit && x.reason == e->reason && x.pc == e->pc && x.disasm == e->disasm &&
             x.label == e->label && x.stall == e->stall && x.start == e->start;
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) it = groups.insert(groups.end(), Group{e, {}});
    if (std::find(it->cores.begin(), it->cores.end(), e->core) == it->cores.end()) it->cores.push_back(e->core);
  }
  std::string s = "Longest flag waits (wait_flag, cc_wait):\n";
  if (groups.empty()) return s + "  none\n";
  for (size_t i = 0; i < groups.size() && int(i) < o.top_waits; ++i) {
    const SummaryEvent& e = *groups[i].e;
    s += "  " + lpad(u(e.stall), 8) + " cycles  " + pad(who(d, groups[i].cores) + " " + unit_name(e.unit), 22) + " " +
         pad(e.reason, 10) + " [" + u(e.start - e.stall) + ", " + u(e.start) + ")  pc " + u(e.pc) + "  " +
         e.disasm + (d.labels[e.label].empty() ? "" : "  (" + d.labels[e.label] + ")") + "\n";
  }
  return s;
}

// Operands of a disassembly (text after the mnemonic), to match set_flag with wait_flag.
std::string operands(const std::string& disasm) {
  const size_t sp = disasm.find(' ');
  return sp == std::string::npos ? "" : disasm.substr(sp + 1);
}

std::string critical_chain(const TraceData& d, const SummaryOptions& o) {
  const size_t n = d.events.size();
  std::string s = "Critical chain (what the last instruction waited for, back to the start):\n";
  if (n == 0) return s + "  no instructions\n";
  // Per (core, unit): events sorted by end.
  std::map<std::pair<int, int>, std::vector<size_t>> track;
  for (size_t i = 0; i < n; ++i) track[{d.events[i].core, d.events[i].unit}].push_back(i);
  for (auto& [k, v] : track)
    std::stable_sort(v.begin(), v.end(), [&](size_t a, size_t b) { return d.events[a].end < d.events[b].end; });
  // Last event on a track ending at or before t (and != self), preferring one ending exactly at t.
  auto ending_by = [&](int core, int unit, uint64_t t, size_t self) -> long {
    auto it = track.find({core, unit});
    if (it == track.end()) return -1;
    const auto& v = it->second;
    auto p = std::upper_bound(v.begin(), v.end(), t, [&](uint64_t x, size_t i) { return x < d.events[i].end; });
    while (p != v.begin()) {
      --p;
      if (*p != self && d.events[*p].start <= d.events[self].start) return static_cast<long>(*p);
    }
    return -1;
  };
  // Lookups by exact cycle (the model releases a wait in the cycle its setter starts).
  std::multimap<std::pair<int, uint64_t>, size_t> set_flag_at, pipe_start_at, pipe_end_at;
  std::multimap<uint64_t, size_t> cc_set_at;
  std::map<std::tuple<int, uint32_t, uint64_t>, size_t> dispatch_of;
  for (size_t i = 0; i < n; ++i) {
    const SummaryEvent& x = d.events[i];
    if (x.mnemonic == "set_flag") set_flag_at.emplace(std::make_pair(x.core, x.start), i);
    if (x.mnemonic == "cc_set") cc_set_at.emplace(x.start, i);
    if (x.dispatch) dispatch_of.emplace(std::make_tuple(x.core, x.pc, x.end), i);
    if (x.unit != 0 && !x.dispatch) {
      pipe_start_at.emplace(std::make_pair(x.core, x.start), i);
      pipe_end_at.emplace(std::make_pair(x.core, x.end), i);
    }
  }
  auto first_of = [](const auto& mm, const auto& key, auto&& ok) -> long {
    auto r = mm.equal_range(key);
    for (auto it = r.first; it != r.second; ++it)
      if (ok(it->second)) return static_cast<long>(it->second);
    return -1;
  };
  auto any = [](size_t) { return true; };
  size_t cur = 0;
  for (size_t i = 1; i < n; ++i)
    if (d.events[i].end > d.events[cur].end) cur = i;
  std::vector<size_t> chain{cur};
  std::set<size_t> seen{cur};
  for (;;) {
    const SummaryEvent& e = d.events[cur];
    const uint64_t t = e.start;
    long pred = -1;
    if (e.stall > 0 && e.reason == "flag_wait") {
      const std::string ops = operands(e.disasm);
      pred = first_of(set_flag_at, std::make_pair(e.core, t),
                      [&](size_t i) { return operands(d.events[i].disasm) == ops; });
    } else if (e.stall > 0 && e.reason == "cross_core") {
      pred = first_of(cc_set_at, t, any);
    } else if (e.stall > 0 && e.reason == "barrier") {
      pred = first_of(pipe_end_at, std::make_pair(e.core, t), any);
    } else if (e.stall > 0 && e.reason == "queue_full") {
      pred = first_of(pipe_start_at, std::make_pair(e.core, t), any);
    }
    if (pred < 0) {
      const long prev = ending_by(e.core, e.unit, t, cur);
      const bool back_to_back = prev >= 0 && d.events[prev].end == t;
      if (e.unit != 0 && !e.dispatch && !back_to_back) {
        // Not held by its own pipe: it waited for its dispatch.
        auto it = dispatch_of.find(std::make_tuple(e.core, e.pc, e.dispatch_cycle));
        if (it != dispatch_of.end()) pred = static_cast<long>(it->second);
      }
      if (pred < 0) pred = prev;
    }
    if (pred < 0 || seen.count(static_cast<size_t>(pred))) break;
    cur = static_cast<size_t>(pred);
    seen.insert(cur);
    chain.push_back(cur);
  }
  std::reverse(chain.begin(), chain.end());
  // Runs of one (core, unit).
  struct Run {
    int core, unit;
    uint64_t start, end, busy = 0;
    int count = 0;
    std::map<std::string, int> ops;
    std::set<int> labels;
  };
  std::vector<Run> runs;
  std::map<std::string, uint64_t> by_unit;
  uint64_t chain_busy = 0, cursor = d.events[chain.front()].start;
  for (size_t i : chain) {
    const SummaryEvent& e = d.events[i];
    if (runs.empty() || runs.back().core != e.core || runs.back().unit != e.unit)
      runs.push_back(Run{e.core, e.unit, e.start, e.end, 0, 0, {}, {}});
    Run& r = runs.back();
    r.end = std::max(r.end, e.end);
    r.busy = sat_add(r.busy, e.end - e.start);
    ++r.count;
    ++r.ops[e.dispatch ? "dispatch" : e.mnemonic];
    r.labels.insert(e.label);
    // Each cycle of the chain counts once (a set_flag and the wait it releases share a cycle).
    const uint64_t lo = std::max(e.start, cursor), hi = std::max(e.end, lo);
    by_unit[std::string(unit_name(e.unit))] += hi - lo;
    chain_busy += hi - lo;
    cursor = std::max(cursor, hi);
  }
  const uint64_t t_end = d.events[chain.back()].end, t_start = d.events[chain.front()].start;
  s += "  " + u(chain.size()) + " instructions from cycle " + u(t_start) + " to " + u(t_end) + "; busy " +
       u(chain_busy) + " cycles of " + u(t_end - t_start) + ":";
  std::vector<std::pair<uint64_t, std::string>> shares;
  for (const auto& [k, v] : by_unit) shares.emplace_back(v, k);
  std::sort(shares.rbegin(), shares.rend());
  for (size_t i = 0; i < shares.size(); ++i)
    s += std::string(i ? "," : "") + " " + shares[i].second + " " +
         f("%.1f %%", t_end > t_start ? 100.0 * double(shares[i].first) / double(t_end - t_start) : 0);
  s += "\n";
  auto row = [&](const Run& r) {
    std::vector<std::pair<int, std::string>> ops;
    for (const auto& [k, v] : r.ops) ops.emplace_back(-v, k);
    std::sort(ops.begin(), ops.end());
    std::string what;
    for (size_t i = 0; i < ops.size() && i < 3; ++i)
      what += (i ? ", " : "") + ops[i].second + (ops[i].first < -1 ? " x" + u(-ops[i].first) : "");
    if (ops.size() > 3) what += ", ...";
    std::string labels;
    for (int l : r.labels)
      if (!d.labels[l].empty()) labels += (labels.empty() ? "" : ",") + d.labels[l];
    return "  [" + lpad(u(r.start), 8) + ", " + lpad(u(r.end), 8) + ")  " +
           pad(d.cores[r.core] + " " + unit_name(r.unit), 22) + " " + lpad(u(r.count), 4) + "  " + what +
           (labels.empty() ? "" : "  (" + labels + ")") + "\n";
  };
  const size_t max_rows = static_cast<size_t>(std::max(2, o.max_chain_rows));
  if (runs.size() <= max_rows) {
    for (const Run& r : runs) s += row(r);
  } else {
    const size_t head = max_rows / 2, tail = max_rows - head;
    for (size_t i = 0; i < head; ++i) s += row(runs[i]);
    s += "  ... " + u(runs.size() - max_rows) + " more runs ...\n";
    for (size_t i = runs.size() - tail; i < runs.size(); ++i) s += row(runs[i]);
  }
  return s;
}

}  // namespace

std::string render_trace_summary(const TraceData& d, const std::string& name, const SummaryOptions& o) {
  uint64_t t0 = UINT64_MAX, t1 = 0;
  size_t instrs = 0;
  for (const SummaryEvent& e : d.events) {
    t0 = std::min(t0, e.start - (e.waits() ? e.stall : 0));
    t1 = std::max(t1, e.end);
    instrs += !e.dispatch;
  }
  if (d.events.empty()) t0 = 0;
  std::string s = "trace " + name + " (" + d.format + "): " + u(instrs) + " instructions on " + u(d.cores.size()) +
                  " cores, cycles " + u(t0) + ".." + u(t1) + "\n\n";
  s += utilisation(d, t0, t1, o) + "\n";
  s += overlap(d) + "\n";
  s += longest_waits(d, o) + "\n";
  s += critical_chain(d, o);
  return s;
}

}  // namespace npu::cli
