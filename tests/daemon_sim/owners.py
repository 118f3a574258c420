#!/usr/bin/env python3
"""Owners and roles (issue 30): several named tokens with roles from a
tokens file, reloaded on SIGHUP.

A job records the name of the token that submitted it (never the token). A
manager may not delete, trigger or report progress for another manager's
job (403 naming the owner, nothing done), a reader may change nothing, an
admin may change anything. SIGHUP rereads the tokens file: a token taken out
is refused (401), a new one works; a bad file is logged naming the field and
the tokens in force stay. The owner survives kill -9.

  owners.py COSIM LIGHTRAILD SOURCE_DIR
"""
import json
import os
import signal
import sys
import time

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]
TOKENS = {name: "%s-token-0123456789abcdef" % name for name in ("ops", "alice", "bob", "carol", "viewer")}


def write_tokens(h, roles):
    for name in roles:
        h.write_token(name + ".token", TOKENS[name])
    doc = {"tokens": [{"name": n, "role": r, "token_file": n + ".token"} for n, r in roles.items()]}
    path = h.path("tokens.json")
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f)
    os.chmod(path + ".tmp", 0o600)
    os.replace(path + ".tmp", path)
    return path


def expect(h, method, path, who, status, body=None, naming=None):
    got, _, doc = h.request(method, path, body, TOKENS[who])
    if got != status or (naming and naming not in json.dumps(doc)):
        fail("%s %s as %s: wanted %d%s, got %d %s" %
             (method, path, who, status, " naming " + naming if naming else "", got, doc))
    return doc


def reload(h, wanted):
    before = h.daemon_log().count(wanted)
    h.proc.send_signal(signal.SIGHUP)
    deadline = time.time() + 20
    while h.daemon_log().count(wanted) == before:
        if time.time() > deadline:
            fail("no log line %r after SIGHUP" % wanted)
        time.sleep(0.02)


with Harness(cosim, daemon, src, boards=2) as h:
    tokens = write_tokens(h, {"ops": "admin", "alice": "manager", "bob": "manager", "viewer": "reader"})
    h.start_daemon(tokens=tokens)
    h.wait_locked()
    body = {"job": h.job_file("dp16.job.json")}
    job = expect(h, "POST", "/v1/jobs", "alice", 201, body)
    jid = job["id"]
    if job.get("owner") != "alice" or TOKENS["alice"] in json.dumps(job):
        fail("the job should show its owner's name and never the token: %s" % job)
    # Another manager: refused, naming the owner; nothing done.
    expect(h, "DELETE", "/v1/jobs/" + jid, "bob", 403, naming="alice")
    expect(h, "POST", "/v1/jobs/%s/phase" % jid, "bob", 403, {"phase": 0}, naming="alice")
    expect(h, "POST", "/v1/jobs/%s/progress" % jid, "bob", 403, {"accuracy": 0.5}, naming="alice")
    # A reader changes nothing, not even a job of its own.
    expect(h, "POST", "/v1/jobs", "viewer", 403, body, naming="reader")
    state = h.client.job(jid)
    if state["accuracy"] != 0 or state["phase_events"] != 0:
        fail("a refused request changed the job: %s" % state)
    expect(h, "POST", "/v1/jobs/%s/progress" % jid, "alice", 200, {"accuracy": 0.5})
    # SIGHUP: bob out, carol in.
    write_tokens(h, {"ops": "admin", "alice": "manager", "carol": "manager", "viewer": "reader"})
    reload(h, "tokens reloaded")
    expect(h, "DELETE", "/v1/jobs/" + jid, "bob", 401)
    mine = expect(h, "POST", "/v1/jobs", "carol", 201, body)["id"]
    # A bad file: logged naming the field, the tokens in force stay.
    with open(tokens) as f:
        doc = json.load(f)
    doc["tokens"][2]["role"] = "boss"
    with open(tokens, "w") as f:
        json.dump(doc, f)
    reload(h, "not reloaded")
    if "tokens[2].role" not in h.daemon_log():
        fail("the log does not name the bad field:\n" + h.daemon_log()[-2000:])
    expect(h, "DELETE", "/v1/jobs/" + mine, "carol", 200)
    # The owner is journalled: after kill -9, alice's job is still hers.
    h.kill_daemon()
    h.start_daemon(tokens=write_tokens(h, {"ops": "admin", "alice": "manager", "carol": "manager"}))
    if h.client.job(jid).get("owner") != "alice":
        fail("the owner was lost in the restart: %s" % h.client.job(jid))
    expect(h, "DELETE", "/v1/jobs/" + jid, "carol", 403, naming="alice")
    expect(h, "DELETE", "/v1/jobs/" + jid, "ops", 200)
    h.stop_daemon()
    if TOKENS["alice"] in h.daemon_log():
        fail("a token was logged")
    print("owner recorded; another manager's delete, phase and progress 403 naming the owner; a reader 403; "
          "SIGHUP reload (out: 401, in: works; bad file logged, old set kept); owner kept across kill -9; "
          "admin deletes")
