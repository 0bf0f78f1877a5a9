"""scatter_dataset: the root's dataset split into one shard per rank (optionally shuffled)."""
import numpy


class DataSizeError(ValueError):
    """A dataset too large to scatter in one message, or empty."""


def _bounds(n: int, size: int, rank: int, force_equal_length: bool) -> tuple[int, int]:
    begin = n * rank // size
    if force_equal_length:
        return begin, begin + -(-n // size)
    return begin, n * (rank + 1) // size


def scatter_index(n_total_samples: int, comm, root: int = 0, *, force_equal_length: bool = True):
    """This rank's ``(begin, end)`` positions of a dataset of ``n_total_samples`` (root's value).

    With ``force_equal_length`` every rank gets ``ceil(n / size)`` positions; ``end`` may then pass
    ``n``, and positions ``>= n`` wrap around to the start (a few examples are seen twice per epoch).
    """
    n = comm.bcast_obj(n_total_samples if comm.rank == root else None, root=root)
    return _bounds(n, comm.size, comm.rank, force_equal_length)


def scatter_dataset(dataset, comm, root: int = 0, shuffle: bool = False, seed=None,
                    max_buf_len: int = 256 * 1024 * 1024, *, force_equal_length: bool = True) -> list:
    """Split ``dataset`` (needed on ``root`` only; pass None elsewhere) into one shard per rank.

    Parameters
    ----------
    dataset
        an indexable dataset of length ``N`` on the root.
    comm : CommunicatorBase
    root : int
    shuffle : bool
        shard a random permutation (drawn from ``seed``) instead of the index order.
    seed : int, optional
    max_buf_len : int
        accepted for ChainerMN compatibility (mpi4py sends large messages whole).
    force_equal_length : bool
        every shard gets ``ceil(N / size)`` examples (see :func:`scatter_index`), so every rank runs
        the same number of iterations per epoch; else the shards' lengths differ by at most one.

    Returns
    -------
    list
        this rank's examples (a list is a dataset).
    """
    message = None
    if comm.rank == root:
        try:
            n = len(dataset)
        except TypeError:
            message = f"the root's dataset must have a length, got {type(dataset).__name__}"
        else:
            if n == 0:
                message = "the root's dataset is empty: there is nothing to scatter"
    message = comm.bcast_obj(message, root=root)
    if message is not None:
        raise DataSizeError(f"scatter_dataset: {message} (raised on rank {comm.rank})")
    if comm.rank == root:
        n = len(dataset)
        order = numpy.random.RandomState(seed).permutation(n) if shuffle else numpy.arange(n)
        mine = None
        for rank in range(comm.size):
            begin, end = _bounds(n, comm.size, rank, force_equal_length)
            shard = [dataset[int(order[i % n])] for i in range(begin, end)]
            if rank == root:
                mine = shard
            else:
                comm.send_obj(shard, dest=rank, tag=7)
        return mine
    return comm.recv_obj(source=root, tag=7)
