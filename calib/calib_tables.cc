// The calibration tables (calib.h): read each msKPP CSV, map every measured point to one
// instruction of our ISA, run it, and collect model vs measured per series.
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "base/file_io.h"
#include "calib/calib.h"
#include "hw/config/loader.h"
#include "hw/config/schema.h"
#include "isa/dtype_rules.h"
#include "isa/error.h"

namespace npu::calib {

namespace {

using isa::CoreType;
using isa::Pipe;

// ---------------------------------------------------------------- CSV
using Row = CsvRow;

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

constexpr uint64_t kMaxTableBytes = 16ull << 20;  // the msKPP tables are ~100 KB

}  // namespace

std::vector<Row> read_csv(const std::string& path) {
  std::istringstream f;
  try {
    f.str(read_input_file(path, kMaxTableBytes));
  } catch (const InputFileError& e) {
    throw Error("cannot read calibration table " + path + ": " + e.reason);
  }
  std::string line;
  if (!std::getline(f, line)) throw Error(path + ": empty file");
  const std::vector<std::string> head = split_csv_line(line);
  std::vector<Row> rows;
  int lineno = 1;
  while (std::getline(f, line)) {
    ++lineno;
    if (line.empty()) continue;
    std::vector<std::string> cells = split_csv_line(line);
    if (cells.size() != head.size())
      throw Error(fmt::format("{}:{}: {} fields, the header has {}", path, lineno, cells.size(), head.size()));
    Row r;
    for (size_t i = 0; i < head.size(); ++i) r[head[i]] = cells[i];
    rows.push_back(std::move(r));
  }
  return rows;
}

double to_num(const Row& r, const char* key) {
  const auto it = r.find(key);
  if (it == r.end()) throw Error(std::string("calibration CSV: no column ") + key);
  const std::string& s = it->second;
  try {
    size_t used = 0;
    double v = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw Error(std::string("calibration CSV: field ") + key + " is not a number: '" + s + "'");
  }
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, sep)) out.push_back(part);
  return out;
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// ---------------------------------------------------------------- run context
struct Ctx {
  const Options& o;
  hw::HwConfig cfg;
  std::string config_path;
};

Point run_point(Ctx& c, const Kernel& k, double x, double measured) {
  Point p;
  p.x = x;
  p.measured = measured;
  p.asm_line = k.body;
  p.model = measure_busy(c.cfg, k, c.o.warm_l2);
  return p;
}

// ---------------------------------------------------------------- vector
// msKPP dtype token -> (our dtype keyword, size); UINT16/UINT32 run as s16/s32 (our ISA has no
// unsigned 16/32-bit types; vector timing depends only on the element width).
struct DtMap {
  const char* ours;
  int size;
  bool substituted;
};
const std::map<std::string, DtMap>& dtype_map() {
  static const std::map<std::string, DtMap> m = {
      {"FP32", {"f32", 4, false}},  {"FP16", {"f16", 2, false}},  {"BF16", {"bf16", 2, false}},
      {"INT32", {"s32", 4, false}}, {"INT16", {"s16", 2, false}}, {"INT8", {"s8", 1, false}},
      {"UINT16", {"s16", 2, true}}, {"UINT32", {"s32", 4, true}}};
  return m;
}

