"""SiameseDataset: pairs of examples drawn from two datasets, optionally with a set ratio of same-label pairs."""
import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset


def _indices_by_label(labels) -> dict:
    """``{label: [positions]}``, labels in order of first appearance."""
    indices = {}
    for i, label in enumerate(labels):
        indices.setdefault(label, []).append(i)
    return indices


def _check_labels(labels, dataset, name: str) -> None:
    if not (isinstance(labels, numpy.ndarray) and labels.dtype == numpy.int32 and labels.ndim == 1
            and len(labels) == len(dataset)):
        got = (f"shape={labels.shape}, dtype={labels.dtype}" if isinstance(labels, numpy.ndarray)
               else type(labels).__name__)
        raise ValueError(f"SiameseDataset: {name} must be a 1-D int32 array with one label per example of its "
                         f"dataset ({len(dataset)}), got {got}")


class SiameseDataset(GetterDataset):
    """Pairs ``(img_0, label_0, img_1, label_1)``: an example of ``dataset_0`` and one of ``dataset_1``, drawn
    at random at each access (with NumPy's global generator, in ChainerCV's order of draws).

    With ``pos_ratio`` None both examples are drawn uniformly. Otherwise, the datasets being label
    datasets (examples ``(img, label)``), a pair has the same label with probability ``pos_ratio``:
    a label present in both is drawn, then an example of it from each; else a label of
    ``dataset_0`` that ``dataset_1`` also has other labels for, then a different label of
    ``dataset_1``, then an example of each.

    Parameters
    ----------
    dataset_0, dataset_1
        The datasets (possibly the same object).
    pos_ratio : float, optional
        The probability of a same-label pair.
    length : int, optional
        The dataset's length; ``len(dataset_0)`` by default.
    labels_0, labels_1 : numpy.ndarray, optional
        (N,) int32 labels of the datasets (read from every example's second value when not given,
        and only used with ``pos_ratio``); when the datasets are the same object, one is enough.

    Notes
    -----
    Keys ``img_0``, ``label_0``, ``img_1``, ``label_1``: the values of the drawn examples.
    """

    def __init__(self, dataset_0, dataset_1, pos_ratio=None, length=None, labels_0=None, labels_1=None):
        super().__init__()
        self._dataset_0 = dataset_0
        self._dataset_1 = dataset_1
        self._pos_ratio = pos_ratio
        self._length = len(dataset_0) if length is None else length
        if pos_ratio is not None:
            if dataset_0 is dataset_1:
                if labels_0 is None and labels_1 is None:
                    labels_0 = numpy.array([example[1] for example in dataset_0])
                labels_0 = labels_1 if labels_0 is None else labels_0
                labels_1 = labels_0 if labels_1 is None else labels_1
            else:
                if labels_0 is None:
                    labels_0 = numpy.array([example[1] for example in dataset_0])
                if labels_1 is None:
                    labels_1 = numpy.array([example[1] for example in dataset_1])
            _check_labels(labels_0, dataset_0, "labels_0")
            _check_labels(labels_1, dataset_1, "labels_1")
            self._label_to_index_0 = _indices_by_label(labels_0)
            self._label_to_index_1 = (self._label_to_index_0 if dataset_0 is dataset_1
                                      else _indices_by_label(labels_1))
            unique_0 = numpy.array(list(self._label_to_index_0))
            self._exist_pos_pair_labels_0 = numpy.array([l for l in unique_0 if numpy.any(labels_1 == l)])
            if len(self._exist_pos_pair_labels_0) == 0 and pos_ratio > 0:
                raise ValueError("SiameseDataset: no label is in both datasets, so there are no positive pairs; "
                                 "set pos_ratio to None")
            self._exist_neg_pair_labels_0 = numpy.array([l for l in unique_0 if numpy.any(labels_1 != l)])
            if len(self._exist_neg_pair_labels_0) == 0 and pos_ratio < 1:
                raise ValueError("SiameseDataset: dataset_1 has no label other than those of dataset_0's examples, "
                                 "so there are no negative pairs; set pos_ratio to None")
        self._labels_0 = labels_0
        self._labels_1 = labels_1
        self.add_getter(("img_0", "label_0", "img_1", "label_1"), self._get_example)

    def __len__(self):
        return self._length

    def _draw_indices(self) -> tuple:
        if self._pos_ratio is None:
            return (numpy.random.choice(numpy.arange(len(self._dataset_0))),
                    numpy.random.choice(numpy.arange(len(self._dataset_1))))
        if numpy.random.binomial(1, self._pos_ratio):
            label_0 = label_1 = numpy.random.choice(self._exist_pos_pair_labels_0)
        else:
            label_0 = numpy.random.choice(self._exist_neg_pair_labels_0)
            others = [label for label in self._label_to_index_1 if label != label_0]
            label_1 = numpy.random.choice(others)
        return (numpy.random.choice(self._label_to_index_0[label_0]),
                numpy.random.choice(self._label_to_index_1[label_1]))

    def _get_example(self, i):
        index_0, index_1 = self._draw_indices()
        return tuple(self._dataset_0[index_0]) + tuple(self._dataset_1[index_1])
