"""CommunicatorBase: ChainerMN's communicator interface on an mpi4py communicator.

Every collective first agrees on what each rank brings (a small object exchange), so a rank with a
wrong shape, dtype or argument makes *every* rank raise the same error instead of leaving the others
blocked. With ``timeout`` set, every collective also waits for the other ranks' arrival with that
deadline and raises :class:`CollectiveTimeoutError` naming the ranks that did not come.
"""
import socket
import time
import zlib

import numpy

from kusari import backend
from kusari.distributed import _mpi


class CollectiveTimeoutError(RuntimeError):
    """Some ranks did not reach a collective within the communicator's ``timeout``."""


def _array_meta(x):
    """(shape, dtype string, on GPU) of an array, or a string saying why ``x`` is not one."""
    if not backend.is_array(x):
        return f"expected a numpy or cupy array, got {type(x).__name__}"
    if x.dtype.kind not in "biufc":
        return f"dtype {x.dtype} cannot be communicated (only bool, integer, float and complex)"
    return tuple(x.shape), x.dtype.str, backend.is_gpu_array(x)


def _host(x) -> numpy.ndarray:
    return numpy.ascontiguousarray(x.get() if backend.is_gpu_array(x) else x)


def _as_bytes(x: numpy.ndarray) -> numpy.ndarray:
    return x.reshape(-1).view(numpy.uint8)


def _nbytes(meta) -> int:
    shape, dtype, _ = meta
    return int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize


def _from_bytes(raw: numpy.ndarray, meta):
    shape, dtype, gpu = meta
    x = raw.view(numpy.dtype(dtype)).reshape(shape)
    if gpu:
        import cupy
        return cupy.asarray(x)
    return x


def _split_bytes(buffer, metas):
    out, offset = [], 0
    for meta in metas:
        n = _nbytes(meta)
        out.append(_from_bytes(buffer[offset:offset + n], meta))
        offset += n
    return tuple(out)


def _describe(meta) -> str:
    return meta if isinstance(meta, str) else f"shape {meta[0]} dtype {numpy.dtype(meta[1])}"


