"""Helpers shared by the scripts that turn `npusim sweep` runs into committed doc tables
(scripts/cache_study.py, scripts/mla_knobs.py). Standard library only (Debian's python3)."""
import csv
import re
import subprocess
import sys


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
