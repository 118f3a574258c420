#!/usr/bin/env python3
"""packaging/slurm's prolog and epilog against lightraild, run as slurmctld
runs PrologSlurmctld and EpilogSlurmctld: with a Slurm job's environment
(SLURM_JOB_ID, SLURM_CLUSTER_NAME, SLURM_JOB_COMMENT, SLURM_JOB_USER, ...).
No Slurm is started: a single-node slurmctld and slurmd in a test are more
than this machine's CI can hold.

The prolog of a job whose comment names a job file registers it (owner: the
Slurm manager token's name); run again (a requeue) it registers nothing new;
the epilog deletes it, and again is a no-op. A job without the comment is
left alone. With the daemon down the prolog logs and exits 0, or 1 with
REQUIRED=1.

  slurm.py COSIM LIGHTRAILD SOURCE_DIR
"""
import json
import os
import subprocess
import sys

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]
SLURM = os.path.join(src, "packaging", "slurm")


def run(h, script, job_id, comment, conf):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    env.update(SLURM_JOB_ID=str(job_id), SLURM_CLUSTER_NAME="testcluster", SLURM_JOB_USER="alice",
               SLURM_JOB_UID="1000", SLURM_JOB_PARTITION="gpu", SLURM_SCRIPT_CONTEXT=script + "_slurmctld",
               LIGHTRAIL_SLURM_CONFIG=conf)
    if comment is not None:
        env["SLURM_JOB_COMMENT"] = comment
    r = subprocess.run([os.path.join(SLURM, script + ".sh")], env=env, capture_output=True, text=True,
                       timeout=60)
    return r.returncode, r.stderr


def jobs(h):
    return h.client.jobs()["jobs"]


with Harness(cosim, daemon, src, boards=2, sync=False) as h:
    slurm_token = h.write_token("slurm.token", "slurm-token-0123456789abcdef")
    h.write_token("ops.token", "test-token-0123456789abcdef")
    with open(h.path("tokens.json"), "w") as f:
        json.dump({"tokens": [{"name": "ops", "role": "admin", "token_file": "ops.token"},
                              {"name": "slurm", "role": "manager", "token_file": "slurm.token"}]}, f)
    os.chmod(h.path("tokens.json"), 0o600)
    h.start_daemon(tokens=h.path("tokens.json"))
    conf = h.path("slurm.conf")
    with open(conf, "w") as f:
        f.write("# as /etc/lightraild/slurm.conf\nLIGHTRAILD_URL=%s\nLIGHTRAILD_TOKEN_FILE=%s\nLIGHTRAIL_PYTHON=%s\n"
                "SPOOL=%s\n" % (h.url, slurm_token, os.path.join(src, "python"), h.path("spool")))
    comment = "lightrail=" + os.path.join(src, "examples/daemon/dp16.job.json")

    rc, err = run(h, "prolog", 4242, "other words " + comment, conf)
    if rc != 0 or len(jobs(h)) != 1:
        fail("prolog: exit %d, jobs %s, %s" % (rc, jobs(h), err))
    job = jobs(h)[0]
    if job["owner"] != "slurm" or job["name"] != "dp-16" or job["next_phase"] != "forward":
        fail("the registered job: %s" % job)
    rc, err = run(h, "prolog", 4242, comment, conf)  # requeued: the same job
    if rc != 0 or [j["id"] for j in jobs(h)] != [job["id"]]:
        fail("a second prolog of job 4242: exit %d, jobs %s, %s" % (rc, jobs(h), err))
    rc, err = run(h, "prolog", 4243, None, conf)  # not a lightrail job
    if rc != 0 or len(jobs(h)) != 1 or os.path.exists(h.path("spool/4243")):
        fail("a job without the comment: exit %d, jobs %s, %s" % (rc, jobs(h), err))
    rc, err = run(h, "epilog", 4242, comment, conf)
    if rc != 0 or jobs(h) or os.path.exists(h.path("spool/4242")):
        fail("epilog: exit %d, jobs %s, %s" % (rc, jobs(h), err))
    rc, err = run(h, "epilog", 4242, comment, conf)
    if rc != 0:
        fail("a second epilog: exit %d, %s" % (rc, err))
    # The daemon down: soft by default, the job's failure with REQUIRED=1.
    h.stop_daemon()
    rc, err = run(h, "prolog", 4244, comment, conf)
    if rc != 0 or "not registered" not in err:
        fail("prolog with the daemon down: exit %d, %s" % (rc, err))
    with open(conf, "a") as f:
        f.write("REQUIRED=1\n")
    rc, err = run(h, "prolog", 4244, comment, conf)
    if rc != 1:
        fail("prolog with the daemon down and REQUIRED=1: exit %d, %s" % (rc, err))
    with open(conf, "a") as f:
        f.write("TYPO=1\n")
    rc, err = run(h, "prolog", 4244, comment, conf)
    if rc != 1 or "line" not in err:
        fail("a bad config line: exit %d, %s" % (rc, err))
    print("prolog registers (owner slurm), again: the same job; epilog deletes, again: nothing; no comment: "
          "nothing; daemon down: exit 0 (REQUIRED=1: 1); a bad config line named")
