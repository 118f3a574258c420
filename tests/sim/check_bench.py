#!/usr/bin/env python3
"""`lightrail-cosim bench` end to end on a short run: every part runs, each
board round (the first in the bench's process, the others in their own)
passes its checks, and the harness cost it prints is the median of the
rounds it lists. Speed itself is not judged here (a shared machine); the
docs/figures.md's figures come from the full bench."""
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

rounds = 3
# Started from a directory whose name holds a space: the bench starts its
# later rounds and sync parts without a shell.
work = tempfile.mkdtemp(prefix="bench runs ")
cosim = os.path.join(work, "lightrail-cosim")
os.symlink(os.path.abspath(sys.argv[1]), cosim)
try:
    out = subprocess.run([cosim, "bench", "--json", "--cycles", "20000", "--rounds", str(rounds), "--sync-us", "10"],
                         check=True, capture_output=True, text=True).stdout
finally:
    shutil.rmtree(work)
r = json.loads(out)

def positive(x, what):
    if not (isinstance(x, (int, float)) and math.isfinite(x) and x > 0):
        sys.exit(f"{what}: {x!r} is not a positive number")

assert len(r["rounds"]) == rounds, r["rounds"]
for i, rd in enumerate(r["rounds"]):
    for k in ("board_cycles_per_cpu_s", "bare_top_cycles_per_cpu_s", "bare_top_rising_only_cycles_per_cpu_s"):
        positive(rd[k], f"round {i} {k}")
    assert math.isclose(rd["bare_over_cosim"], rd["bare_top_cycles_per_cpu_s"] / rd["board_cycles_per_cpu_s"]), rd
for key in ("bare_over_cosim", "bare_rising_only_over_cosim"):
    each = [rd[key] for rd in r["rounds"]]
    assert math.isclose(r[key], statistics.median(each)), (key, r[key], each)
    assert r[key + "_rounds"] == {"min": min(each), "median": statistics.median(each), "max": max(each)}, key
assert r["cosim"]["checks_ok"] is True, r["cosim"]
assert r["cosim"]["switch_events"] > 0, r["cosim"]
assert r["upload_full_bank"]["steps"] == 4096, r["upload_full_bank"]
assert [s["boards"] for s in r["sync"]] == [2, 4, 8, 16], r["sync"]
for s in r["sync"]:
    assert "error" not in s, s
print(f"bench ran: harness cost {r['bare_over_cosim']:.2f}x, median of {rounds} rounds")
