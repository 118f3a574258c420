#!/bin/sh
# Slurm EpilogSlurmctld: deletes the lightraild job of a Slurm job that ended.
exec python3 "$(dirname "$0")/lightrail_slurm.py" epilog
