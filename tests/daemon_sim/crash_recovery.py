#!/usr/bin/env python3
"""kill -9 of lightraild in the middle of a commit, then a restart: the
daemon reads its journal and the boards and reaches one consistent state.

Round 1: the daemon dies once every board of job Y is armed, before the
commit is journalled done; it is restarted before the commit time, cancels
the armed boards (none switches, their generation is unchanged) and does not
list Y; job X runs on untouched. Round 2: the same crash, but the restart
comes after the commit time: the boards have swapped, and the daemon takes
the job as running. In both, no board is left armed, and the probes pass.

  crash_recovery.py COSIM LIGHTRAILD SOURCE_DIR
"""
import sys
import time

from daemon_lib import Harness, fail, finish_checked, regmap_register

cosim, daemon, src = sys.argv[1:4]
CRASH = {"LIGHTRAILD_TEST_CRASH": "after_arm"}


def boards(c):
    return {b["name"]: b for b in c.fabric()["boards"]}


def no_board_armed(c, when):
    armed = [n for n, b in boards(c).items() if b.get("commit_pending")]
    if armed:
        fail("%s: boards still armed: %s" % (when, armed))


def submit_and_crash(h, job):
    h.kill_daemon()
    c = h.start_daemon(CRASH)
    try:
        c.submit(job)
        fail("the daemon answered a commit it should have died in")
    except (OSError, h.client_mod.LightrailError) as e:
        if isinstance(e, h.client_mod.LightrailError) and e.status != 0:
            fail("the crashing daemon answered %s" % e)
    h.proc.wait(timeout=30)
    if h.proc.returncode != -9:
        fail("the daemon exited with %s, not SIGKILL" % h.proc.returncode)


# A commit margin of 8 ms of board time: several wall seconds here, room to
# restart before it in round 1.
with Harness(cosim, daemon, src, boards=4, commit_margin_us=8000) as h:
    c = h.start_daemon()
    h.wait_locked()
    x = c.submit(h.job_file("dp32.job.json"))
    if x["boards"] != ["b0", "b1"]:
        fail("X on %s" % x["boards"])
    before = boards(c)

    # Round 1: restart before T.
    submit_and_crash(h, h.job_file("dp32.job.json"))
    c = h.start_daemon()
    after = boards(c)
    no_board_armed(c, "round 1")
    for n in ("b2", "b3"):
        if after[n]["generation"] != before[n]["generation"] or after[n].get("running"):
            fail("round 1: %s changed: %s" % (n, after[n]))
    jobs = c.jobs()["jobs"]
    if [j["id"] for j in jobs] != [x["id"]] or jobs[0]["state"] != "running":
        fail("round 1: jobs after recovery: %s" % jobs)
    for n in ("b0", "b1"):
        if after[n]["generation"] != before[n]["generation"] or not after[n]["running"]:
            fail("round 1: X's board %s changed" % n)
    for i in range(10):
        if c.phase(x["id"], i % 2).get("boundary_ps") is None:
            fail("round 1: X's phase events stopped")

    # Round 2: restart after T (the boards swap while no daemon runs).
    submit_and_crash(h, h.job_file("dp32.job.json"))
    # Until both boards have swapped at T (however slowly a loaded machine
    # runs the simulation): STATUS.COMMIT_PENDING clear on b2 and b3.
    status = regmap_register("STATUS")
    COMMIT_PENDING = 1 << next(f["lsb"] for f in status["fields"] if f["name"] == "COMMIT_PENDING")
    REG_STATUS = status["offset"]
    deadline = time.time() + 300
    while any(h.read_board(b, REG_STATUS) & COMMIT_PENDING for b in (2, 3)):
        if time.time() > deadline:
            fail("round 2: the armed boards never reached their commit time")
        time.sleep(0.2)
    c = h.start_daemon()
    no_board_armed(c, "round 2")
    jobs = {j["id"]: j for j in c.jobs()["jobs"]}
    y = [j for j in jobs.values() if j["id"] != x["id"]]
    if len(y) != 1 or y[0]["state"] != "running" or sorted(y[0]["boards"]) != ["b2", "b3"]:
        fail("round 2: the swapped commit is not taken as running: %s" % jobs)
    now = boards(c)
    if now["b2"]["generation"] != y[0]["generation"] or now["b3"]["generation"] != y[0]["generation"]:
        fail("round 2: generations %s" % now)
    for i in range(10):
        if c.phase(y[0]["id"], i % 2).get("boundary_ps") is None:
            fail("round 2: the recovered job's phase events do not switch")
    report = finish_checked(h)
    print("kill -9 mid-commit: restart before T cancelled both armed boards; restart after T took the swapped "
          "commit as running; no board left armed; probes pass")
