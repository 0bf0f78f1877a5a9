"""Worker: a distributed script started without mpiexec runs as one rank (run by test_communicator)."""
import numpy as np

import kusari.distributed as chainermn

comm = chainermn.create_communicator("naive")
assert (comm.rank, comm.size) == (0, 1), (comm.rank, comm.size)
assert comm.allreduce(np.arange(3.0)).tolist() == [0, 1, 2]
assert chainermn.scatter_dataset(list(range(5)), comm, shuffle=True, seed=0) != list(range(5))
print("w_single.py ok", flush=True)
