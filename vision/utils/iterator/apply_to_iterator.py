"""apply_to_iterator: run a batch function (e.g. a model's ``predict``) over an iterator of batches."""
import warnings

from kusari.vision.utils.iterator.unzip import unzip


def apply_to_iterator(func, iterator, n_input: int = 1, hook=None, comm=None):
    """Apply ``func`` to the batches of ``iterator``, returning lazy iterators of inputs, outputs and the rest.

    Each batch is a list of samples; a sample is a tuple ``(in_0, ..., in_{n_input-1}, rest_0, ...)``
    or a single non-tuple input. ``func`` receives one list per input (``func([in_0, ...], [in_1,
    ...])``) and returns a list of outputs or a tuple of such lists (``model.predict(imgs)`` returns
    ``(bboxes, labels, scores)``).

    Parameters
    ----------
    func : callable
        Takes ``n_input`` lists, returns a list or a tuple of lists of the batch's length.
    iterator : iterator of lists
        E.g. ``kusari.iterators.SerialIterator(dataset, batch_size, repeat=False, shuffle=False)``.
        With ``comm``, only the root's is read.
    n_input : int
        How many leading elements of each sample are passed to ``func``.
    hook : callable, optional
        ``hook(in_values, out_values, rest_values)`` after each batch, with that batch's values as
        tuples of lists (e.g. :class:`ProgressHook`). With ``comm``, the root calls it.
    comm : optional
        A ChainerMN-style communicator (``rank``, ``size``, ``mpi_comm.scatter``, ``gather_obj``):
        the root splits each batch among the workers and gathers their outputs. Every worker must
        call this function; the others return None.

    Returns
    -------
    tuple of three tuples of iterators
        ``in_values`` (one iterator per input), ``out_values`` (one per output of ``func``) and
        ``rest_values`` (one per remaining sample element; empty when samples have none), each
        yielding one value per sample. They read the iterator lazily.
    """
    if comm is not None and comm.rank != 0:
        for _ in _apply(func, None, n_input, None, comm):
            pass
        return None
    batches = _apply(func, iterator, n_input, hook, comm)
    try:
        in_values, out_values, rest_values = unzip(batches)
    except StopIteration:
        raise ValueError("apply_to_iterator: the iterator gave no batch") from None
    # each of in/out/rest_values: an iterator of per-batch tuples of lists -> a tuple of per-sample iterators
    return tuple(tuple(map(_flatten, unzip(columns))) for columns in (in_values, out_values, rest_values))


def _split(batch, n_input, size):
    """A batch as (inputs, rests) of its samples and the inputs of each of ``size`` workers: contiguous
    runs, the first ``len(batch) % size`` workers taking one sample more."""
    inputs, rests = [], []
    for sample in batch:
        if isinstance(sample, tuple):
            inputs.append(sample[:n_input])
            rests.append(sample[n_input:])
        else:
            inputs.append((sample,))
            rests.append(())
    q, r = divmod(len(batch), size)
    bounds = [k * q + min(k, r) for k in range(size + 1)]
    return inputs, rests, [inputs[bounds[k]:bounds[k + 1]] for k in range(size)]


def _columns(samples):
    """[(a0, b0), (a1, b1)] -> ([a0, a1], [b0, b1])."""
    return tuple(list(column) for column in zip(*samples))


def _apply(func, iterator, n_input, hook, comm):
    """Yield (in_values, out_values, rest_values) per batch, each a tuple of lists (on the root)."""
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)
    checked = False
    while True:
        parts = None
        if rank == 0:
            batch = next(iterator, None)
            if batch is None:
                parts = [None] * size
            else:
                if not checked and len(batch) % size:
                    warnings.warn(f"apply_to_iterator: the batch size ({len(batch)}) is not a multiple of the "
                                  f"number of workers ({size}); give the total batch size of all workers",
                                  RuntimeWarning)
                checked = True
                inputs, rests, parts = _split(batch, n_input, size)
        local = parts[0] if comm is None else comm.mpi_comm.scatter(parts)
        if local is None:
            return
        outputs = None
        if local:
            outputs = func(*_columns(local))
            if not isinstance(outputs, tuple):
                outputs = outputs,
        gathered = [outputs] if comm is None else comm.gather_obj(outputs)
        if rank == 0:
            pieces = [g for g in gathered if g is not None]
            out_values = tuple(sum((list(piece[i]) for piece in pieces), []) for i in range(len(pieces[0])))
            in_values, rest_values = _columns(inputs), _columns(rests)
            if hook:
                hook(in_values, out_values, rest_values)
            yield in_values, out_values, rest_values


def _flatten(batches):
    return (value for batch in batches for value in batch)