class CommunicatorBase:
    """ChainerMN's communicator: rank bookkeeping, object and array collectives, gradient averaging.

    Parameters
    ----------
    mpi_comm : mpi4py.MPI.Comm
        the communicator to work on (``MPI.COMM_WORLD`` by default).
    timeout : float, optional
        seconds a collective waits for the other ranks before raising
        :class:`CollectiveTimeoutError` (None: wait forever). Checking arrival costs one small
        message to and from every other rank per collective, so it is meant for debugging hangs.

    Array collectives take numpy or cupy arrays (tuples of them where ChainerMN does) and return
    arrays of the dtype sent; GPU arrays travel through host memory unless a subclass says otherwise.
    """

    def __init__(self, mpi_comm=None, timeout=None):
        MPI = _mpi.mpi()
        self.mpi_comm = MPI.COMM_WORLD if mpi_comm is None else mpi_comm
        self.timeout = timeout
        # arrival marks travel apart from user messages; duplicating is collective, so it is done here
        self._arrival_comm = self.mpi_comm.Dup()
        self._arrival_count = 0
        self._buffers = {}
        hosts = self.mpi_comm.allgather(socket.gethostname())
        nodes = list(dict.fromkeys(hosts))
        mine = hosts[self.mpi_comm.rank]
        self._intra_rank = hosts[:self.mpi_comm.rank].count(mine)
        self._intra_size = hosts.count(mine)
        self._inter_rank = nodes.index(mine)
        self._inter_size = len(nodes)

    # ranks ----------------------------------------------------------------------------------
    @property
    def rank(self) -> int:
        return self.mpi_comm.rank

    @property
    def size(self) -> int:
        return self.mpi_comm.size

    @property
    def intra_rank(self) -> int:
        """This rank's index among the ranks on its node."""
        return self._intra_rank

    @property
    def intra_size(self) -> int:
        return self._intra_size

    @property
    def inter_rank(self) -> int:
        """The index of this rank's node."""
        return self._inter_rank

    @property
    def inter_size(self) -> int:
        """The number of nodes."""
        return self._inter_size

    def __repr__(self):
        return f"{type(self).__name__}(rank={self.rank}, size={self.size})"

    def split(self, color: int, key: int):
        """A new communicator of the same kind over the ranks that pass the same ``color``
        (``MPI_Comm_split``); ``key`` orders the ranks in it."""
        self._arrive("split")
        new = object.__new__(type(self))
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k != "_buffers"})
        CommunicatorBase.__init__(new, self.mpi_comm.Split(color, key), timeout=self.timeout)
        return new

    def finalize(self) -> None:
        """Release the buffers this communicator keeps between gradient exchanges."""
        self._buffers.clear()

    # arrival check (timeout) ----------------------------------------------------------------------
    def _arrive(self, name: str) -> None:
        """With ``timeout`` set: wait until every other rank has entered a collective too."""
        if self.timeout is None or self.size == 1:
            return
        comm, me = self._arrival_comm, self.rank
        self._arrival_count += 1
        mark = numpy.array([self._arrival_count], dtype=numpy.int64)
        others = [r for r in range(self.size) if r != me]
        received = {r: numpy.zeros(1, dtype=numpy.int64) for r in others}
        sends = [comm.Isend(mark, dest=r, tag=1) for r in others]
        recvs = [comm.Irecv(received[r], source=r, tag=1) for r in others]
        deadline = time.monotonic() + self.timeout
        done = [False] * len(recvs)
        while not all(done):
            for i, request in enumerate(recvs):
                if not done[i]:
                    done[i] = request.Test()
            if time.monotonic() > deadline:
                missing = [r for r, ok in zip(others, done) if not ok]
                for request, ok in zip(recvs, done):
                    if not ok:
                        request.Cancel()
                # tell the late ranks, so that they raise too when they come instead of waiting
                for r in others:
                    comm.send(self._arrival_count, dest=r, tag=2)
                raise CollectiveTimeoutError(
                    f"{name}: rank {me} waited {self.timeout} s for ranks {missing} (of {self.size}) to "
                    f"reach collective #{self._arrival_count}; they did not arrive (hung, dead or "
                    "running a different collective)")
            if not all(done):
                time.sleep(0.0005)
        late = [r for r in others if received[r][0] != self._arrival_count]
        _mpi.mpi().Request.Waitall(sends)
        gave_up = [r for r in others if comm.Iprobe(source=r, tag=2)]
        if gave_up:
            raise CollectiveTimeoutError(
                f"{name}: rank {self.rank} reached collective #{self._arrival_count} after ranks {gave_up} "
                f"had given up waiting for it (timeout {self.timeout} s)")
        if late:
            raise CollectiveTimeoutError(
                f"{name}: ranks {late} arrived at a different collective count than rank {me} "
                f"(#{self._arrival_count}): an earlier collective timed out on some ranks")

    def _agree(self, name: str, local):
        """Allgather ``local`` (a description, or a str naming this rank's error); raise on every rank
        if any rank reported an error. Returns every rank's description."""
        self._arrive(name)
        everything = self.mpi_comm.allgather(local)
        errors = [f"rank {r}: {item}" for r, item in enumerate(everything) if isinstance(item, str)]
        if errors:
            raise ValueError(f"{name}: " + "; ".join(errors))
        return everything

    # objects ----------------------------------------------------------------------------------
    def send_obj(self, obj, dest: int, tag: int = 0) -> None:
        """Send a picklable object to rank ``dest``."""
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source: int, status=None, tag=None):
        """Receive an object sent by :meth:`send_obj` of rank ``source`` (any tag when None)."""
        MPI = _mpi.mpi()
        tag = MPI.ANY_TAG if tag is None else tag
        self._wait_for_message("recv_obj", source, tag)
        return self.mpi_comm.recv(source=source, tag=tag, status=status)

    def _wait_for_message(self, name, source, tag):
        if self.timeout is None:
            return
        deadline = time.monotonic() + self.timeout
        while not self.mpi_comm.Iprobe(source=source, tag=tag):
            if time.monotonic() > deadline:
                raise CollectiveTimeoutError(
                    f"{name}: rank {self.rank} waited {self.timeout} s for a message from rank "
                    f"{source} (tag {tag}); none came")
            time.sleep(0.0005)

    def bcast_obj(self, obj, max_buf_len=None, root: int = 0):
        """Root's ``obj`` on every rank."""
        self._arrive("bcast_obj")
        return self.mpi_comm.bcast(obj, root=root)

    def gather_obj(self, obj, root: int = 0):
        """On ``root``, the list of every rank's ``obj`` in rank order; None elsewhere."""
        self._arrive("gather_obj")
        return self.mpi_comm.gather(obj, root=root)

    def allgather_obj(self, obj) -> list:
        """The list of every rank's ``obj`` in rank order, on every rank."""
        self._arrive("allgather_obj")
        return self.mpi_comm.allgather(obj)

    def allreduce_obj(self, obj):
        """The sum (``+``) of every rank's ``obj``, on every rank."""
        self._arrive("allreduce_obj")
        return self.mpi_comm.allreduce(obj)

    def barrier(self) -> None:
        self._arrive("barrier")
        self.mpi_comm.Barrier()

    # arrays -------------------------------------------------------------------------------------
    def allreduce(self, x):
        """Elementwise sum over ranks of ``x`` (same shape and dtype on every rank), as ``x``'s kind."""
        metas = self._agree("allreduce", _array_meta(x))
        first = metas[0][:2]
        bad = [f"rank {r} has {_describe(m)}" for r, m in enumerate(metas) if m[:2] != first]
        if bad:
            raise ValueError(f"allreduce: every rank must pass the same shape and dtype; rank 0 has "
                             f"{_describe(metas[0])} but " + ", ".join(bad))
        host = _host(x)
        # MPI has no float16 sum: reduce in float32, return float16
        work = host.astype(numpy.float32) if host.dtype == numpy.float16 else host.copy()
        self.mpi_comm.Allreduce(_mpi.mpi().IN_PLACE, work)
        return _from_bytes(_as_bytes(work.astype(host.dtype, copy=False)), metas[self.rank])

    def bcast(self, data, max_buf_len=None, root: int = 0):
        """Root's array on every rank (``data`` is ignored on the other ranks)."""
        meta = _array_meta(data) if self.rank == root else None
        meta = self._agree("bcast", meta)[root]
        raw = _as_bytes(_host(data)) if self.rank == root else numpy.empty(_nbytes(meta), numpy.uint8)
        self.mpi_comm.Bcast(raw, root=root)
        return _from_bytes(raw, meta)

    def gather(self, data, root: int = 0):
        """On ``root``, the tuple of every rank's array (shapes may differ); None elsewhere."""
        metas = self._agree("gather", _array_meta(data))
        counts = [_nbytes(m) for m in metas]
        recv = numpy.empty(sum(counts), numpy.uint8) if self.rank == root else None
        self.mpi_comm.Gatherv(_as_bytes(_host(data)), [recv, counts] if recv is not None else None, root=root)
        return _split_bytes(recv, metas) if self.rank == root else None

    def allgather(self, x):
        """The tuple of every rank's array (shapes may differ), on every rank."""
        metas = self._agree("allgather", _array_meta(x))
        counts = [_nbytes(m) for m in metas]
        recv = numpy.empty(sum(counts), numpy.uint8)
        self.mpi_comm.Allgatherv(_as_bytes(_host(x)), [recv, counts])
        return _split_bytes(recv, metas)

    def scatter(self, xs, root: int = 0):
        """Rank ``i`` receives ``xs[i]`` of ``root`` (``xs``: a tuple of ``size`` arrays, on root only)."""
        local = None
        if self.rank == root:
            if not isinstance(xs, (tuple, list)) or len(xs) != self.size:
                local = (f"the root must pass a tuple of {self.size} arrays (one per rank), got "
                         f"{type(xs).__name__}" + (f" of length {len(xs)}" if isinstance(xs, (tuple, list)) else ""))
            else:
                metas = [_array_meta(x) for x in xs]
                bad = [f"xs[{i}]: {m}" for i, m in enumerate(metas) if isinstance(m, str)]
                local = "; ".join(bad) if bad else metas
        metas = self._agree("scatter", local)[root]
        counts = [_nbytes(m) for m in metas]
        send = None
        if self.rank == root:
            send = [numpy.concatenate([_as_bytes(_host(x)) for x in xs]), counts]
        recv = numpy.empty(counts[self.rank], numpy.uint8)
        self.mpi_comm.Scatterv(send, recv, root=root)
        return _from_bytes(recv, metas[self.rank])

    def alltoall(self, xs):
        """Rank ``i`` sends ``xs[j]`` to rank ``j``; returns the tuple of the arrays it received."""
        if not isinstance(xs, (tuple, list)) or len(xs) != self.size:
            local = (f"expected a tuple of {self.size} arrays (one per rank), got {type(xs).__name__}"
                     + (f" of length {len(xs)}" if isinstance(xs, (tuple, list)) else ""))
        else:
            metas = [_array_meta(x) for x in xs]
            bad = [f"xs[{i}]: {m}" for i, m in enumerate(metas) if isinstance(m, str)]
            local = "; ".join(bad) if bad else metas
        everything = self._agree("alltoall", local)
        send_counts = [_nbytes(m) for m in everything[self.rank]]
        recv_metas = [everything[source][self.rank] for source in range(self.size)]
        recv_counts = [_nbytes(m) for m in recv_metas]
        send = numpy.concatenate([_as_bytes(_host(x)) for x in xs])
        recv = numpy.empty(sum(recv_counts), numpy.uint8)
        self.mpi_comm.Alltoallv([send, send_counts], [recv, recv_counts])
        return _split_bytes(recv, recv_metas)

    def send(self, data, dest: int, tag: int = 0) -> None:
        """Send an array, or a tuple or list of arrays, to rank ``dest`` (received by :meth:`recv`)."""
        arrays = tuple(data) if isinstance(data, (tuple, list)) else (data,)
        metas = [_array_meta(x) for x in arrays]
        bad = [m for m in metas if isinstance(m, str)]
        if bad:
            raise ValueError(f"send: rank {self.rank} to rank {dest}: {bad[0]}")
        self.mpi_comm.send((isinstance(data, (tuple, list)), metas), dest=dest, tag=tag)
        for x in arrays:
            self.mpi_comm.Send(_as_bytes(_host(x)), dest=dest, tag=tag)

    def recv(self, source: int, tag: int = 0):
        """The array (or tuple of arrays) rank ``source`` sent with :meth:`send`."""
        self._wait_for_message("recv", source, tag)
        is_sequence, metas = self.mpi_comm.recv(source=source, tag=tag)
        out = []
        for meta in metas:
            raw = numpy.empty(_nbytes(meta), numpy.uint8)
            self.mpi_comm.Recv(raw, source=source, tag=tag)
            out.append(_from_bytes(raw, meta))
        return tuple(out) if is_sequence else out[0]

    # models -------------------------------------------------------------------------------------
    def _check_layout(self, name: str, layout: list) -> None:
        """Raise on every rank unless all ranks pass the same ``[(param name, shape, dtype), ...]``.

        One 16-byte allreduce (the max of a checksum and of its negation) per call; the layouts
        themselves travel only when they differ, to name the first difference.
        """
        self._arrive(name)
        checksum = zlib.crc32(repr(layout).encode())
        both = numpy.array([checksum, -checksum], dtype=numpy.int64)
        self.mpi_comm.Allreduce(_mpi.mpi().IN_PLACE, both, op=_mpi.mpi().MAX)
        if both[0] == -both[1]:
            return
        layouts = self.mpi_comm.allgather(layout)
        for r, other in enumerate(layouts):
            if other != layouts[0]:
                names0 = {n: (s, d) for n, s, d in layouts[0]}
                names_r = {n: (s, d) for n, s, d in other}
                diff = sorted(set(names0) ^ set(names_r)) or [
                    n for n in names0 if names0[n] != names_r[n]]
                where = diff[0]
                raise ValueError(
                    f"{name}: the ranks' models differ: parameter {where!r} is "
                    f"{names0.get(where, 'absent')} on rank 0 but {names_r.get(where, 'absent')} on rank {r} "
                    f"({len(layouts[0])} parameters with data on rank 0, {len(other)} on rank {r})")

    def bcast_data(self, model) -> None:
        """Copy rank 0's parameter values into every rank's ``model`` (uninitialized ones skipped)."""
        params = [(n, p) for n, p in sorted(model.namedparams()) if p.array is not None]
        self._check_layout("bcast_data", [(n, tuple(p.shape), p.array.dtype.str) for n, p in params])
        for dtype, group in self._by_dtype([p.array for _, p in params]):
            buffer = self._pack(group, dtype)
            self._bcast_buffer(buffer)
            self._unpack(buffer, group)

    broadcast_data = bcast_data

    def multi_node_mean_grad(self, model, zero_fill: bool = False) -> None:
        """Replace every gradient of ``model`` with its mean over the ranks.

        Parameters without data are skipped; parameters without a gradient get a zero gradient
        when ``zero_fill``, else are skipped (then every rank must skip the same ones).
        """
        params = []
        for name, param in sorted(model.namedparams()):
            if param.array is None:
                continue
            if param.grad is None and zero_fill:
                param.zerograd()
            if param.grad is not None:
                params.append((name, param))
        self._check_layout("multi_node_mean_grad",
                           [(n, tuple(p.grad.shape), p.grad.dtype.str) for n, p in params])
        self._mean_grads([p for _, p in params])

    def allreduce_grad(self, model, zero_fill: bool = False) -> None:
        """The old name of :meth:`multi_node_mean_grad` (the mean, not the sum, as in ChainerMN)."""
        self.multi_node_mean_grad(model, zero_fill)

    # the gradient exchange proper: subclasses choose how ------------------------------------------
    def _mean_grads(self, params: list) -> None:
        raise NotImplementedError

    def _bcast_buffer(self, buffer) -> None:
        host = _host(buffer)
        self.mpi_comm.Bcast(host, root=0)
        if backend.is_gpu_array(buffer):
            buffer.set(host)

    @staticmethod
    def _by_dtype(arrays):
        """[(dtype, [arrays of that dtype, in order]), ...]"""
        groups = {}
        for a in arrays:
            groups.setdefault(a.dtype, []).append(a)
        return list(groups.items())

    def _pack(self, arrays, dtype, slot="pack", scale=None):
        """One flat buffer (kept between calls) holding ``arrays`` one after the other, times ``scale``."""
        xp = backend.get_array_module(arrays[0])
        total = sum(a.size for a in arrays)
        key = (slot, xp.__name__, numpy.dtype(dtype).str)
        buffer = self._buffers.get(key)
        if buffer is None or buffer.size < total:
            buffer = self._buffers[key] = xp.empty(total, dtype=dtype)
        buffer = buffer[:total]
        offset = 0
        for a in arrays:
            if scale is None:
                buffer[offset:offset + a.size] = a.ravel()
            else:
                xp.multiply(a.ravel(), scale, out=buffer[offset:offset + a.size], casting="unsafe")
            offset += a.size
        return buffer

    @staticmethod
    def _unpack(buffer, arrays) -> None:
        offset = 0
        for a in arrays:
            a[...] = buffer[offset:offset + a.size].reshape(a.shape)
            offset += a.size