// msKPP instruction name -> our mnemonic. Operand form, timing class and legal dtypes come
// from the ISA table (isa/instructions.def), not from a copy here.
const std::map<std::string, std::string>& vector_map() {
  static const std::map<std::string, std::string> m = {
      {"VADD", "vadd"},   {"VSUB", "vsub"},       {"VMUL", "vmul"},   {"VMAX", "vmax"},
      {"VMIN", "vmin"},   {"VDIV", "vdiv"},       {"VADDS", "vadds"}, {"VMULS", "vmuls"},
      {"VMAXS", "vmaxs"}, {"VMINS", "vmins"},     {"VABS", "vabs"},   {"VRELU", "vrelu"},
      {"VRSQRT", "vrsqrt"}, {"VREC", "vrec"},     {"VEXP", "vexp"},   {"VLN", "vln"},
      {"VSQRT", "vsqrt"}, {"VCONV", "vcast"},     {"VECTORDUP", "vdup"}, {"VCOPY", "vcopy"},
      {"VCADD", "vrsum"}, {"VCMAX", "vrmax"}};
  return m;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

// The instruction's dtype fields (dt; vcast: sdt, ddt), in table order.
std::vector<const isa::FieldDef*> dtype_fields(const isa::InstrDef& d) {
  std::vector<const isa::FieldDef*> v;
  for (int i = 0; i < d.nfields; ++i)
    if (d.fields[i].kind == isa::FieldKind::Enum && d.fields[i].etype == isa::EnumType::Dtype) v.push_back(&d.fields[i]);
  return v;
}

// "vector.startup + vector.cycles_per_repeat.VecBinary[.f16] = 2"
std::string vector_figure(const hw::HwConfig& cfg, const std::string& tclass, const std::string& dt) {
  const hw::KeySpec* k = hw::find_key("vector.cycles_per_repeat." + tclass);
  const std::map<std::string, double> m = k ? k->get(cfg).table : std::map<std::string, double>{};
  std::string key = tclass + "." + dt;
  double v = m.count(dt) ? m.at(dt) : 0.0;
  if (!m.count(dt)) key = tclass, v = m.count("default") ? m.at("default") : 0.0;
  return fmt::format("vector.startup ({}), vector.cycles_per_repeat.{} ({:g})", cfg.vector.startup, key, v);
}

// One instruction over `bytes` bytes of esize-byte elements, every operand spelled from the
// table by its name. UB layout: dst at 0, sources at 64 KiB and 128 KiB (the largest point,
// VADD f16 x 192, is 48 KiB). Row ops: one row per 256 B repeat (WholeReduce: one result per
// repeat).
std::string vector_body(const isa::InstrDef& d, const std::vector<std::string>& dts, int esize, double bytes) {
  const uint64_t b = static_cast<uint64_t>(bytes);
  const std::map<std::string_view, uint64_t> values = {
      {"dst", 0},         {"src", 65536},         {"src0", 65536}, {"src1", 131072}, {"scalar", 0},
      {"count", b / esize}, {"rows", b / 256}, {"cols", 256 / esize}, {"stride", 256}};
  std::string s(d.mnemonic);
  size_t next_dt = 0;
  int nops = 0;
  for (int i = 0; i < d.nfields; ++i) {
    const isa::FieldDef& f = d.fields[i];
    if (f.syntax == isa::FieldSyntax::Suffix) {
      if (f.etype == isa::EnumType::Dtype) s += "." + dts.at(next_dt++);
      else s += "." + std::string(isa::keyword(f.etype, 0));  // vcast rounding: rne
      continue;
    }
    if (f.syntax == isa::FieldSyntax::Optional) continue;
    auto v = values.find(f.name);
    if (v == values.end()) throw Error(fmt::format("calibration: no value for operand '{}' of {}", f.name, d.mnemonic));
    s += fmt::format("{}{}", nops++ ? ", " : " ", v->second);
  }
  return s;
}

Table vector_table(Ctx& c, const std::string& csv) {
  Table t;
  t.csv = csv;
  std::vector<Row> rows = read_csv(c.o.csv_dir + "/" + csv);
  // Group rows by instr/dtype in file order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Row*>> groups;
  for (const Row& r : rows) {
    const std::string key = r.at("instr") + " " + r.at("dtype");
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&r);
  }
  for (const std::string& key : order) {
    const Row& first = *groups[key].front();
    const std::string instr = first.at("instr"), dtype = first.at("dtype");
    auto vi = vector_map().find(instr);
    if (vi == vector_map().end()) {
      t.skipped.push_back(key + ": no such instruction in the ISA");
      continue;
    }
    const isa::InstrDef& def = *isa::find_mnemonic(vi->second);
    const std::vector<const isa::FieldDef*> dt_fields = dtype_fields(def);
    // Our dtypes: binary/scalar/unary ops are A_A(_A): one dtype; casts: src, dst.
    std::vector<std::string> parts = split(dtype, '_');
    std::vector<std::string> dts;
    bool substituted = false, ok = true;
    int esize = 0;
    const size_t want = dt_fields.size();
    for (size_t i = 0; i < want && i < parts.size(); ++i) {
      auto d = dtype_map().find(parts[i]);
      const std::optional<int> ours = d == dtype_map().end() ? std::nullopt : isa::parse_keyword(isa::EnumType::Dtype, d->second.ours);
      if (!ours || !isa::dtype_allowed(dt_fields[i]->dtypes, static_cast<isa::Dtype>(*ours), c.cfg.chip.arch)) {
        ok = false;
        break;
      }
      if (i == 0) esize = d->second.size;
      dts.push_back(d->second.ours);
      substituted |= d->second.substituted;
    }
    if (!ok || dts.size() != want) {
      t.skipped.push_back(key + ": dtype not supported by " + vi->second);
      continue;
    }
    Series s;
    s.name = fmt::format("{} {} ({})", vi->second, dts.size() == 2 ? dts[0] + "->" + dts[1] : dts[0], key);
    s.x_name = "repeat";
    s.figure = vector_figure(c.cfg, std::string(isa::timing_class_name(def.timing)), dts[0]);
    std::vector<std::string> notes;
    if (substituted) notes.push_back("unsigned type run as the signed type of the same width");
    if (dts.size() == 2 && dts[0] != dts[1]) notes.push_back("model repeats count the source dtype's bytes");
    bool excluded = false;
    for (const Row* r : groups[key]) {
      const std::string& note = r->at("notes");
      if (starts_with(note, "OUTLIER") || r->at("cycles").empty()) {
        excluded = true;
        continue;
      }
      if (note.find("0.973x") != std::string::npos && !contains(notes, "measured cycles are time x 1800 MHz (0.973x)"))
        notes.push_back("measured cycles are time x 1800 MHz (0.973x)");
      Kernel k;
      k.core = CoreType::Aiv;
      k.pipe = Pipe::Vector;
      k.body = vector_body(def, dts, esize, to_num(*r, "bytes"));
      s.points.push_back(run_point(c, k, to_num(*r, "repeat"), to_num(*r, "cycles")));
    }
    if (excluded) notes.push_back("source outlier rows excluded");
    for (size_t i = 0; i < notes.size(); ++i) s.note += (i ? "; " : "") + notes[i];
    t.series.push_back(std::move(s));
  }
  return t;
}

