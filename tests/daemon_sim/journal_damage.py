#!/usr/bin/env python3
"""Journal records that parse but were damaged (issue 30, defect 8): the
start stops (exit 3) naming the line and the record, before any board is
touched; a damaged `generation` record, which alone remembers the job ids
compaction dropped, is one of them (taken as it was, ids could be reused).
An undamaged journal starts and lists its job. No simulation: the fabric's
one board is unreachable.

  journal_damage.py COSIM LIGHTRAILD SOURCE_DIR   (COSIM unused)
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from daemon_lib import fail

daemon, src = sys.argv[2:4]
work = tempfile.mkdtemp(prefix="lightraild-journal-")
fabric = os.path.join(work, "fabric.json")
with open(fabric, "w") as f:
    json.dump({"name": "unreachable", "rails": [{"rail": 0, "switch": "awgr", "radix": 64}],
               "boards": [{"name": "b0", "uri": "sim://127.0.0.1:1/0", "rail": 0, "first_switch_port": 0}]}, f)
token = os.path.join(work, "token")
with open(token, "w") as f:
    f.write("journal-test-token-0123456789\n")
os.chmod(token, 0o600)
with open(os.path.join(src, "examples/daemon/dp16.job.json")) as f:
    job = json.load(f)
admit = {"type": "admit", "id": "j2", "job": job, "target_accuracy": None, "wait_for_circuits": True}
good_generation = {"type": "generation", "next": 5, "next_job": 9}


def start(records):
    state = os.path.join(work, "state")
    shutil.rmtree(state, ignore_errors=True)
    os.mkdir(state, 0o700)
    with open(os.path.join(state, "journal.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    port_file = os.path.join(work, "port")
    if os.path.exists(port_file):
        os.unlink(port_file)
    return subprocess.Popen([daemon, "--fabric", fabric, "--token-file", token, "--state-dir", state, "--port", "0",
                             "--port-file", port_file, "--allow-unlocked"],
                            stderr=subprocess.PIPE, text=True), port_file


cases = [
    ("a commit's generation is text", [admit, {"type": "commit_intent", "id": "j3", "job": job,
                                               "target_accuracy": None, "wait_for_circuits": False,
                                               "generation": "4", "boards": [0]}], 2, '"generation" is "4"'),
    ("a board this fabric does not have", [{"type": "commit_intent", "id": "j3", "job": job, "target_accuracy": None,
                                           "wait_for_circuits": False, "generation": 4, "boards": [7]}], 1,
     '"boards"'),
    ("generation without next_job", [admit, {"type": "generation", "next": 5}], 2, 'no "next_job"'),
    ("generation's next_job 0", [admit, {"type": "generation", "next": 5, "next_job": 0}], 2, '"next_job" is 0'),
    ("an unknown type", [admit, good_generation, {"type": "comit_done", "id": "j2"}], 3, "unknown type"),
    ("an admitted job that is not one", [dict(admit, job={"name": "x", "gpus": -1}), good_generation], 1,
     "its job"),
]
for what, records, line, needle in cases:
    proc, _ = start(records)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("%s: lightraild started" % what)
    if proc.returncode != 3 or ("line %d is not a record" % line) not in err or needle not in err:
        fail("%s: exit %s, want 3 naming line %d and %s:\n%s" % (what, proc.returncode, line, needle, err[-1500:]))

# Undamaged: it starts and lists the waiting job.
proc, port_file = start([admit, good_generation])
deadline = time.time() + 60
while not (os.path.exists(port_file) and open(port_file).read().strip()):
    if proc.poll() is not None or time.time() > deadline:
        fail("a good journal did not start: %s" % proc.stderr.read()[-1500:])
    time.sleep(0.02)
with urllib.request.urlopen("http://127.0.0.1:%s/v1/jobs" % open(port_file).read().strip(), timeout=30) as r:
    ids = [j["id"] for j in json.load(r)["jobs"]]
proc.send_signal(signal.SIGTERM)
proc.communicate(timeout=30)
if ids != ["j2"] or proc.returncode != 0:
    fail("a good journal: jobs %s, exit %s" % (ids, proc.returncode))
shutil.rmtree(work)
print("%d damaged journals refused naming line and record; a good one starts" % len(cases))
