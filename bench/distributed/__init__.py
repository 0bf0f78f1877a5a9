"""kusari.distributed benchmarks: gradient allreduce against mpi4py's raw Allreduce, MNIST epoch time
at 1 and 2 ranks (``python -m bench.distributed``)."""
