#!/usr/bin/env python3
"""Two jobs share a fabric of 4 co-simulated boards on disjoint ports, a
third waits for circuits; FastConv moves the OCS share: when job A reports
an accuracy near its target it gives its boards up and the waiting job B is
planned onto them (with the free one) and committed, while job C runs on
throughout. Phase events flow on every job before and after; at the end no
packet was misdelivered, none sent while dark, and every board's probes
pass.

  fastconv.py COSIM LIGHTRAILD SOURCE_DIR
"""
import sys

from daemon_lib import Harness, fail, probes_pass

cosim, daemon, src = sys.argv[1:4]


def run_phases(c, job, n):
    for i in range(n):
        r = c.phase(job["id"], i % 2)
        if job["state"] == "running" and r.get("boundary_ps") is None:
            fail("%s: phase event %d took no boundary: %s" % (job["id"], i, r))


with Harness(cosim, daemon, src, boards=4) as h:
    c = h.start_daemon()
    h.wait_locked()
    a = c.submit(h.job_file("dp32.job.json"), target_accuracy=0.9)
    cj = c.submit(h.job_file("dp16.job.json"), target_accuracy=0.9)
    if a["boards"] != ["b0", "b1"] or cj["boards"] != ["b2"]:
        fail("placement: A on %s, C on %s" % (a["boards"], cj["boards"]))
    # B needs three boards; one is free: refused unless it may wait.
    try:
        c.submit(h.job_file("dp48.job.json"))
        fail("a job that does not fit now was accepted")
    except h.client_mod.LightrailError as e:
        if e.status != 409 or "free" not in e.message:
            fail("refusal: %s %s" % (e.status, e.message))
    b = c.submit(h.job_file("dp48.job.json"), target_accuracy=0.9, wait_for_circuits=True)
    if b["state"] != "waiting" or b["boards"]:
        fail("B should wait for circuits: %s" % b)
    run_phases(c, a, 20)
    run_phases(c, cj, 20)
    # A far from its target keeps its circuits.
    if c.progress(a["id"], 0.5)["circuits_to"]:
        fail("A gave its circuits up at half its target")
    moved = c.progress(a["id"], 0.8)  # 0.8 >= 0.85 * 0.9
    if moved["state"] != "eps" or moved["circuits_to"] != [b["id"]]:
        fail("FastConv did not move A's circuits to B: %s" % moved)
    b = c.job(b["id"])
    if b["state"] != "running" or sorted(b["boards"]) != ["b0", "b1", "b3"]:
        fail("B after the move: %s" % b)
    run_phases(c, b, 20)
    run_phases(c, cj, 20)
    # A on the EPS: its phase events switch nothing.
    if c.phase(a["id"], 0).get("circuits") is not False:
        fail("A's phase event on the EPS switched circuits")
    fab = c.fabric()
    owners = {x["name"]: x.get("job") for x in fab["boards"]}
    if owners != {"b0": b["id"], "b1": b["id"], "b2": cj["id"], "b3": b["id"]}:
        fail("board owners: %s" % owners)
    report, rc = h.finish()
    problems = probes_pass(report)
    if rc != 0:
        problems.append("the simulation's verdict is %d" % rc)
    if problems:
        fail("\n".join(problems))
    packets = sum(x["packets_sent"] for x in report["boards"])
    print("FastConv moved A's circuits to B; C ran on; %d packets checked: 0 misdelivered, 0 dark" % packets)
