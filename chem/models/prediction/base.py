"""BaseForwardModel: a Chain that owns its device and runs a function over a dataset in batches."""
from collections.abc import Callable

import numpy

import kusari
from kusari import backend
from kusari.dataset import concat_examples
from kusari.iterators import SerialIterator
from kusari.link import Chain


def _to_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else (x,)


def _to_numpy(x) -> numpy.ndarray:
    if isinstance(x, kusari.Variable):
        x = x.array
    return backend.to_cpu(x)


class BaseForwardModel(Chain):
    """A Chain that keeps itself on one device and forwards datasets batch by batch.

    Subclasses register their links, then call ``initialize(device)``. ``inputs`` holds the
    converted inputs of the last ``_forward`` that was asked to retain them.
    """

    def __init__(self):
        super().__init__()
        self.inputs = None

    def initialize(self, device=-1) -> None:
        """Put the model on ``device``; call it after the links are registered.

        Parameters
        ----------
        device : int, str or kusari.backend.Device
            -1 or ``'@numpy'`` for the host, a GPU id or ``'@cupy:N'``.
        """
        self.update_device(device)

    def update_device(self, device=-1) -> None:
        """Move the model to ``device`` (anything ``kusari.get_device`` accepts) if it is elsewhere."""
        device = kusari.get_device(device)
        if self.device != device:
            device.use()
            self.to_device(device)

    def _forward(self, data, fn: Callable, batchsize: int = 16,
                 converter: Callable = concat_examples, retain_inputs: bool = False,
                 preprocess_fn: Callable | None = None, postprocess_fn: Callable | None = None):
        """Run ``fn`` over ``data`` in batches of ``batchsize`` and concatenate the outputs on the host.

        Parameters
        ----------
        data
            A dataset (``data[i]`` is one example) or an array whose rows are examples.
        fn : callable
            ``fn(*inputs)`` -> a Variable or array, or a tuple of them.
        batchsize : int
        converter : callable
            ``converter(batch, device)`` -> the inputs of ``fn`` (one array or a tuple).
        retain_inputs : bool
            Keep the converted inputs, concatenated on the host, in ``self.inputs``.
        preprocess_fn : callable or None
            Applied to the converted inputs before ``fn``.
        postprocess_fn : callable or None
            Applied to the outputs of ``fn`` before they are gathered.

        Returns
        -------
        numpy.ndarray or list of numpy.ndarray
            Each output of ``fn`` for all of ``data``, shape (len(data), ...); a list when ``fn``
            (after ``postprocess_fn``) returns several.
        """
        input_list = None
        output_list = None
        for batch in SerialIterator(data, batch_size=batchsize, repeat=False, shuffle=False):
            inputs = _to_tuple(converter(batch, self.device))
            if preprocess_fn:
                inputs = _to_tuple(preprocess_fn(*inputs))
            outputs = _to_tuple(fn(*inputs))
            if retain_inputs:
                if input_list is None:
                    input_list = [[] for _ in inputs]
                for kept, x in zip(input_list, inputs):
                    kept.append(_to_numpy(x))
            if postprocess_fn:
                outputs = _to_tuple(postprocess_fn(*outputs))
            if output_list is None:
                output_list = [[] for _ in outputs]
            for gathered, y in zip(output_list, outputs):
                gathered.append(_to_numpy(y))
        if retain_inputs:
            self.inputs = [numpy.concatenate(parts) for parts in input_list]
        result = [numpy.concatenate(parts) for parts in output_list]
        return result[0] if len(result) == 1 else result

    def save_pickle(self, filepath, protocol=None):
        """Not supported: pickled models break across versions and can run code when loaded.

        Raises
        ------
        NotImplementedError
            Always; save the parameters with ``kusari.serializers.save_npz(filepath, model)``.
        """
        raise NotImplementedError(
            f"{type(self).__name__}.save_pickle: kusari.chem does not pickle models; save the "
            f"parameters with kusari.serializers.save_npz({filepath!r}, model) and load them into a "
            f"freshly built model with kusari.serializers.load_npz")

    @staticmethod
    def load_pickle(filepath, device=-1):
        """Not supported: see ``save_pickle``.

        Raises
        ------
        NotImplementedError
            Always; build the model, then ``kusari.serializers.load_npz(filepath, model)``.
        """
        raise NotImplementedError(
            f"BaseForwardModel.load_pickle: kusari.chem does not unpickle models; build the model "
            f"and load its parameters with kusari.serializers.load_npz({filepath!r}, model)")
