#!/usr/bin/env python3
"""Issue 31, item 9: when lightraild holds a board's lease, an engineer's
`lightrail upload` to it is refused (exit 4, nothing changed) naming the
daemon, its board and job when LIGHTRAILD_URL points at it, and saying how
to find out when it does not; a daemon that does not hold the board is not
blamed.

  lease_holder.py COSIM LIGHTRAILD SOURCE_DIR LIGHTRAIL
"""
import json
import os
import socket
import subprocess
import sys

from daemon_lib import Harness, fail, regmap_register

cosim, daemon, src, cli = sys.argv[1:5]
schedule = os.path.join(src, "examples/schedules/awgr_doubling.json")


def claim_lease(h, board, token):
    """Takes a board's lease for an hour with `token`, straight through the
    board server, as another program would."""
    with socket.create_connection(("127.0.0.1", h.board_port), timeout=30) as sock:
        f = sock.makefile("rw", newline="\n")
        for line in ("HELLO %d" % board, "WR %x %x" % (regmap_register("LEASE_TTL_MS")["offset"], 3600000),
                     "WR %x %x" % (regmap_register("LEASE_CLAIM")["offset"], token)):
            f.write(line + "\n")
            f.flush()
            answer = f.readline().strip()
            if not answer.startswith("OK"):
                fail("board %d: %s: %s" % (board, line, answer))


def upload(h, board, url):
    env = {k: v for k, v in os.environ.items() if k != "LIGHTRAILD_URL"}
    if url:
        env["LIGHTRAILD_URL"] = url
    r = subprocess.run([cli, "upload", "--device", "sim://127.0.0.1:%d/%d" % (h.board_port, board), schedule,
                        "--commit-at", "none"], capture_output=True, text=True, env=env, timeout=60)
    return r.returncode, r.stderr


with Harness(cosim, daemon, src, boards=4) as h:
    # The daemon runs boards 0-2 (it holds every board of its fabric);
    # board 3 is outside it.
    h.fabric["boards"] = h.fabric["boards"][:3]
    with open(h.path("fabric.json"), "w") as f:
        json.dump(h.fabric, f)
    client = h.start_daemon()
    h.wait_locked()
    job = client.submit(h.job_file("dp16.job.json"))  # 16 GPUs: one board
    held = [b for b in client.fabric()["boards"] if b["job"] == job["id"]]
    if len(held) != 1 or not held[0]["lease"]["mine"]:
        fail("the job's board is not the daemon's: %s" % held)
    board = int(held[0]["uri"].rsplit("/", 1)[1])
    gen = held[0]["generation"]

    rc, err = upload(h, board, h.url)
    want = "held by lightraild at %s (its board %s, job %s)" % (h.url, held[0]["name"], job["id"])
    if rc != 4 or want not in err:
        fail("with LIGHTRAILD_URL: exit %d, expected 4 and \"%s\":\n%s" % (rc, want, err))
    print("named:", err.strip())

    rc, err = upload(h, board, None)
    if rc != 4 or "GET /v1/fabric shows lease.owner" not in err or "LIGHTRAILD_URL" not in err:
        fail("without LIGHTRAILD_URL: exit %d, expected 4 and how to find out:\n%s" % (rc, err))
    print("how to find out:", err.strip().splitlines()[-1][-140:])

    # Another writer's lease on the board outside the daemon's fabric: the
    # daemon is asked and not blamed.
    other = 3
    claim_lease(h, other, 0x0B0E0001)
    rc, err = upload(h, other, h.url)
    if rc != 4 or "Not the lightraild at %s" % h.url not in err:
        fail("another writer's lease: exit %d, expected 4 and the daemon not blamed:\n%s" % (rc, err))
    print("not the daemon's:", err.strip().splitlines()[-1][-120:])

    if client.fabric()["boards"][board]["generation"] != gen:
        fail("the refused uploads changed the daemon's board")
    h.finish()
print("lease refusals name the lightraild holding the board")
