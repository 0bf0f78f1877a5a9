"""megnet_converter: joins MEGNet molecule graphs into one disconnected batch graph."""
import numpy

import kusari.dataset


@kusari.dataset.converter()
def megnet_converter(batch, device=None, padding=0):
    """Join MEGNet examples into flat arrays plus the example each atom and pair belongs to.

    Parameters
    ----------
    batch : list
        ``B`` examples ``(atom_feat (n_i, F_a), pair_feat (p_i, F_p), global_feat (F_g,),
        pair_index (2, p_i), target)`` as MEGNetPreprocessor and a label give them.
    device : int, str, kusari.backend.Device or None
        Where to send the results; None leaves them on the host.
    padding
        Unused (kept for the converter signature).

    Returns
    -------
    tuple
        ``(atom_feat (sum n, F_a), pair_feat (sum p, F_p), global_feat (B, F_g),
        atom_idx (sum n,), pair_idx (sum p,), start_idx (sum p,), end_idx (sum p,),
        target (B, ...))``; ``atom_idx`` / ``pair_idx`` give each row's example and
        ``start_idx`` / ``end_idx`` the pair's atoms as rows of the joined ``atom_feat``.
    """
    if len(batch) == 0:
        raise ValueError("megnet_converter: the batch is empty")
    n_atoms = numpy.array([len(example[0]) for example in batch])
    n_pairs = numpy.array([len(example[1]) for example in batch])
    # each example's atom numbers move past the atoms of the examples before it; the offsets are
    # added as Python ints so that int32 index arrays stay int32
    offsets = numpy.concatenate(([0], numpy.cumsum(n_atoms)[:-1]))
    result = (
        numpy.concatenate([example[0] for example in batch]),
        numpy.concatenate([example[1] for example in batch]),
        numpy.stack([example[2] for example in batch]),
        numpy.repeat(numpy.arange(len(batch)), n_atoms),
        numpy.repeat(numpy.arange(len(batch)), n_pairs),
        numpy.concatenate([example[3][0] + int(offset) for example, offset in zip(batch, offsets)]),
        numpy.concatenate([example[3][1] + int(offset) for example, offset in zip(batch, offsets)]),
        numpy.asarray([example[4] for example in batch]),
    )
    return tuple(kusari.dataset.to_device(device, x) for x in result)
