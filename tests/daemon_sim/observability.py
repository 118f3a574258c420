#!/usr/bin/env python3
"""Structured logs, request ids and metrics of lightraild (issue 30).

The daemon runs with --log-format json: every line of its log is one JSON
object with time, level and msg. A request sent with X-Request-Id gets it
back in the reply, and its log lines carry it; a request without one gets
an id of the daemon's, also in its lines. GET /metrics: every family the
daemon serves is listed in docs/lightraild.md with the type it serves;
build info, each board's state, the journal's fsync latency and the queue
depth are among them, with values that follow what was done.

  observability.py COSIM LIGHTRAILD SOURCE_DIR
"""
import json
import os
import re
import sys
import urllib.request

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]
TOKEN = "test-token-0123456789abcdef"


def documented_types():
    """name -> type from the metrics table of docs/lightraild.md."""
    with open(os.path.join(src, "docs", "lightraild.md")) as f:
        text = f.read()
    table = text[text.index("### Metrics"):text.index("### Logs")]
    types = {}
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) >= 2:
            for name in re.findall(r"`(lightraild_[a-z_]+)`", cells[0]):
                types[name] = cells[1]
    return types


def served(text):
    """(name -> type, [(name, labels, value)]) of an exposition."""
    types, samples = {}, []
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) (\S+)$", line)
        if m:
            types[m.group(1)] = m.group(2)
        elif line and not line.startswith("#"):
            m = re.match(r"([a-z_]+)(\{.*\})? (\S+)$", line)
            if not m:
                fail("not an exposition line: %r" % line)
            samples.append((m.group(1), m.group(2) or "", float(m.group(3))))
    return types, samples


def value(samples, name, labels=""):
    hits = [v for n, l, v in samples if n == name and all(x in l for x in labels.split(",") if x)]
    if len(hits) != 1:
        fail("%d samples of %s{%s}" % (len(hits), name, labels))
    return hits[0]


with Harness(cosim, daemon, src, boards=2) as h:
    h.start_daemon(args=["--log-format", "json"])
    h.wait_locked()
    status, headers, job = h.request("POST", "/v1/jobs", {"job": h.job_file("dp16.job.json")}, TOKEN,
                                     {"X-Request-Id": "slurm-7.prolog"})
    if status != 201 or headers.get("x-request-id") != "slurm-7.prolog":
        fail("submit: %d, X-Request-Id %r" % (status, headers.get("x-request-id")))
    status, headers, _ = h.request("GET", "/v1/jobs/nope")
    ours = headers.get("x-request-id", "")
    if status != 404 or not re.fullmatch(r"[0-9a-f]{16}", ours):
        fail("a request without an id should get one of the daemon's: %d %r" % (status, ours))
    with urllib.request.urlopen(h.url + "/metrics", timeout=30) as r:
        metrics_text = r.read().decode()
    h.stop_daemon()

    lines = [line for line in h.daemon_log().splitlines() if line.strip()]
    events = []
    for line in lines:
        try:
            e = json.loads(line)
        except ValueError:
            fail("a log line is not JSON: %r" % line)
        if not all(k in e for k in ("time", "level", "msg")):
            fail("a log line lacks time, level or msg: %r" % line)
        events.append(e)
    for rid, what in (("slurm-7.prolog", "POST /v1/jobs"), (ours, "GET /v1/jobs/nope")):
        mine = [e for e in events if e.get("request_id") == rid]
        if not any(e.get("target") == what.split()[1] and e.get("method") == what.split()[0] for e in mine):
            fail("no access line of %s with request_id %s: %s" % (what, rid, mine))

    types, samples = served(metrics_text)
    docs = documented_types()
    wrong = ["%s: served as %s, documented as %s" % (n, t, docs.get(n)) for n, t in types.items() if docs.get(n) != t]
    if wrong:
        fail("metrics and docs/lightraild.md disagree:\n" + "\n".join(wrong))
    missing = sorted(set(docs) - set(types))
    if missing:
        fail("documented but not served: %s" % missing)
    if value(samples, "lightraild_build_info", 'version="') != 1:
        fail("build info")
    board = job["boards"][0]
    other = "b1" if board == "b0" else "b0"
    for b, state in ((board, "job"), (other, "free")):
        if value(samples, "lightraild_board_state", 'board="%s",state="%s"' % (b, state)) != 1:
            fail("%s should be in state %s:\n%s" % (b, state, metrics_text))
    if value(samples, "lightraild_board_state", 'board="%s",state="free"' % board) != 0:
        fail("a board in two states")
    if value(samples, "lightraild_journal_fsync_seconds_count") < 2:  # the commit's intent and done
        fail("the journal's fsyncs were not counted")
    if value(samples, "lightraild_http_queue_depth") != 0:
        fail("queue depth")
    print("JSON log: %d lines, each an object; request ids echoed and in their lines (%s, ours %s); "
          "%d metric families, each documented with its type" % (len(lines), "slurm-7.prolog", ours, len(types)))
