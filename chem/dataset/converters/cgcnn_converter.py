"""cgcnn_converter: joins CGCNN crystal graphs into one batch graph."""
import numpy

import kusari.dataset


@kusari.dataset.converter()
def cgcnn_converter(batch, device=None, padding=None):
    """Join CGCNN examples into flat arrays, renumbering neighbor indices.

    Parameters
    ----------
    batch : list
        ``B`` examples ``(atom_feat (n_i, F), nbr_feat (n_i, M, K), nbr_idx (n_i, M), target)``.
    device : int, str, kusari.backend.Device or None
        Where to send the results; None leaves them on the host.
    padding
        Unused (kept for the converter signature).

    Returns
    -------
    tuple
        ``(atom_feat (sum n, F), nbr_feat (sum n, M, K), atom_idx, nbr_idx (sum n, M),
        target (B, ...))``. ``atom_idx`` stays on the host: a (B,) object array whose i-th item
        is the int array of example i's rows in ``atom_feat``.
    """
    if len(batch) == 0:
        raise ValueError("cgcnn_converter: the batch is empty")
    n_atoms = numpy.array([len(example[0]) for example in batch])
    starts = numpy.concatenate(([0], numpy.cumsum(n_atoms)[:-1]))
    # examples differ in size, so the per-example row lists form a ragged (object) array
    atom_idx = numpy.empty(len(batch), dtype=object)
    for i, (start, n) in enumerate(zip(starts, n_atoms)):
        atom_idx[i] = numpy.arange(start, start + n)
    to_device = kusari.dataset.to_device
    # Python-int offsets keep the dtype of nbr_idx
    return (
        to_device(device, numpy.concatenate([example[0] for example in batch])),
        to_device(device, numpy.concatenate([example[1] for example in batch])),
        atom_idx,
        to_device(device, numpy.concatenate([example[2] + int(start)
                                             for example, start in zip(batch, starts)])),
        to_device(device, numpy.asarray([example[3] for example in batch])),
    )
