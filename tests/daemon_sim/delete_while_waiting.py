#!/usr/bin/env python3
"""A job is deleted while another waits for its boards (issue 30, defect 1).

Job A (3 boards) takes 3 phase events; once its boards wait at the next
phase's event step, job B waits for circuits and A is deleted: the daemon
stops A's boards and commits B onto them. On b2 that event step lights no
port, so its STOP changes no output. B then takes phase events. Every board
of the two jobs must show one STOP and two good swaps in the simulation's
report, the probes pass and the verdict is 0. (The co-simulation's reference
once missed a STOP with nothing lit: b2 counted no stop and judged B's
swap against no time.)

  delete_while_waiting.py COSIM LIGHTRAILD SOURCE_DIR
"""
import sys
import time

from daemon_lib import Harness, fail, finish_checked, regmap_register

cosim, daemon, src = sys.argv[1:4]
STATUS = regmap_register("STATUS")
WAITING = next(1 << f["lsb"] for f in STATUS["fields"] if f["name"] == "WAITING_TRIGGER")


def wait_at_event_step(h, boards, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if all(h.read_board(b, STATUS["offset"]) & WAITING for b in boards):
            return
        time.sleep(0.01)
    fail("boards %s did not reach the next phase's event step" % boards)


def one_stop_two_swaps(report):
    problems = []
    for b in report["boards"][:3]:
        if b["stops"] != 1:
            problems.append("board %d: the reference took %d STOPs, the daemon gave 1" % (b["board"], b["stops"]))
        bad = [s for s in b["swaps"] if not s["ok"]]
        if len(b["swaps"]) != 2 or bad:
            problems.append("board %d: swaps %s" % (b["board"], b["swaps"]))
    return problems


with Harness(cosim, daemon, src, boards=4) as h:
    c = h.start_daemon()
    h.wait_locked()
    a = c.submit(h.job_file("dp48.job.json"))
    if a["state"] != "running" or a["boards"] != ["b0", "b1", "b2"]:
        fail("A: %s" % a)
    for i in range(3):
        c.phase(a["id"], i % 2)
    b = c.submit(h.job_file("dp48.job.json"), wait_for_circuits=True)
    if b["state"] != "waiting":
        fail("B should wait: %s" % b)
    wait_at_event_step(h, [0, 1, 2])
    gone = c.delete(a["id"])
    if gone["circuits_to"] != [b["id"]]:
        fail("the delete did not give A's boards to B: %s" % gone)
    b = c.job(b["id"])
    if b["state"] != "running" or b["boards"] != ["b0", "b1", "b2"]:
        fail("B after the delete: %s" % b)
    for i in range(3):
        r = c.phase(b["id"], i % 2)
        if r.get("boundary_ps") is None:
            fail("B's phase event %d took no boundary: %s" % (i, r))
    finish_checked(h, one_stop_two_swaps)
    print("A deleted at its event step while B waited: B runs on b0-b2; one STOP and two good swaps per board")
