#!/usr/bin/env python3
"""Stands for a training loop driving lightraild (docs/lightraild.md).

Submits a job, then for each iteration reports every phase boundary (the
phase names of the job file, in order) and, after the iteration, a rising
accuracy; prints the boundary time the daemon answers for each phase.

    python3 examples/training_loop.py experiments/cnn-16.job.json \
        --daemon http://127.0.0.1:7001 --token-file ~/.lightraild-token --iterations 5
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lightrail_client import Client, LightrailError  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("job", help="job file (as `lightrail plan` takes it), with its phases")
    p.add_argument("--daemon", default=os.environ.get("LIGHTRAILD_URL"), help="http://HOST:PORT (LIGHTRAILD_URL)")
    p.add_argument("--token-file", default=os.environ.get("LIGHTRAILD_TOKEN_FILE"),
                   help="the daemon's token (LIGHTRAILD_TOKEN_FILE)")
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--target-accuracy", type=float, default=0.9)
    p.add_argument("--keep", action="store_true", help="leave the job on the daemon at the end")
    p.add_argument("--answers", help="append every phase answer to this file, one JSON line each")
    p.add_argument("--job-out", help="write the job as the daemon took it (with its plan) to this file")
    a = p.parse_args()
    if not a.daemon or not a.token_file:
        p.error("--daemon and --token-file are needed (or LIGHTRAILD_URL and LIGHTRAILD_TOKEN_FILE)")

    with open(a.job) as f:
        job = json.load(f)
    phases = [ph["name"] for ph in job.get("phases", [])]
    if not phases:
        p.error(f"{a.job} lists no phases (a preset job file): give one with \"phases\"")

    try:
        client = Client(a.daemon, token_file=a.token_file)
        submitted = client.submit(job, target_accuracy=a.target_accuracy)
        job_id = submitted["id"]
        if a.job_out:
            with open(a.job_out, "w") as f:
                json.dump(submitted, f, indent=1)
        answers = open(a.answers, "a") if a.answers else None
        print(f"submitted {job_id}: {len(phases)} phases per iteration")
        for it in range(a.iterations):
            for name in phases:
                reply = client.phase(job_id, name)
                # The boundary the boards switch at, as the daemon answers it.
                boundary = reply.get("boundary_ps", reply) if isinstance(reply, dict) else reply
                print(f"iteration {it} phase {name}: boundary_ps {boundary}")
                if answers:
                    answers.write(json.dumps(reply) + "\n")
            # Accuracy rising towards the target (FastConv releases circuits near it).
            accuracy = a.target_accuracy * (1 - 0.5 ** (it + 1))
            client.progress(job_id, round(accuracy, 4))
            print(f"iteration {it}: accuracy {accuracy:.4f}")
        if not a.keep:
            client.delete(job_id)
            print(f"deleted {job_id}")
    except LightrailError as e:
        print(f"training_loop: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
