#!/usr/bin/env python3
"""The state directory deleted under a running lightraild (issue 30,
defect 2). The daemon notices (at the next change, or its next keepalive
within seconds), writes the journal and the lease token back from memory
and goes on; after a kill -9 and a restart every job is still there, on
the boards it had, and no board is blocked. Replaced by something it cannot
write into, the state directory makes every change a 503 that changes
nothing, until it can be written again. GET /readyz is 503 naming the
journal meanwhile, and naming a board once the boards are gone.

  state_dir_lost.py COSIM LIGHTRAILD SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import time

from daemon_lib import Harness, fail, finish_checked

cosim, daemon, src = sys.argv[1:4]


def readyz(h):
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(h.url + "/readyz", timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def wait_readyz(h, status, words, timeout=15):
    deadline = time.time() + timeout
    while True:
        got = readyz(h)
        if got[0] == status and all(w in json.dumps(got[1]) for w in words):
            return
        if time.time() > deadline:
            fail("/readyz is %s, not %d naming %s" % (got, status, words))
        time.sleep(0.1)


def metric(h, name):
    import urllib.request
    text = urllib.request.urlopen(h.url + "/metrics", timeout=30).read().decode()
    return next(float(l.split()[-1]) for l in text.splitlines() if l.startswith(name + " "))


with Harness(cosim, daemon, src, boards=4) as h:
    c = h.start_daemon()
    h.wait_locked()
    state = h.path("state")
    with open(os.path.join(state, "lease-token")) as f:
        lease = f.read()
    x = c.submit(h.job_file("dp32.job.json"))

    # Deleted: the next change writes it back first.
    shutil.rmtree(state)
    y = c.submit(h.job_file("dp16.job.json"))
    if y["state"] != "running":
        fail("Y: %s" % y)
    if not os.path.exists(os.path.join(state, "journal.jsonl")):
        fail("the journal was not written back")
    with open(os.path.join(state, "lease-token")) as f:
        if f.read() != lease:
            fail("the lease token written back differs")

    # Deleted while idle: the keepalive writes it back.
    shutil.rmtree(state)
    deadline = time.time() + 20
    while not os.path.exists(os.path.join(state, "journal.jsonl")):
        if time.time() > deadline:
            fail("the keepalive did not write the state directory back")
        time.sleep(0.1)
    if metric(h, "lightraild_state_restored_total") != 2:
        fail("lightraild_state_restored_total is not 2")

    # Replaced by a file: changes are refused, nothing is done.
    shutil.rmtree(state)
    open(state, "w").close()
    before = c.jobs()["jobs"]
    for attempt in (lambda: c.submit(h.job_file("dp16.job.json")), lambda: c.delete(x["id"])):
        try:
            attempt()
            fail("a change was accepted with no journal to write it to")
        except h.client_mod.LightrailError as e:
            if e.status != 503 or "journal" not in e.message:
                fail("refusal: %s" % e)
    if c.jobs()["jobs"] != before:
        fail("a refused change changed the jobs")
    if metric(h, "lightraild_state_ok") != 0:
        fail("lightraild_state_ok is not 0 with the journal gone")
    wait_readyz(h, 503, ["journal"])
    os.unlink(state)
    c.progress(x["id"], 0.1)  # writes it back
    if metric(h, "lightraild_state_ok") != 1:
        fail("lightraild_state_ok is not 1 once written back")
    wait_readyz(h, 200, ["true"])

    # A restart from what was written back: the jobs, their boards, no block.
    h.kill_daemon()
    c = h.start_daemon()
    jobs = {j["id"]: j for j in c.jobs()["jobs"]}
    if sorted(jobs) != sorted([x["id"], y["id"]]) or jobs[x["id"]]["boards"] != x["boards"] or \
            jobs[y["id"]]["boards"] != y["boards"] or any(j["state"] != "running" for j in jobs.values()):
        fail("after the restart: %s" % jobs)
    blocked = [b["name"] for b in c.fabric()["boards"] if b.get("blocked")]
    if blocked:
        fail("boards blocked after the restart: %s" % blocked)
    c.phase(x["id"], 0)
    wait_readyz(h, 200, ["true"])
    # The boards gone (the simulation stopped, its report written): not ready.
    subprocess.run([cosim, "stop", "--port", str(h.board_port)], check=True, stdout=subprocess.DEVNULL)
    h.serve.wait(timeout=60)
    wait_readyz(h, 503, ["unreachable"])
    finish_checked(h)
    print("state directory deleted twice and replaced once: written back, changes refused meanwhile; "
          "after kill -9 both jobs run on their boards, none blocked")
