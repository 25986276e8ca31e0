#!/usr/bin/python3
"""Regenerates the knob tables of docs/mla-prolog.md from `npusim sweep` runs.

    /usr/bin/python3 scripts/mla_knobs.py [--npusim build/bin/npusim] [--runs DIR] [--jobs N]

For each sweep spec in docs/studies/mla_knobs/ (STUDIES below; all timing-only, the reference
shape of kernels/cases/mla_prolog_bf16*.yaml) it runs `npusim sweep SPEC --out RUNS/NAME --jobs
N` (resumable), copies its results.csv to docs/studies/mla_knobs/results/NAME.csv and rewrites
the table between `<!-- generated:NAME -->` and `<!-- end:NAME -->` in docs/mla-prolog.md, with
per-stage spans from each point's stats.json. The prose around the tables is written by hand
and cites their numbers; kernels.MlaPrologKnobs.* (testbench/kernels/mla_prolog_knobs_long_test.cc)
guards the orderings it states. Standard library only (Debian's python3). About a minute of CPU.
"""
import json
import os
import sys

from sweep_study import ROOT, fill, parse_args, read_results, read_text, run, save_results

STUDY_DIR = os.path.join(ROOT, "docs", "studies", "mla_knobs")
DOC = os.path.join(ROOT, "docs", "mla-prolog.md")
STUDIES = ["unroll", "pipelining", "cache", "stitch", "tiles_wq_a", "tiles_wq_b", "tiles_wq_b_btrans"]
def us(out, row):
    """The point's time in us at its config's clock (stats.json clock_ghz)."""
    return "%.1f" % (int(row["cycles"]) / stats(out, row)["clock_ghz"] / 1000.0)


def mb(v):
    return "%.1f" % (int(v) / 1e6)


def stats(out, row):
    with open(os.path.join(out, "points", row["hash"], "stats.json"), encoding="utf-8") as f:
        return json.load(f)


def span(st, label):
    """[start, end) of a label as text (the report's span, waits included)."""
    for lab in st["labels"]:
        if lab["label"] == label:
            return "[%d, %d)" % (lab["start_cycle"], lab["end_cycle"])
    return "-"


def stage_cells(st):
    return [span(st, "mla.q1_kv1"), span(st, "mla.q3"), span(st, "mla.q5_rope")]


STAGE_HEAD = "q1_kv1 span | q3 span | q5_rope span"

UNROLL_CHUNKS = {("16", "16"): "16", ("16", "8"): "8 + 8", ("16", "15"): "8 + 8",
                 ("13", "16"): "13", ("13", "8"): "8 + 5 (padded to 8)", ("13", "15"): "8 + 4 + 1"}
UNROLL_NAME = {"16": "16 (one chunk)", "8": "8 (a single 8)", "15": "8, 4, 2, 1"}


def table_unroll(rows, out):
    t = ["| t | UNROLL (list) | chunks | weights' L2 policy | cycles | us | HBM read MB | " + STAGE_HEAD + " |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        pol = "kernel hints" if r["wq_b"] == "kernel" else "all normal"
        t.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["T"], UNROLL_NAME[r["unroll"]], UNROLL_CHUNKS[(r["T"], r["unroll"])], pol, r["cycles"],
            us(out, r), mb(r["hbm_read_bytes"]), " | ".join(stage_cells(stats(out, r)))))
    return t


def table_pipelining(rows, out):
    t = ["| clusters | NBUF | XL1 | cycles | us | " + STAGE_HEAD + " |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t.append("| %s | %s | %s (%s) | %s | %s | %s |" % (
            r["blocks"], r["nbuf"], r["xl1"], "x reused in L1" if r["xl1"] == "1" else "x re-loaded per chunk",
            r["cycles"], us(out, r), " | ".join(stage_cells(stats(out, r)))))
    return t


def table_cache(rows, out):
    t = ["| wq_a | wq_b | w_kv | cycles | us | HBM read MB | " + STAGE_HEAD + " |",
         "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["wq_a"], r["wq_b"], r["w_kv"], r["cycles"], us(out, r), mb(r["hbm_read_bytes"]),
            " | ".join(stage_cells(stats(out, r)))))
    return t


def table_stitch(rows, out):
    t = ["| launches | cycles | us | per launch (cycles, the 1800-cycle launch included) | HBM read MB |",
         "|---|---|---|---|---|"]
    for r in rows:
        per = ", ".join("%s %d" % (name, l["total_cycles"]) for name, l in
                        zip(["q1_kv1", "q2 + kv", "q3", "q4 + q5"], stats(out, r)["launches"]))
        t.append("| 4 (one per stage) | %s | %s | %s | %s |" % (r["cycles"], us(out, r), per,
                                                              mb(r["hbm_read_bytes"])))
    return t


def table_tiles(rows, out):
    """A grid: KT down, NT across; a cell is cycles (or why the point failed)."""
    kts = list(dict.fromkeys(r["kt"] for r in rows))
    nts = list(dict.fromkeys(r["nt"] for r in rows))
    by = {(r["kt"], r["nt"]): r for r in rows}
    name = lambda v: "0 (default)" if v == "0" else v
    t = ["| KT \\ NT | " + " | ".join(name(n) for n in nts) + " |", "|---" * (len(nts) + 1) + "|"]
    for k in kts:
        cells = []
        for n in nts:
            r = by[(k, n)]
            cells.append(r["cycles"] if r["status"] == "ok" else "no stage fits L1")
        t.append("| " + name(k) + " | " + " | ".join(cells) + " |")
    return t


TABLES = {"unroll": table_unroll, "pipelining": table_pipelining, "cache": table_cache, "stitch": table_stitch,
          "tiles_wq_a": table_tiles, "tiles_wq_b": table_tiles, "tiles_wq_b_btrans": table_tiles}


def main():
    a = parse_args(__doc__.splitlines()[0], "mla-knobs")
    os.makedirs(os.path.join(STUDY_DIR, "results"), exist_ok=True)
    doc = read_text(DOC)
    for name in STUDIES:
        out = os.path.join(a.runs, name)
        # exit 2: a failed point, allowed below only where a W stage cannot fit L1
        run([a.npusim, "sweep", os.path.join(STUDY_DIR, name + ".yaml"), "--out", out, "--jobs", a.jobs], (0, 2))
        rows = read_results(os.path.join(out, "results.csv"))
        for r in rows:
            if r["status"] != "ok" and not (name.startswith("tiles") and "gemm_kn.inc" in r["error"]):
                sys.exit("%s: point %s failed: %s" % (name, r["point"], r["error"]))
        save_results(rows, os.path.join(STUDY_DIR, "results", name + ".csv"))
        doc = fill(doc, "docs/mla-prolog.md", name, TABLES[name](rows, out))
    with open(DOC + ".tmp", "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(DOC + ".tmp", DOC)


if __name__ == "__main__":
    main()
