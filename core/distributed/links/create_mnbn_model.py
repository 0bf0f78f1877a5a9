"""create_mnbn_model: a copy of a model with every BatchNormalization made multi-node."""
import copy

from kusari import links as L
from kusari.distributed.links.batch_normalization import MultiNodeBatchNormalization
from kusari.link import Chain, ChainList


def _convert(bn, comm, communication_backend):
    if bn.avg_mean is None or bn.axis is not None:
        raise ValueError(f"create_mnbn_model: BatchNormalization {bn.name!r} must have its size given and "
                         "normalize over the default axes (a channel axis 1)")
    mnbn = MultiNodeBatchNormalization(bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps,
                                       dtype=bn.avg_mean.dtype, use_gamma=bn.gamma is not None,
                                       use_beta=bn.beta is not None,
                                       communication_backend=communication_backend)
    mnbn.copyparams(bn)
    return mnbn


def create_mnbn_model(link, comm, communication_backend: str = "auto"):
    """A deep copy of ``link`` in which every :class:`kusari.links.BatchNormalization` (itself, or a
    child at any depth) is a :class:`MultiNodeBatchNormalization` with the same parameters and
    statistics."""
    link = copy.deepcopy(link)
    if type(link) is L.BatchNormalization:
        return _convert(link, comm, communication_backend)
    for _, parent in list(link.namedlinks()):
        if isinstance(parent, Chain):
            for child in list(parent.children()):
                if type(child) is L.BatchNormalization:
                    with parent.init_scope():
                        setattr(parent, child.name, _convert(child, comm, communication_backend))
        elif isinstance(parent, ChainList):
            for i, child in enumerate(list(parent)):
                if type(child) is L.BatchNormalization:
                    parent[i] = _convert(child, comm, communication_backend)
    return link
