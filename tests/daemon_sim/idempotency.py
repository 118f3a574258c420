#!/usr/bin/env python3
"""Safe retries of POST /v1/jobs with an Idempotency-Key (issue 30).

A client sends a submission and closes its connection before reading the
reply (the reply is lost); its retry with the same key gets the job the
first request made (201, the same id, Idempotent-Replayed: true) and the
daemon holds one job. The same key with another body is 422 naming the key;
the key survives kill -9 and a second restart (the compacted journal); once
the job is deleted the key answers 409 rather than making the job again,
before and after two restarts; a new key makes a new job.

  idempotency.py COSIM LIGHTRAILD SOURCE_DIR
"""
import json
import socket
import sys
import time

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]
TOKEN = "test-token-0123456789abcdef"


def post_and_hang_up(h, body, key):
    """Sends the whole request, then closes without reading the reply."""
    data = json.dumps(body).encode()
    port = int(h.url.rsplit(":", 1)[1])
    head = ("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
            "Content-Type: application/json\r\nIdempotency-Key: %s\r\nContent-Length: %d\r\n\r\n" %
            (port, TOKEN, key, len(data)))
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head.encode() + data)


def jobs(h):
    return h.client.jobs()["jobs"]


def submit(h, body, key):
    return h.request("POST", "/v1/jobs", body, TOKEN, {"Idempotency-Key": key})


def expect_replay(h, body, key, job_id, when):
    status, headers, doc = submit(h, body, key)
    if status != 201 or doc.get("id") != job_id or headers.get("idempotent-replayed") != "true":
        fail("%s: the retry with key %s answered %d %s (headers %s), not job %s again" %
             (when, key, status, doc, headers, job_id))
    if [j["id"] for j in jobs(h)] != [job_id]:
        fail("%s: the daemon holds %s, not just %s" % (when, [j["id"] for j in jobs(h)], job_id))


def expect_refused(h, body, key, status_wanted, when):
    status, _, doc = submit(h, body, key)
    err = (doc or {}).get("error", {})
    if status != status_wanted or err.get("field") != "Idempotency-Key" or key not in err.get("message", ""):
        fail("%s: wanted %d naming key %s, got %d %s" % (when, status_wanted, key, status, doc))


with Harness(cosim, daemon, src, boards=2) as h:
    h.start_daemon()
    h.wait_locked()
    body = {"job": h.job_file("dp16.job.json"), "target_accuracy": 0.9}
    post_and_hang_up(h, body, "retry-1")
    deadline = time.time() + 30
    while not jobs(h) and time.time() < deadline:
        time.sleep(0.02)
    if len(jobs(h)) != 1:
        fail("the hung-up submission made %d jobs" % len(jobs(h)))
    first = jobs(h)[0]["id"]
    expect_replay(h, body, "retry-1", first, "after the lost reply")
    # The same key with another request is a client bug: refused, nothing done.
    other = dict(body, target_accuracy=0.8)
    expect_refused(h, other, "retry-1", 422, "another body")
    if len(jobs(h)) != 1:
        fail("the refused request made a job: %s" % jobs(h))
    # Journalled: kept across kill -9, and across the compacted journal.
    for restart in ("after kill -9", "after a second restart"):
        h.kill_daemon()
        h.start_daemon()
        expect_replay(h, body, "retry-1", first, restart)
    if h.client.delete(first)["deleted"] != first:
        fail("the delete failed")
    expect_refused(h, body, "retry-1", 409, "after the delete")
    # The first restart reads the key from the job's records and the delete;
    # the second from the compacted journal's record of the key alone.
    for restart in ("after the delete and a restart", "after the delete and a second restart"):
        h.kill_daemon()
        h.start_daemon()
        expect_refused(h, body, "retry-1", 409, restart)
    if jobs(h):
        fail("a deleted job came back: %s" % jobs(h))
    status, _, doc = submit(h, body, "retry-2")
    if status != 201 or doc["id"] == first:
        fail("a new key made no new job: %d %s" % (status, doc))
    h.stop_daemon()
    print("lost reply, retried: one job (%s); another body 422; kept across 2 restarts; deleted: 409; "
          "a new key: %s" % (first, doc["id"]))