// ---------------------------------------------------------------- cube
Table cube_table(Ctx& c, const std::string& csv) {
  Table t;
  t.csv = csv;
  std::vector<Row> rows = read_csv(c.o.csv_dir + "/" + csv);
  if (rows.empty()) throw Error(csv + ": no rows");
  // The swept dimension is the one that changes between rows.
  const bool k_varies = rows.size() > 1 && rows[0].at("k") != rows[1].at("k");
  Series s;
  const Row& f = rows.front();
  s.x_name = k_varies ? "k" : "n";
  s.name = k_varies ? fmt::format("mmad.f16 m={} n={}", f.at("m"), f.at("n"))
                    : fmt::format("mmad.f16 m={} k={}", f.at("m"), f.at("k"));
  s.figure = fmt::format("cube.startup ({}), cube.m0/n0 ({}/{}), cube.k0.b16 ({})", c.cfg.cube.startup, c.cfg.cube.m0,
                         c.cfg.cube.n0, c.cfg.cube.k0_b16);
  for (const Row& r : rows) {
    if (r.at("in_dtype") != "FP16") {
      t.skipped.push_back("MMAD " + r.at("in_dtype") + ": only fp16 rows are run");
      continue;
    }
    Kernel k;
    k.core = CoreType::Aic;
    k.pipe = Pipe::Cube;
    const auto m = static_cast<uint64_t>(to_num(r, "m")), kk = static_cast<uint64_t>(to_num(r, "k")),
               n = static_cast<uint64_t>(to_num(r, "n"));
    k.body = fmt::format("mmad.f16 0, 0, 0, {}, {}, {}", m, kk, n);
    s.points.push_back(run_point(c, k, double(k_varies ? kk : n), to_num(r, "cycles")));
  }
  t.series.push_back(std::move(s));
  return t;
}

