#!/usr/bin/env python3
"""The coverage hook (sim/rtl_coverage.hpp) writes one file per process and
rank, and verilator_coverage merges them into the sum of their counts.

Usage: check_hook.py PROBE VERILATOR_COVERAGE WORKDIR
PROBE is coverage_hook_probe (tests/coverage/hook_probe.cpp)."""
import os
import re
import shutil
import subprocess
import sys


def counts(path):
    """The points of a coverage .dat file: key -> count."""
    out = {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"^C '(.*)' (\d+)$", line.rstrip("\n"))
            if m:
                out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
    return out


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    probe, vcov, work = sys.argv[1:4]
    probe, work = os.path.abspath(probe), os.path.abspath(work)  # the probe runs from work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ)
    env.pop("LIGHTRAIL_COVERAGE_DIR", None)
    # Without the variable nothing is written.
    subprocess.run([probe, "20", "0"], cwd=work, env=env, check=True)
    if os.listdir(work):
        fail(f"wrote {os.listdir(work)} without LIGHTRAIL_COVERAGE_DIR")
    # Rank 0, then rank 1 twice (two processes): three files, in a folder
    # the hook makes.
    cov = os.path.join(work, "cov")
    env["LIGHTRAIL_COVERAGE_DIR"] = cov
    runs = [("100", "0"), ("100", "1"), ("37", "1")]
    for cycles, rank in runs:
        subprocess.run([probe, cycles, rank], cwd=work, env=env, check=True)
    files = sorted(os.listdir(cov)) if os.path.isdir(cov) else []
    print("files:", files)
    if len(files) != len(runs):
        fail(f"{len(runs)} processes wrote {len(files)} file(s)")
    for rank in ("0", "1"):
        want = sum(1 for _, r in runs if r == rank)
        got = sum(1 for f in files if f.startswith(f"probe-r{rank}-p"))
        if got != want:
            fail(f"rank {rank}: {got} file(s) named probe-r{rank}-p*, expected {want}")
    each = [counts(os.path.join(cov, f)) for f in files]
    if not each[0] or any(set(c) != set(each[0]) for c in each):
        fail("the files do not hold the same, non-empty set of points")
    if not any(v > 0 for v in each[0].values()):
        fail("no point was counted")
    merged = os.path.join(work, "merged.dat")
    subprocess.run([vcov, "--write", merged] + [os.path.join(cov, f) for f in files], check=True)
    m = counts(merged)
    if set(m) != set(each[0]):
        fail(f"merged: {len(m)} points, each file {len(each[0])}")
    wrong = [k for k in m if m[k] != sum(c[k] for c in each)]
    if wrong:
        fail(f"{len(wrong)} merged count(s) are not the sum of the files', e.g. {wrong[0]!r}")
    print(f"PASS: {len(files)} files of {len(m)} points merge into their sums")


if __name__ == "__main__":
    main()
