#!/usr/bin/env python3
"""A registered job's phases replaced (issue 29, a pattern that changes
mid-job): on 4 co-simulated boards a two-phase job takes phase events; a
replacement with a bad phase is refused naming the field, and the old phases
run on (same generation, their events still served); a good replacement
(three phases) is re-staged and committed on the job's boards as one fabric
commit, its phases' events are taken by every board; after kill -9 and a
restart the job still has the new phases (the journal) and takes their
events; the probes pass throughout.

  replace_phases.py COSIM LIGHTRAILD SOURCE_DIR
"""
import sys

from daemon_lib import Harness, boundaries_taken, fail, finish_checked

cosim, daemon, src = sys.argv[1:4]


def events(c, job_id, names, boundaries):
    for name in names:
        r = c.phase(job_id, name)
        if not r.get("circuits") or r.get("boundary_ps") is None or r.get("order") != "declared":
            fail("phase %s: no declared boundary: %s" % (name, r))
        boundaries.append(r["boundary_ps"])


def generations(c, boards):
    return {b["name"]: b["generation"] for b in c.fabric()["boards"] if b["name"] in boards}


with Harness(cosim, daemon, src, boards=4, sync=False) as h:
    c = h.start_daemon()
    spec = h.job_file("dp64.job.json")
    job = c.submit(spec)
    if job["state"] != "running" or len(job["boards"]) != 4:
        fail("the job is not running on four boards: %s" % job)
    old = [p["name"] for p in spec["phases"]]
    boundaries = []
    events(c, job["id"], old, boundaries)

    # A bad phase: refused naming the field, nothing changed.
    bad = [dict(p) for p in spec["phases"]] + [{"name": "scatter", "collective": "reduce_scatter",
                                                  "dimension": "data", "bytes": -5}]
    try:
        c.replace_phases(job["id"], bad)
        fail("a phase of -5 bytes was taken")
    except h.client_mod.LightrailError as e:
        if e.status != 400 or e.field != "phases[2].bytes":
            fail("the bad phase was refused as %s %r: %s" % (e.status, e.field, e))
    same = c.job(job["id"])
    if same["generation"] != job["generation"] or same["next_phase"] != old[0] or \
            generations(c, job["boards"]) != {b: job["generation"] for b in job["boards"]}:
        fail("a refused replacement changed the job or its boards: %s" % same)
    events(c, job["id"], old, boundaries)  # the old phases run on

    # A good one: three phases, committed on the job's boards.
    new = [dict(p) for p in spec["phases"]] + [{"name": "scatter", "compute_ps": 2000000,
                                                  "collective": "reduce_scatter", "algorithm": "ring",
                                                  "dimension": "data", "bytes": 48000}]
    r = c.replace_phases(job["id"], new)
    names = [p["name"] for p in new]
    if r["state"] != "running" or sorted(r["boards"]) != sorted(job["boards"]) or \
            r["generation"] == job["generation"] or r["next_phase"] != names[0] or \
            [p["phase"] for p in r["plan"]["phases"]] != names:
        fail("the replacement is not running with three phases on the job's boards: %s" % r)
    gens = generations(c, r["boards"])
    if set(gens.values()) != {r["generation"]}:
        fail("the boards run generations %s, not the replacement's %d" % (gens, r["generation"]))
    events(c, job["id"], names, boundaries)

    # The journal keeps it: kill -9, restart, the same phases take events.
    h.kill_daemon()
    c = h.start_daemon()
    after = c.job(job["id"])
    if after["state"] != "running" or after["generation"] != r["generation"] or \
            [p["phase"] for p in after["plan"]["phases"]] != names:
        fail("after a restart the job is %s" % after)
    events(c, job["id"], names[names.index(after["next_phase"]):] + names, boundaries)
    finish_checked(h, lambda rep: boundaries_taken(rep, boundaries, len(boundaries)))
    print("replaced: a bad phase refused (400 phases[2].bytes) with the old phases running on; 2 -> 3 phases "
          "committed as generation %d on %s; %d boundaries taken by every board, across a kill -9 and a "
          "restart; probes pass" % (r["generation"], ",".join(sorted(r["boards"])), len(boundaries)))
