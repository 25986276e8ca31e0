"""Helpers shared by the scripts that turn `npusim sweep` runs into committed doc tables
(scripts/cache_study.py, scripts/mla_knobs.py). Standard library only (Debian's python3)."""
import argparse
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(description, runs):
    """The scripts' common options: --npusim, --runs (default build/RUNS), --jobs."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--npusim", default=os.path.join(ROOT, "build", "bin", "npusim"))
    ap.add_argument("--runs", default=os.path.join(ROOT, "build", runs))
    ap.add_argument("--jobs", default="2")
    return ap.parse_args()


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def run(cmd, ok=(0,)):
    """Runs cmd, echoed to stderr; exits unless its status is in ok."""
    print("+ " + " ".join(cmd), file=sys.stderr)
    rc = subprocess.run(cmd).returncode
    if rc not in ok:
        sys.exit("%s: exit status %d" % (cmd[0], rc))


def read_results(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def save_results(rows, path):
    """The committed copy of a results.csv without the host seconds, so a regeneration on the
    same code diffs clean."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, [k for k in rows[0] if k != "wall_s"], extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def fill(doc, doc_name, name, lines):
    """doc with the lines between `<!-- generated:NAME -->` and `<!-- end:NAME -->` replaced."""
    pat = re.compile(r"(<!-- generated:%s -->\n).*?(<!-- end:%s -->)" % (name, name), re.S)
    if not pat.search(doc):
        sys.exit("%s has no <!-- generated:%s --> ... <!-- end:%s --> block" % (doc_name, name, name))
    return pat.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), doc)
