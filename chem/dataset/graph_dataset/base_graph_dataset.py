"""Graph datasets: lists of graph data whose converter batches each registered attribute its own way."""
import numpy

from kusari.chem.dataset.graph_dataset.base_graph_data import BaseGraphData
from kusari.chem.dataset.graph_dataset.feature_converters import (batch_with_padding,
                                                                  batch_without_padding, concat,
                                                                  concat_with_padding,
                                                                  shift_concat,
                                                                  shift_concat_with_padding)
from kusari.dataset import to_device


class BaseGraphDataset:
    """A list of graph data, and the batch method of each attribute for :meth:`converter`.

    Parameters
    ----------
    data_list : list of BaseGraphData
        The graphs.
    """

    _pattern = ""

    def __init__(self, data_list, *args, **kwargs):
        self.data_list = data_list
        # per instance: Chainer Chemistry keeps these lists on the class, so every new dataset
        # appended its features again to those of all datasets made before
        self._feature_entries = []
        self._feature_batch_method = []

    def register_feature(self, key: str, batch_method, skip_if_none: bool = True) -> None:
        """Batch the attribute ``key`` with ``batch_method`` (a function of :mod:`feature_converters`).

        Parameters
        ----------
        key : str
            Attribute name.
        batch_method : callable
            ``batch_method(key, batch, device=device)``.
        skip_if_none : bool
            Whether to leave the attribute out when the first graph's value is None (or missing).
        """
        if skip_if_none:
            if len(self.data_list) == 0:
                raise ValueError(f"{type(self).__name__}.register_feature: the dataset is empty, so "
                                 f"whether {key!r} is None cannot be told (pass skip_if_none=False)")
            if getattr(self.data_list[0], key, None) is None:
                return
        self._feature_entries.append(key)
        self._feature_batch_method.append(batch_method)

    def update_feature(self, key: str, batch_method) -> None:
        """Batch the registered attribute ``key`` with ``batch_method`` from now on."""
        if key not in self._feature_entries:
            raise KeyError(f"{type(self).__name__}.update_feature: {key!r} is not registered "
                           f"(registered: {self._feature_entries})")
        self._feature_batch_method[self._feature_entries.index(key)] = batch_method

    def __len__(self) -> int:
        return len(self.data_list)

    def __getitem__(self, item):
        return self.data_list[item]

    def _batch(self, batch: list, device, methods: dict) -> BaseGraphData:
        return BaseGraphData(**{key: methods.get(key, method)(key, batch, device=device)
                                for key, method in zip(self._feature_entries,
                                                       self._feature_batch_method)})

    def converter(self, batch: list, device=None) -> BaseGraphData:
        """One graph data whose attributes are the batched attributes of ``batch``.

        Parameters
        ----------
        batch : list of BaseGraphData
            ``B`` graphs.
        device
            Where to send the arrays (see :func:`kusari.dataset.to_device`); None: the host.

        Returns
        -------
        BaseGraphData
        """
        return self._batch(batch, device, {})


class PaddingGraphDataset(BaseGraphDataset):
    """Dataset of :class:`PaddingGraphData`: node features and adjacency padded and stacked."""

    _pattern = "padding"

    def __init__(self, data_list):
        super().__init__(data_list)
        for key in ("x", "adj", "super_node", "pos"):
            self.register_feature(key, batch_with_padding)
        self.register_feature("y", batch_without_padding)
        self.register_feature("n_nodes", batch_without_padding)


class SparseGraphDataset(BaseGraphDataset):
    """Dataset of :class:`SparseGraphData`: a batch becomes one big graph of disjoint parts."""

    _pattern = "sparse"

    def __init__(self, data_list):
        super().__init__(data_list)
        self.register_feature("x", concat)
        self.register_feature("edge_index", shift_concat)
        for key in ("edge_attr", "super_node", "pos"):
            self.register_feature(key, concat)
        self.register_feature("y", batch_without_padding)
        self.register_feature("n_nodes", batch_without_padding)

    def _with_graph_ids(self, data: BaseGraphData, device, n_nodes) -> BaseGraphData:
        data.batch = to_device(device, numpy.concatenate(
            [numpy.full(n, b, dtype=numpy.int64) for b, n in enumerate(n_nodes)]))
        return data

    def converter(self, batch: list, device=None) -> BaseGraphData:
        """The batch as one graph, with ``batch``: the graph each node came from.

        Parameters
        ----------
        batch : list of SparseGraphData
            ``B`` graphs of ``n_b`` nodes.
        device
            Where to send the arrays; None: the host.

        Returns
        -------
        BaseGraphData
            The registered attributes joined (``edge_index`` renumbered) and ``batch``:
            ``(sum n_b,)`` int64 graph ids.
        """
        data = self._batch(batch, device, {})
        return self._with_graph_ids(data, device, [g.x.shape[0] for g in batch])

    def converter_with_padding(self, batch: list, device=None) -> BaseGraphData:
        """Like :meth:`converter`, with every graph padded to the largest one's ``max_n`` nodes.

        Unlike Chainer Chemistry's, this leaves :meth:`converter` unchanged afterwards.

        Returns
        -------
        BaseGraphData
            ``x`` of ``B * max_n`` rows, ``edge_index`` numbered accordingly and ``batch``:
            ``(B * max_n,)`` int64 graph ids.
        """
        methods = {"x": concat_with_padding, "edge_index": shift_concat_with_padding}
        data = self._batch(batch, device, methods)
        max_n = max(g.x.shape[0] for g in batch)
        return self._with_graph_ids(data, device, [max_n] * len(batch))
