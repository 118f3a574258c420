#!/usr/bin/env python3
"""The main job's closing table: for every phase boundary the daemon
answered, what the planner predicted against what the co-simulation
measured on the switch edges of every board.

  demo_report.py PHASES.jsonl JOB.json REPORT.json

PHASES.jsonl: one daemon answer per line (POST /v1/jobs/{id}/phase);
JOB.json: the daemon's job (GET /v1/jobs/{id}, with its plan);
REPORT.json: lightrail-cosim's report (per board `triggered_boundaries`).
Exit 1 if any answered boundary is missing on a board of the job.
"""
import json
import sys

phases_path, job_path, report_path = sys.argv[1:4]
answers = [json.loads(line) for line in open(phases_path) if line.strip()]
job = json.load(open(job_path))
report = json.load(open(report_path))
plan = job["plan"]
reconf_ps = plan["reconfiguration_ps"]
names = {b["name"]: i for i, b in enumerate(sorted(job["boards"]))}
by_board = {}
for b in report["boards"]:
    by_board["b%d" % b["board"]] = {e["board_ps"]: e for e in b["triggered_boundaries"]}

print("planner: switch reconfiguration (schedule guard) %.3f ns per boundary; predicted iteration %.3f us" %
      (reconf_ps / 1e3, plan["iteration_ps"] / 1e6))
print("%-10s %16s %12s %14s %22s %12s" % ("phase", "boundary ps", "asked +ns", "planner ns",
                                         "measured dark ns", "skew ps"))
missing = 0
for a in answers:
    t = a.get("boundary_ps")
    if t is None:
        continue
    darks, falls = [], []
    for name in job["boards"]:
        e = by_board.get(name, {}).get(t)
        if e is None:
            missing += 1
            continue
        if e["dark_from_sim_ps"] is not None and e["dark_until_sim_ps"] is not None:
            darks.append((e["dark_until_sim_ps"] - e["dark_from_sim_ps"]) / 1e3)
            falls.append(e["dark_from_sim_ps"])
    dark = "%.3f..%.3f" % (min(darks), max(darks)) if darks else "-"
    skew = "%.1f" % (max(falls) - min(falls)) if falls else "-"
    print("%-10s %16d %12.1f %14.3f %22s %12s" % (a["phase"], t, (t - a["requested_board_ps"]) / 1e3,
                                                  reconf_ps / 1e3, dark, skew))
print("measured dark = first gate fall to last rise at the boundary, on the simulated (true) time axis: the "
      "planner's reconfiguration plus the laser's early retune before the boundary; skew = spread of the "
      "boards' falls")
if missing:
    print("%d boundary edges missing on the job's boards" % missing)
    sys.exit(1)
