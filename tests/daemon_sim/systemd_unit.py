#!/usr/bin/env python3
"""packaging/systemd/lightraild.service passes `systemd-analyze verify`
with no complaint (its ExecStart pointed at the lightraild under test, as
the installed one would be), and is the Type=notify unit with a watchdog
that docs/lightraild.md describes. Skipped (exit 77) without
systemd-analyze.

  systemd_unit.py COSIM LIGHTRAILD SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

daemon, src = sys.argv[2], sys.argv[3]
if not shutil.which("systemd-analyze"):
    print("SKIP: systemd-analyze not found (apt install systemd)")
    sys.exit(77)
with open(os.path.join(src, "packaging", "systemd", "lightraild.service")) as f:
    unit = f.read()
if "ExecStart=/usr/bin/lightraild " not in unit:
    print("FAIL: ExecStart is not /usr/bin/lightraild")
    sys.exit(1)
settings = dict(re.findall(r"^(\w+)=(.*)$", unit, re.M))
for key, want in (("Type", "notify"), ("NotifyAccess", "main"), ("ExecReload", "/bin/kill -HUP $MAINPID")):
    if settings.get(key) != want:
        print("FAIL: %s=%s, not %s" % (key, settings.get(key), want))
        sys.exit(1)
if not settings.get("WatchdogSec", "").isdigit():
    print("FAIL: no WatchdogSec")
    sys.exit(1)
work = tempfile.mkdtemp(prefix="lightraild-unit-")
path = os.path.join(work, "lightraild.service")
with open(path, "w") as f:
    f.write(unit.replace("/usr/bin/lightraild", os.path.abspath(daemon)))
r = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
shutil.rmtree(work)
# verify exits 0 on settings it ignores; what it says is the verdict too.
if r.returncode != 0 or r.stderr.strip() or r.stdout.strip():
    print("FAIL: systemd-analyze verify (exit %d):\n%s%s" % (r.returncode, r.stdout, r.stderr))
    sys.exit(1)
print("systemd-analyze verify: clean; Type=notify, WatchdogSec=%s, reload by SIGHUP" % settings["WatchdogSec"])
