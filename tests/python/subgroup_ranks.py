#!/usr/bin/env python3
"""One rank of test_torch_subgroups.py: every iteration an all-reduce of
every rank, an all-reduce in its tensor-parallel pair ([0, 1] or [2, 3], both
pairs at once) and an all-gather in [0, 1] only (ranks 2 and 3 sit it out).
From iteration CHANGE_AT on the pairs all-reduce twice the bytes: the
pattern is learned again (relearn_every=1) and the job's phases replaced.

  subgroup_ranks.py RANK WORLD PORT ITERATIONS OBSERVE CHANGE_AT DAEMON TOKEN_FILE TRACE_DIR
"""
import sys

import torch
import torch.distributed as dist

import lightrail.torch as lt

rank, world, port, iterations, observe, change_at = (int(x) for x in sys.argv[1:7])
daemon, token_file, trace_dir = sys.argv[7:10]
WORLD_BYTES, PAIR_BYTES, GATHER_BYTES = 64 * 1024, 256 * 1024, 16 * 1024  # per rank, float32

dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
# Every rank makes every group (torch.distributed's rule), before tracing starts.
pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
pair = pairs[rank // 2]
lt.enable(daemon=daemon, token_file=token_file, trace_dir=trace_dir, observe_iterations=observe,
          job_name="subgroups", wait_timeout_s=60, relearn_every=1)
for i in range(iterations):
    lt.session().step()
    dist.all_reduce(torch.ones(WORLD_BYTES // 4))
    dist.all_reduce(torch.ones((PAIR_BYTES if i < change_at else 2 * PAIR_BYTES) // 4), group=pair)
    if rank < 2:
        dist.all_gather([torch.zeros(GATHER_BYTES // 8) for _ in range(2)], torch.ones(GATHER_BYTES // 8),
                        group=pairs[0])
lt.disable()
dist.destroy_process_group()
