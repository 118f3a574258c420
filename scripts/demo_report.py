#!/usr/bin/env python3
"""The main job's closing table: for every phase boundary the daemon
answered, what the planner predicted against what the co-simulation
measured on the switch edges of the job's boards.

  demo_report.py PHASES.jsonl JOB.json REPORT.json [--json TABLE.json]

PHASES.jsonl: one daemon answer per line (POST /v1/jobs/{id}/phase);
JOB.json: the daemon's job (POST /v1/jobs reply, with its plan);
REPORT.json: lightrail-cosim's report (per board `watched_boundaries`).

A phase's collective starts at its boundary (the timed trigger: the
circuits are already set, no edge); its circuits for the next phase are set
up when its rounds end, at the boundary into the next event step. The
planner predicts that instant as boundary + the phase's modelled
communication time and the reconfigurations between its rounds; the edges show when the ports went dark for it and for
how long. Exit 1 if an answered boundary is missing on a board of the job.
With --json, the table is also written as JSON for lightrail-plot's
plan-vs-measured picture (docs/plots.md): per boundary its phase, board
time, boards with edges, predicted and measured next boundary (null when
the boards differ or none measured it), and the least and greatest dark time
and the skew of the falls, in ps.
"""
import json
import sys

args = sys.argv[1:]
table_path = None
if "--json" in args:
    i = args.index("--json")
    if i + 1 >= len(args):
        sys.exit("demo_report.py: --json needs a file name")
    table_path = args[i + 1]
    del args[i:i + 2]
if len(args) != 3:
    sys.exit(__doc__)
phases_path, job_path, report_path = args
answers = [json.loads(line) for line in open(phases_path) if line.strip()]
job = json.load(open(job_path))
report = json.load(open(report_path))
plan = job["plan"]
# The rounds' modelled time plus the reconfigurations between them (the one
# into the phase is hidden in the compute gap before it).
comm = {p["phase"]: p["comm_ps"] + (p["reconfigurations"] - int(p["boundary_reconfiguration"])) *
        plan["reconfiguration_ps"] for p in plan["phases"]}
watched = {"b%d" % b["board"]: b["watched_boundaries"] for b in report["boards"]}

print("planner: switch reconfiguration (schedule guard) %.3f ns; predicted iteration %.3f us" %
      (plan["reconfiguration_ps"] / 1e3, plan["iteration_ps"] / 1e6))
print("%-10s %14s %10s | %14s %14s %9s %14s %9s" %
      ("phase", "boundary ps", "edges", "predicted next", "measured next", "diff ns", "dark ns", "skew ps"))
missing = 0
rows = []
for a in answers:
    t = a.get("boundary_ps")
    if t is None:
        continue
    took = 0
    nxt, falls, darks = [], [], []
    for name in job["boards"]:
        w = watched.get(name, [])
        took += any(e["kind"] == "trigger" and e["board_ps"] == t for e in w)
        later = [e for e in w if e["kind"] == "event_start" and e["board_ps"] > t]
        if later:
            e = min(later, key=lambda e: e["board_ps"])
            nxt.append(e["board_ps"])
            if e["dark_from_sim_ps"] is not None and e["dark_until_sim_ps"] is not None:
                falls.append(e["dark_from_sim_ps"])
                darks.append((e["dark_until_sim_ps"] - e["dark_from_sim_ps"]) / 1e3)
    if took < len(job["boards"]):
        missing += len(job["boards"]) - took
    predicted = t + comm[a["phase"]]
    if nxt and len(set(nxt)) == 1:
        measured = "%14d %9.1f" % (nxt[0], (nxt[0] - predicted) / 1e3)
    else:
        measured = "%14s %9s" % ("-" if not nxt else "differ", "")
    rows.append({"phase": a["phase"], "boundary_ps": t, "boards_with_edges": took, "boards": len(job["boards"]),
                 "predicted_next_ps": predicted,
                 "measured_next_ps": nxt[0] if nxt and len(set(nxt)) == 1 else None,
                 "dark_min_ps": min(darks) * 1e3 if darks else None,
                 "dark_max_ps": max(darks) * 1e3 if darks else None,
                 "skew_ps": max(falls) - min(falls) if falls else None})
    dark = "%.3f..%.3f" % (min(darks), max(darks)) if darks else "-"
    skew = "%.1f" % (max(falls) - min(falls)) if falls else "-"
    print("%-10s %14d %6d/%-3d | %14d %s %14s %9s" % (a["phase"], t, took, len(job["boards"]), predicted, measured,
                                                      dark, skew))
print("edges: boards whose own edges show the boundary at the answered time; next: the boundary into the next "
      "phase's event step (board time), predicted = boundary + the phase's modelled communication and the reconfigurations between its rounds; dark: first "
      "gate fall to last rise there, simulated (true) time, the guard plus the laser's early retune; skew: "
      "spread of the boards' falls")
if table_path:
    with open(table_path, "w") as f:
        json.dump({"reconfiguration_ps": plan["reconfiguration_ps"], "iteration_ps": plan["iteration_ps"],
                   "rows": rows}, f, indent=1)
if missing:
    print("%d answered boundaries missing on the job's boards" % missing)
    sys.exit(1)
