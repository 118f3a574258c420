#!/usr/bin/env python3
"""Both servers under a descriptor limit below their connection cap (issue
30, defect 9; ulimit -n 64, caps 128 and 256), each flooded by 100
connections that never finish a request:

- the board server (`lightrail-cosim serve`) answers a new client at once,
  and again after 20 of the flood close; `lightrail-cosim stop` reaches it
  and it writes its report and exits 0;
- lightraild serves a client with the token within 1 s a request, and
  exits 0 on SIGTERM.

  descriptor_limit.py COSIM LIGHTRAILD SOURCE_DIR
"""
import socket
import sys
import time

from daemon_lib import Harness, fail, finish_checked

cosim, daemon, src = sys.argv[1:4]
LIMIT, FLOOD = 64, 100


def flood(port, first_bytes):
    held = []
    for _ in range(FLOOD):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if first_bytes:
            s.sendall(first_bytes)
        held.append(s)
    return held


def hello(port, when):
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.sendall(b"HELLO 0\n")
            s.settimeout(3)
            answer = s.recv(200)
    except OSError as e:
        fail("the board server, %s: %s" % (when, e))
    if not answer.startswith(b"OK"):
        fail("the board server, %s: %r" % (when, answer))
    return time.monotonic() - t0


with Harness(cosim, daemon, src, boards=2, sync=False, serve_nofile=LIMIT) as h:
    held = flood(h.board_port, b"")
    time.sleep(0.3)
    waits = [hello(h.board_port, "with %d silent connections held" % FLOOD)]
    for s in held[:20]:
        s.close()
    time.sleep(0.3)
    waits.append(hello(h.board_port, "after 20 of them closed"))

    c = h.start_daemon(nofile=LIMIT)
    strangers = flood(int(h.url.rsplit(":", 1)[1]), b"GET /v1/jobs HTTP/1.1\r\nHo")
    time.sleep(0.3)
    served = []
    for i in range(10):
        t0 = time.monotonic()
        c.submit(h.job_file("dp16.job.json")) if i == 0 else c.jobs()
        served.append(time.monotonic() - t0)
    if max(served) > 1.0:
        fail("lightraild took %.2f s to serve a request with %d strangers held" % (max(served), FLOOD))
    h.proc.terminate()
    if h.proc.wait(timeout=20) != 0:
        fail("lightraild exited %s on SIGTERM" % h.proc.returncode)
    finish_checked(h)  # `lightrail-cosim stop` with the rest of the flood still held; the report
    print("ulimit -n %d, %d connections held: board server answered in %.0f / %.0f ms, stopped and reported; "
          "lightraild served 10 requests (max %.0f ms), exit 0" %
          (LIMIT, FLOOD, 1e3 * waits[0], 1e3 * waits[1], 1e3 * max(served)))
