#!/usr/bin/env python3
"""lightraild started as packaging/systemd/lightraild.service starts it:
options from --config only, NOTIFY_SOCKET pointing at a datagram socket this
test owns (as systemd's), WATCHDOG_USEC set.

READY=1 comes once the daemon serves (GET /readyz answers 200 at that
moment); WATCHDOG=1 pings follow while the worker runs; SIGHUP gives
RELOADING=1 then READY=1; SIGTERM STOPPING=1 and exit 0. A config file
with a name lightraild does not know stops the start (exit 2) naming it.

  systemd_notify.py COSIM LIGHTRAILD SOURCE_DIR
"""
import os
import signal
import socket
import subprocess
import sys
import time

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]


def write_config(h, extra=""):
    path = h.path("lightraild.conf")
    with open(path, "w") as f:
        f.write('fabric = "%s"\nmodel = "%s"\ntoken-file = "%s"\nstate-dir = "%s"\nport = 0\nport-file = "%s"\n'
                'allow-unlocked = true\nlog-format = "json"\n%s' %
                (h.path("fabric.json"), os.path.join(src, "examples/daemon/model.json"), h.path("token"),
                 h.path("state"), h.path("daemon.port"), extra))
    return path


def messages(sock, until, deadline_s):
    """Datagrams until `until(list)` holds; fails at the deadline."""
    got = []
    deadline = time.time() + deadline_s
    while not until(got):
        sock.settimeout(max(0.01, deadline - time.time()))
        try:
            got.append(sock.recv(4096).decode())
        except socket.timeout:
            fail("notifications so far: %s" % got)
    return got


with Harness(cosim, daemon, src, boards=1, sync=False) as h:
    bad = subprocess.run([daemon, "--config", write_config(h, "bogus-option = 1\n")], capture_output=True,
                         text=True)
    if bad.returncode != 2 or "bogus-option" not in bad.stdout + bad.stderr:
        fail("an unknown config name: exit %d, %s" % (bad.returncode, bad.stdout + bad.stderr))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(h.path("notify.sock"))
    env = dict(os.environ, NOTIFY_SOCKET=h.path("notify.sock"), WATCHDOG_USEC="1000000")
    env.pop("WATCHDOG_PID", None)
    h.proc = subprocess.Popen([daemon, "--config", write_config(h)], stdout=open(h.path("daemon.log"), "a"),
                              stderr=subprocess.STDOUT, env=env)
    ready = messages(sock, lambda m: any("READY=1" in x for x in m), 30)
    h.url = "http://127.0.0.1:%d" % int(h.wait_file("daemon.port"))
    status, _, doc = h.request("GET", "/readyz")
    if status != 200:
        fail("READY=1 was sent while /readyz says %d %s" % (status, doc))
    pings = messages(sock, lambda m: sum(x == "WATCHDOG=1" for x in m) >= 3, 10)
    h.proc.send_signal(signal.SIGHUP)
    reload = messages(sock, lambda m: "READY=1" in m, 10)
    if "RELOADING=1" not in reload or reload.index("RELOADING=1") > reload.index("READY=1"):
        fail("SIGHUP: %s" % reload)
    h.proc.send_signal(signal.SIGTERM)
    messages(sock, lambda m: "STOPPING=1" in m, 10)
    if h.proc.wait(timeout=20) != 0:
        fail("exit %d on SIGTERM" % h.proc.returncode)
    print("config file only; READY=1 with /readyz 200 (%r); %d watchdog pings; SIGHUP: RELOADING=1, READY=1; "
          "SIGTERM: STOPPING=1, exit 0; an unknown config name refused naming it" %
          (ready[-1], sum(x == "WATCHDOG=1" for x in pings)))