// ---------------------------------------------------------------- data movement
// The largest row size (bytes) among `cands` that divides `bytes`, for 2-D tile instructions.
uint64_t row_bytes_for(uint64_t bytes, std::initializer_list<uint64_t> cands) {
  for (uint64_t r : cands)
    if (bytes % r == 0) return r;
  throw Error(fmt::format("calibration: {} bytes is not a multiple of a tile row", bytes));
}

struct PathDef {
  CoreType core;
  Pipe pipe;
  bool gm;
  const char* figure;
};

const std::map<std::string, PathDef>& path_map() {
  static const std::map<std::string, PathDef> m = {
      {"GM_TO_L1", {CoreType::Aic, Pipe::Mte2, true,
                    "mte.gm_l1; l2.read_hit_latency, l2.slice_bytes_per_cycle, noc.aic_read_bytes_per_cycle"}},
      {"GM_TO_L1_TRANS", {CoreType::Aic, Pipe::Mte2, true,
                          "mte.gm_l1_nz; l2.read_hit_latency, l2.slice_bytes_per_cycle, noc.aic_read_bytes_per_cycle"}},
      {"GM_TO_UB", {CoreType::Aiv, Pipe::Mte2, true,
                    "mte.gm_ub; l2.read_hit_latency, l2.slice_bytes_per_cycle, noc.aiv_read_bytes_per_cycle"}},
      {"UB_TO_GM", {CoreType::Aiv, Pipe::Mte3, true,
                    "mte.ub_gm; l2.write_hit_latency, l2.slice_bytes_per_cycle, noc.aiv_write_bytes_per_cycle"}},
      {"L0C_TO_GM", {CoreType::Aic, Pipe::Fixp, true,
                     "mte.l0c_gm; l2.write_hit_latency, l2.slice_bytes_per_cycle, noc.aic_write_bytes_per_cycle"}},
      // fix always writes ND from L0C's fractal layout: the same instruction as L0C_TO_GM (the two
      // tables agree within a median 2.4 % over their 32 common sizes).
      {"L0C_TO_GM_TRANS", {CoreType::Aic, Pipe::Fixp, true,
                           "mte.l0c_gm; l2.write_hit_latency, l2.slice_bytes_per_cycle, noc.aic_write_bytes_per_cycle"}},
      {"L1_TO_L0A", {CoreType::Aic, Pipe::Mte1, false, "mte.l1_l0a"}},
      {"L1_TO_L0B", {CoreType::Aic, Pipe::Mte1, false, "mte.l1_l0b"}},
      {"L1_TO_FB", {CoreType::Aic, Pipe::Fixp, false, "mte.l1_fb"}},
      {"L0C_TO_UB", {CoreType::Aic, Pipe::Fixp, false, "mte.l0c_ub"}},
      {"L1_TO_UB", {CoreType::Aic, Pipe::Mte1, false, "mte.l1_ub"}},
      {"UB_TO_L1", {CoreType::Aiv, Pipe::Mte3, false, "mte.ub_l1"}}};
  return m;
}

