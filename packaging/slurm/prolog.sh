#!/bin/sh
# Slurm PrologSlurmctld: registers a job that asks for lightrail with lightraild.
exec python3 "$(dirname "$0")/lightrail_slurm.py" prolog
