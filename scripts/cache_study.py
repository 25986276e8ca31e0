#!/usr/bin/python3
"""Regenerates docs/cache-study.md's tables, CSVs and plots from `npusim sweep` runs.

    /usr/bin/python3 scripts/cache_study.py [--npusim build/bin/npusim] [--runs DIR] [--jobs N]

For each sweep spec in docs/studies/cache/ (STUDIES below) it runs `npusim sweep SPEC --out
RUNS/NAME --jobs N` (resumable: an interrupted regeneration reruns only missing points), copies
its results.csv to docs/studies/cache/results/NAME.csv, draws NAME.svg with `npusim sweep plot`
and rewrites the tables between `<!-- generated:NAME -->` and `<!-- end:NAME -->` in
docs/cache-study.md. The prose around the tables is written by hand and cites their numbers.
Standard library only (Debian's python3).
"""
import os
import sys

from sweep_study import ROOT, fill, parse_args, read_results, read_text, run, save_results

STUDY_DIR = os.path.join(ROOT, "docs", "studies", "cache")
DOC = os.path.join(ROOT, "docs", "cache-study.md")

# name -> the activation tensor whose L2 hits the W policy protects or not.
STUDIES = {"streamed_m16": "xn", "reused_m512": "xn", "decode8_sweep": "x"}


def mb(v):
    return "%.1f" % (int(v) / 1e6)


def pct(a, b):
    return "%+.1f %%" % (100.0 * (float(a) / float(b) - 1.0))


def summary_table(rows):
    """Per L2 size and replacement policy: cycles with W normal and none_cacheable."""
    by = {(r["l2_size"], r["w"], r["repl"]): r for r in rows}
    sizes = list(dict.fromkeys(r["l2_size"] for r in rows))
    repls = list(dict.fromkeys(r["repl"] for r in rows))
    out = ["| l2.size | replacement | cycles, W normal | cycles, W none_cacheable | none_cacheable vs normal |"
           " HBM read MB normal / none_cacheable |",
           "|---|---|---|---|---|---|"]
    for s in sizes:
        for p in repls:
            n, c = by[(s, "normal", p)], by[(s, "none_cacheable", p)]
            out.append("| %s | %s | %s | %s | %s | %s / %s |" % (
                s, p, n["cycles"], c["cycles"], pct(c["cycles"], n["cycles"]),
                mb(n["hbm_read_bytes"]), mb(c["hbm_read_bytes"])))
    return out


def detail_table(rows, act):
    out = ["| l2.size | W policy | replacement | cycles | W hits / misses / bypasses | %s hits / misses |"
           " %s hit rate | HBM read MB |" % (act, act),
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s | %s / %s / %s | %s / %s | %.3f | %s |" % (
            r["l2_size"], r["w"], r["repl"], r["cycles"], r["l2_hits.w"], r["l2_misses.w"], r["l2_bypasses.w"],
            r["l2_hits." + act], r["l2_misses." + act], float(r["l2_hit_rate." + act]), mb(r["hbm_read_bytes"])))
    return out


def main():
    a = parse_args(__doc__.splitlines()[0], "cache-study")
    os.makedirs(os.path.join(STUDY_DIR, "results"), exist_ok=True)
    doc = read_text(DOC)
    for name, act in STUDIES.items():
        out = os.path.join(a.runs, name)
        run([a.npusim, "sweep", os.path.join(STUDY_DIR, name + ".yaml"), "--out", out, "--jobs", a.jobs])
        svg = os.path.join(STUDY_DIR, name + ".svg")
        run([a.npusim, "sweep", "plot", out, "--x", "l2_size", "--y", "cycles", "--out", svg])
        if os.path.exists(svg[:-4] + ".png"):  # only where rsvg-convert is installed: not committed
            os.remove(svg[:-4] + ".png")
        rows = read_results(os.path.join(out, "results.csv"))
        save_results(rows, os.path.join(STUDY_DIR, "results", name + ".csv"))
        bad = [r for r in rows if r["status"] != "ok"]
        if bad:
            sys.exit("%s: point %s failed: %s" % (name, bad[0]["point"], bad[0]["error"]))
        doc = fill(doc, "docs/cache-study.md", name + "-summary", summary_table(rows))
        doc = fill(doc, "docs/cache-study.md", name + "-detail", detail_table(rows, act))
    with open(DOC + ".tmp", "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(DOC + ".tmp", DOC)


if __name__ == "__main__":
    main()
