#!/usr/bin/env python3
"""A training loop driving lightraild (docs/lightraild.md, docs/torch.md).

With a job file it stands for one: it submits the job, then for each
iteration reports every phase boundary (the phase names of the job file, in
order) and, after the iteration, a rising accuracy; it prints the boundary
time the daemon answers for each phase.

    python3 examples/training_loop.py experiments/cnn-16.job.json \
        --daemon http://127.0.0.1:7001 --token-file ~/.lightraild-token --iterations 5

With --ddp N it is one: it trains a small model with DistributedDataParallel
(gloo) on N CPU processes through lightrail.torch, which observes the
collectives, submits the job they show and drives its phases; it prints the
detected pattern, the daemon's plan, every boundary predicted and measured,
and draws the training curve (needs python3-torch, python3-matplotlib and
the lightrail package, PYTHONPATH=build/python from the build tree).

    PYTHONPATH=build/python python3 examples/training_loop.py --ddp 4 --iterations 40 \
        --daemon http://127.0.0.1:7001 --token-file ~/.lightraild-token --out out/ddp
"""

import argparse
import json
import os
import sys

# Appended, not prepended: a lightrail package on PYTHONPATH (the build
# tree's, with its extension) must win over the sources in python/.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lightrail_client import Client, LightrailError  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("job", nargs="?", help="job file (as `lightrail plan` takes it), with its phases")
    p.add_argument("--daemon", default=os.environ.get("LIGHTRAILD_URL"), help="http://HOST:PORT (LIGHTRAILD_URL)")
    p.add_argument("--token-file", default=os.environ.get("LIGHTRAILD_TOKEN_FILE"),
                   help="the daemon's token (LIGHTRAILD_TOKEN_FILE)")
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--target-accuracy", type=float, default=0.9)
    p.add_argument("--keep", action="store_true", help="leave the job on the daemon at the end")
    p.add_argument("--answers", help="append every phase answer to this file, one JSON line each")
    p.add_argument("--job-out", help="write the job as the daemon took it (with its plan) to this file")
    d = p.add_argument_group("real training (--ddp)")
    d.add_argument("--ddp", type=int, metavar="N", help="train with DDP on N CPU processes through lightrail.torch")
    d.add_argument("--out", default="out/ddp", help="traces, curve.json and train-curve.png go here")
    d.add_argument("--hidden", type=int, default=64, help="the model's hidden width")
    d.add_argument("--bucket-cap-mb", type=float, default=0.01, help="DDP's gradient bucket size")
    d.add_argument("--observe", type=int, default=2, help="iterations observed before the job is submitted")
    d.add_argument("--no-plot", action="store_true", help="do not draw the training curve")
    a = p.parse_args()
    if a.ddp is not None:
        if a.job:
            p.error("give a job file or --ddp, not both: --ddp derives the job from the training")
        if a.ddp < 2:
            p.error("--ddp: at least 2 processes")
        if a.iterations <= a.observe:
            p.error(f"--iterations must exceed --observe ({a.observe}): the job is submitted after those")
        try:
            import ddp_training  # noqa: E402  (beside this file; imports torch)
        except ImportError as e:
            p.error(f"--ddp needs PyTorch for {sys.executable} (Debian: python3-torch for /usr/bin/python3): {e}")

        return ddp_training.main(a)
    if not a.job:
        p.error("a job file, or --ddp N")
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