std::string move_body(const std::string& path, uint64_t b) {
  if (path == "GM_TO_L1") return fmt::format("mov_gm_l1 0, r2, 1, {}, 0, 0", b);
  if (path == "GM_TO_L1_TRANS") {  // the table's `bursts` ND rows of 1024 B (bytes / 1024) -> NZ, C0 stride = rows
    const uint64_t rows = b / row_bytes_for(b, {1024});
    return fmt::format("mov_gm_l1_nz 0, r2, {}, 1024, 1024, {}", rows, rows * 32);
  }
  if (path == "GM_TO_UB") return fmt::format("mov_gm_ub 0, r2, 1, {}, 0, 0", b);
  if (path == "UB_TO_GM") return fmt::format("mov_ub_gm r2, 0, 1, {}, 0, 0", b);
  if (path == "L1_TO_L0A" || path == "L1_TO_L0B") {  // f16 tile, rows of up to 512 B
    const uint64_t rb = row_bytes_for(b, {512, 256, 128, 64, 32, 16, 8, 4, 2});
    return fmt::format("mov_l1_{}.f16 0, 0, {}, {}, {}", path == "L1_TO_L0A" ? "l0a" : "l0b", b / rb, rb / 2, rb);
  }
  if (path == "L0C_TO_GM" || path == "L0C_TO_GM_TRANS" || path == "L0C_TO_UB") {  // f32 -> f32, rows <= 256 B
    const uint64_t rb = row_bytes_for(b, {256, 128, 64, 32, 16, 8, 4});
    if (path != "L0C_TO_UB") return fmt::format("fix.f32.f32 r2, 0, {}, {}, {}", b / rb, rb / 4, rb);
    return fmt::format("fix_ub.f32.f32 0, 0, 0, {}, {}, {}", b / rb, rb / 4, rb);
  }
  if (path == "L1_TO_FB") return fmt::format("mov_l1_fb 0, 0, {}", b);
  if (path == "L1_TO_UB") return fmt::format("mov_l1_ub 0, 0, 0, 1, {}, 0, 0", b);
  if (path == "UB_TO_L1") return fmt::format("mov_ub_l1 0, 0, 1, {}, 0, 0", b);
  throw Error("calibration: no instruction for path " + path);
}

// A series that is not a measurement of its path (nullptr: it is one). The ascend910_95
// L1_TO_L0A, L1_TO_L0B and L0C_TO_L1 rows carry the same values to the hundredth of a cycle
// (flagged "identical to source table" in the CSV): one measurement filed under three paths.
// It fits L1->L0A (256 B/cycle, that path's theoretical rate) and contradicts L1->L0B's
// theoretical 128 B/cycle (the 910B measures L1->L0B at 128 too).
const char* placeholder(const std::string& csv, const std::string& path) {
  if (csv == "ascend910_95_datamove.csv" && path == "L1_TO_L0B")
    return "the rows are a copy of L1_TO_L0A (256 B/cycle), against this path's theoretical 128 B/cycle: not "
           "a measurement of L1->L0B";
  return nullptr;
}

Table move_table(Ctx& c, const std::string& csv) {
  Table t;
  t.csv = csv;
  std::vector<Row> rows = read_csv(c.o.csv_dir + "/" + csv);
  std::vector<std::string> order;
  std::map<std::string, Series> by_path;
  std::map<std::string, std::string> skipped;
  for (const Row& r : rows) {
    const std::string path = r.at("path");
    if (r.at("bytes").empty() || r.at("cycles").empty()) continue;  // theoretical / by-repeat rows
    auto pd = path_map().find(path);
    const bool a5_only = path == "L0C_TO_UB" || path == "L1_TO_UB" || path == "UB_TO_L1";
    if (pd == path_map().end() || (a5_only && c.cfg.chip.arch != isa::Arch::A5)) {
      if (!skipped.count(path)) {
        skipped[path] = path + ": no such data path in the ISA";
        t.skipped.push_back(skipped[path]);
      }
      continue;
    }
    if (const char* why = placeholder(csv, path)) {
      if (!skipped.count(path)) t.skipped.push_back(skipped[path] = path + ": " + why);
      continue;
    }
    if (!by_path.count(path)) {
      order.push_back(path);
      Series& s = by_path[path];
      s.name = path;
      s.x_name = "bytes";
      s.figure = pd->second.figure;
      if (pd->second.gm) s.note = c.o.warm_l2 ? "warm L2 (every line a hit)" : "cold L2";
      if (r.at("notes").find("identical to source table") != std::string::npos)
        s.note += std::string(s.note.empty() ? "" : "; ") + "source table is a copy of another";
    }
    const auto bytes = static_cast<uint64_t>(to_num(r, "bytes"));
    Kernel k;
    k.core = pd->second.core;
    k.pipe = pd->second.pipe;
    k.body = move_body(path, bytes);
    k.gm_bytes = pd->second.gm ? bytes : 0;
    by_path[path].points.push_back(run_point(c, k, double(bytes), to_num(r, "cycles")));
  }
  for (const std::string& p : order) t.series.push_back(std::move(by_path[p]));
  return t;
}

