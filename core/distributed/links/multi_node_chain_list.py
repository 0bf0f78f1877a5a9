"""MultiNodeChainList: a model split over ranks, each rank running its links and passing activations on."""
from kusari.distributed.functions.point_to_point_communication import recv, send
from kusari.distributed.functions.pseudo_connect import pseudo_connect
from kusari.link import ChainList


def _ranks(value, what):
    if value is None:
        return None
    ranks = [value] if isinstance(value, int) else list(value)
    if not ranks or not all(isinstance(r, int) and r >= 0 for r in ranks):
        raise ValueError(f"MultiNodeChainList.add_link: {what} must be a rank, a list of ranks or None, got {value!r}")
    return ranks


class MultiNodeChainList(ChainList):
    """This rank's part of a model split over ranks (model parallelism).

    Each :meth:`add_link` adds a stage: its inputs come from the model's own inputs
    (``rank_in=None``) or from the ranks listed in ``rank_in``; its output is the model's output
    (``rank_out=None``) or is sent to the ranks in ``rank_out``. Calling the model runs the stages
    in order. It returns the last stage's output, or, on a rank whose every stage sends, the delegate
    of the last send: calling ``backward()`` on it runs this rank's share of the backward pass.
    Every rank must call its model, and its backward, as often as the others.

    Parameters
    ----------
    comm : CommunicatorBase
    """

    def __init__(self, comm):
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Append ``link`` as the next stage (see the class docstring)."""
        super().add_link(link)
        self._rank_inouts.append((_ranks(rank_in, "rank_in"), _ranks(rank_out, "rank_out")))

    def forward(self, *inputs):
        y = None
        delegate = None
        for link, (rank_in, rank_out) in zip(self, self._rank_inouts):
            if rank_in is None:
                xs = inputs
            else:
                xs = []
                for r in rank_in:
                    # the first receive carries the previous send's delegate, chaining their backwards
                    xs.extend(recv(self._comm, r, delegate_variable=delegate, force_tuple=True))
                    delegate = None
            x = link(*xs)
            if rank_out is None:
                y = x if delegate is None else pseudo_connect(delegate, x)
                delegate = None
            else:
                for r in rank_out:
                    if delegate is not None:
                        x = pseudo_connect(delegate, x)
                    delegate = send(x, self._comm, r)
        if y is None:
            return delegate
        if delegate is not None:
            return pseudo_connect(delegate, y)
        return y
