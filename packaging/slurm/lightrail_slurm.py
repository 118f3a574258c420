#!/usr/bin/env python3
"""Slurm's PrologSlurmctld / EpilogSlurmctld for lightraild (docs/lightraild.md,
"Slurm"): the prolog registers a job's phases with the daemon, the epilog
deletes the daemon's job when the Slurm job ends.

A Slurm job opts in with its comment: `sbatch --comment lightrail=/path/job.json`
names the job file (the phases, as `lightrail plan` takes it). Jobs without
it are none of lightrail's: both scripts do nothing.

Configuration: KEY=VALUE lines in $LIGHTRAIL_SLURM_CONFIG (default
/etc/lightraild/slurm.conf):
  LIGHTRAILD_URL         the daemon (http://127.0.0.1:7070)
  LIGHTRAILD_TOKEN_FILE  a manager's token file (the token-file rule)
  LIGHTRAIL_PYTHON       the directory of lightrail_client.py
  SPOOL                  where the daemon's job id of each Slurm job is kept
                         (/var/spool/lightrail-slurm)
  REQUIRED               1: a prolog that cannot register the job fails it
                         (Slurm requeues it); 0 (default): it runs on the
                         EPS without circuits, and the failure is logged

Exit codes: 0 done (or nothing to do); 1 the job could not be registered
and REQUIRED=1, or bad configuration.

  lightrail_slurm.py prolog|epilog        (Slurm's environment: SLURM_JOB_ID, ...)
"""
import json
import os
import sys


def log(msg):
    # slurmctld logs what a prolog writes to stderr
    print("lightrail-slurm: job %s: %s" % (os.environ.get("SLURM_JOB_ID", "?"), msg), file=sys.stderr)


def config():
    path = os.environ.get("LIGHTRAIL_SLURM_CONFIG", "/etc/lightraild/slurm.conf")
    conf = {"LIGHTRAILD_URL": "http://127.0.0.1:7070", "SPOOL": "/var/spool/lightrail-slurm", "REQUIRED": "0",
            "LIGHTRAIL_PYTHON": "/usr/share/lightrail/python"}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                key, sep, value = line.partition("=")
                if not sep or key.strip() not in conf and key.strip() != "LIGHTRAILD_TOKEN_FILE":
                    raise ValueError("%s line %d: not one of %s=VALUE" % (path, n, ", ".join(sorted(conf))))
                conf[key.strip()] = value.strip()
    except OSError as e:
        raise ValueError("%s: %s" % (path, e.strerror))
    if "LIGHTRAILD_TOKEN_FILE" not in conf:
        raise ValueError("%s: no LIGHTRAILD_TOKEN_FILE" % path)
    if conf["REQUIRED"] not in ("0", "1"):
        raise ValueError("%s: REQUIRED is 0 or 1, not %r" % (path, conf["REQUIRED"]))
    return conf


def job_file_of(comment):
    """The job file a Slurm job's comment names (lightrail=PATH), or None."""
    for word in (comment or "").split():
        if word.startswith("lightrail="):
            return word[len("lightrail="):]
    return None


def spool_path(conf):
    job = os.environ.get("SLURM_JOB_ID", "")
    if not job.isdigit():
        raise ValueError("SLURM_JOB_ID is %r, not a job number" % job)
    return os.path.join(conf["SPOOL"], job)


def prolog(conf, client, errors):
    path = job_file_of(os.environ.get("SLURM_JOB_COMMENT"))
    if path is None:
        return 0
    try:
        with open(path) as f:
            job = json.load(f)
        # The key makes a prolog run twice (a requeue, a retry after a lost
        # reply) register the job once.
        key = "slurm-%s-%s" % (os.environ.get("SLURM_CLUSTER_NAME", "cluster"), os.environ["SLURM_JOB_ID"])
        reply = client.submit(job, wait_for_circuits=True, idempotency_key=key)
    except (OSError, ValueError, errors) as e:
        log("not registered with lightraild: %s" % e)
        return 1 if conf["REQUIRED"] == "1" else 0
    os.makedirs(conf["SPOOL"], mode=0o700, exist_ok=True)
    tmp = spool_path(conf) + ".tmp"
    with open(tmp, "w") as f:
        f.write(reply["id"] + "\n")
    os.replace(tmp, spool_path(conf))
    log("registered as lightraild job %s (%s)" % (reply["id"], reply["state"]))
    return 0


def epilog(conf, client, errors):
    try:
        with open(spool_path(conf)) as f:
            job_id = f.read().strip()
    except FileNotFoundError:
        return 0  # not registered: nothing to delete
    try:
        client.delete(job_id)
        log("lightraild job %s deleted" % job_id)
    except errors as e:
        if e.status != 404:  # gone already is what the epilog wants
            log("lightraild job %s not deleted: %s" % (job_id, e))
            return 1
    os.unlink(spool_path(conf))
    return 0


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("prolog", "epilog"):
        print(__doc__, file=sys.stderr)
        return 1
    try:
        conf = config()
        sys.path.insert(0, conf["LIGHTRAIL_PYTHON"])
        from lightrail_client import Client, LightrailError
        client = Client(conf["LIGHTRAILD_URL"], token_file=conf["LIGHTRAILD_TOKEN_FILE"], timeout=30)
        return (prolog if sys.argv[1] == "prolog" else epilog)(conf, client, LightrailError)
    except (ValueError, ImportError) as e:
        log(str(e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