struct TableDef {
  const char* id;
  const char* title;
  const char* csv;
  std::string Options::*config;  // the chip's config
  Table (*fn)(Ctx&, const std::string&);
};

const std::vector<TableDef>& defs() {
  static const std::vector<TableDef> d = {
      {"910b-vector", "Vector instructions, 910B1 (one core, back-to-back)", "ascend910b_vector.csv", &Options::config_910b1, vector_table},
      {"910b-cube", "MMAD fp16, 910B1, m=32 k=16", "ascend910b_cube.csv", &Options::config_910b1, cube_table},
      {"910b3-cube", "MMAD fp16, 910B3, m=16 k=16", "ascend910b3_cube.csv", &Options::config_910b3, cube_table},
      {"91095-cube", "MMAD fp16, ascend910_95, m=16 n=32", "ascend910_95_cube.csv", &Options::config_950, cube_table},
      {"910b-datamove", "Data movement, 910B1", "ascend910b_datamove.csv", &Options::config_910b1, move_table},
      {"910b3-datamove", "Data movement, 910B3", "ascend910b3_datamove.csv", &Options::config_910b3, move_table},
      {"91095-datamove", "Data movement, ascend910_95", "ascend910_95_datamove.csv", &Options::config_950, move_table}};
  return d;
}

}  // namespace

std::vector<std::string> table_ids() {
  std::vector<std::string> v;
  for (const TableDef& d : defs()) v.push_back(d.id);
  return v;
}

Table run_table(const std::string& id, const Options& o) {
  for (const TableDef& d : defs()) {
    if (id != d.id) continue;
    Ctx c{o, {}, o.*d.config};
    c.cfg = hw::load_config(c.config_path, o.sets);
    Table t = d.fn(c, d.csv);
    t.id = d.id;
    t.title = d.title;
    t.config = c.config_path;
    return t;
  }
  std::string all;
  for (const std::string& s : table_ids()) all += " " + s;
  throw Error("unknown calibration table '" + id + "' (tables:" + all + ")");
}

std::vector<WhatIf> run_what_ifs(const std::vector<Table>& tables, const Options& o) {
  struct Def {
    const char* table;
    const char* set;
    const char* why;
  };
  static const Def defs[] = {
      {"910b-vector", "vector.startup=0", "fixed startup vs the measured 3-4 cycle floor"},
      {"910b-datamove", "noc.aic_read_bytes_per_cycle=110", "AIC GM->L1 link at the ini per-core rate (the AIV figure) instead of the fitted 171"},
      {"910b-datamove", "noc.aiv_read_bytes_per_cycle=110", "AIV GM->UB link at the ini's l2_read_rate (the 910B2 / A3 default config's figure) instead of the 910B1 table's 45.6 B/cycle plateau"},
      {"910b-datamove", "mte.l0c_gm.min_cycles=0", "posted L0C->GM writes without the per-instruction floor"}};
  std::vector<WhatIf> out;
  for (const Def& d : defs) {
    const Table* base = nullptr;
    for (const Table& t : tables)
      if (t.id == d.table) base = &t;
    if (!base) continue;
    Options o2 = o;
    o2.sets.push_back(d.set);
    WhatIf w;
    w.table = d.table;
    w.set = d.set;
    w.why = d.why;
    w.before = summarize(*base);
    w.after = summarize(run_table(d.table, o2));
    out.push_back(w);
  }
  return out;
}

std::vector<Table> run_calibration(const Options& o) {
  std::vector<Table> out;
  for (const std::string& id : table_ids()) {
    if (!o.only.empty() && !contains(o.only, id)) continue;
    out.push_back(run_table(id, o));
  }
  return out;
}

}  // namespace npu::calib
