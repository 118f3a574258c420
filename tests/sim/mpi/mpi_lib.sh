# Shared by the MPI tests: mpirun as these machines allow it (CI runs as
# root; two cores take four ranks only oversubscribed, and ranks waiting at
# a window boundary yield the core instead of spinning on it).
#   source after setting mpirun=...
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1
# No network beyond loopback: shared memory between the ranks of one machine.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
