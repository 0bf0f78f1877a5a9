"""BaseCalculator: run a saliency method over a dataset in batches, M times, and aggregate the samples.

A subclass implements ``_compute_core(*inputs)`` for one batch. The target variable (what the
saliency is about) is the model's first input, or the variable a :class:`VariableMonitorLinkHook`
records (e.g. the atom embedding); the output variable is the model's output or a hook's variable.
Sampling M times with noise on the target gives SmoothGrad, with ``train=True`` on a model with
dropout BayesGrad.
"""
from logging import getLogger

import kusari
import numpy
from kusari import backend
from kusari.chem.link_hooks.variable_monitor_link_hook import (
    VariableMonitorLinkHook,
)
from kusari.dataset import concat_examples
from kusari.iterators import SerialIterator

_sampling_axis = 0
_AGGREGATIONS = ("raw", "abs", "square")
_TARGET_PREFIX = "/saliency/target/"
_OUTPUT_PREFIX = "/saliency/output/"


def _to_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _to_variable(x):
    return x if isinstance(x, kusari.Variable) else kusari.Variable(x)


def _to_numpy(x):
    return backend.to_cpu(x.array if isinstance(x, kusari.Variable) else x)


def _concat(batch_list):
    """Concatenate per-batch arrays along the batch axis, zero-padding batches of different widths."""
    if all(b.shape[1:] == batch_list[0].shape[1:] for b in batch_list):
        return numpy.concatenate(batch_list)
    return concat_examples([example for batch in batch_list for example in batch], padding=0)


def _progress(iterable, show_progress: bool):
    if not show_progress:
        return iterable
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is optional: without it there is no bar
        return iterable
    return tqdm(iterable)


def _check_extractor(name: str, extractor) -> None:
    if extractor is not None and not isinstance(extractor, VariableMonitorLinkHook):
        raise TypeError(f"BaseCalculator: {name} must be a VariableMonitorLinkHook or None, got "
                        f"{type(extractor).__name__}")


class BaseCalculator:
    """Base class of the saliency calculators: :meth:`compute` samples, :meth:`aggregate` reduces.

    Parameters
    ----------
    model : kusari.Link
        The model to explain.
    target_extractor : VariableMonitorLinkHook or None
        Records the variable to explain; None takes the model's first input.
    output_extractor : VariableMonitorLinkHook or None
        Records the score to explain; None takes the model's output.
    device : int, str, kusari.backend.Device or None
        Where the converter sends the batches; None is the device of the model's parameters.
    logger : logging.Logger or None
    """

    def __init__(self, model, target_extractor=None, output_extractor=None, device=None, logger=None):
        _check_extractor("target_extractor", target_extractor)
        _check_extractor("output_extractor", output_extractor)
        self.model = model
        if device is None:
            first = next(iter(model.params()), None)
            device = backend.get_device_from_array(None if first is None else first.array)
        self._device = backend.get_device(device)
        self.target_extractor = target_extractor
        self.output_extractor = output_extractor
        self.logger = logger or getLogger(__name__)

    def compute(self, data, M: int = 1, batchsize: int = 16, converter=concat_examples,
                retain_inputs: bool = False, preprocess_fn=None, postprocess_fn=None, train: bool = False,
                noise_sampler=None, show_progress: bool = True) -> numpy.ndarray:
        """M saliency samples of every example of ``data``.

        Parameters
        ----------
        data : dataset
            The examples, fed to the model in order through ``converter``.
        M : int
            The number of samples (several with ``noise_sampler`` for SmoothGrad, or ``train=True``
            on a stochastic model for BayesGrad).
        batchsize : int
        converter : callable
            ``converter(batch, device)`` -> the model's inputs.
        retain_inputs : bool
            Keep the converted inputs of the last sample in ``self.inputs`` (concatenated over
            batches, zero-padded to the widest batch).
        preprocess_fn, postprocess_fn : callable or None
            Applied to the converted inputs, and to the saliency of each batch.
        train : bool
            The value of ``kusari.config.train`` during the computation.
        noise_sampler : object with ``sample(array)`` or None
            Noise added to the target variable before each computation.
        show_progress : bool
            A progress bar over the M samples (when tqdm is installed).

        Returns
        -------
        numpy.ndarray, (M, N, ...)
            The samples; ``N, ...`` is the target variable's shape over the whole dataset, batches
            of different widths zero-padded to the widest.
        """
        samples = []
        for _ in _progress(range(M), show_progress):
            with kusari.using_config("train", train):
                saliency = self._forward(data, batchsize=batchsize, converter=converter,
                                         retain_inputs=retain_inputs, preprocess_fn=preprocess_fn,
                                         postprocess_fn=postprocess_fn, noise_sampler=noise_sampler)
            samples.append(backend.to_cpu(saliency))
        return numpy.stack(samples, axis=_sampling_axis)

    def aggregate(self, saliency_arrays: numpy.ndarray, method: str = "raw", ch_axis=None) -> numpy.ndarray:
        """The mean over the samples of the (absolute or squared) saliency, summed over ``ch_axis``.

        Parameters
        ----------
        saliency_arrays : numpy.ndarray, (M, N, ...)
            What :meth:`compute` returned.
        method : {'raw', 'abs', 'square'}
            Take the samples as they are, their absolute values or their squares.
        ch_axis : int, tuple of int or None
            Axes of ``saliency_arrays`` (sampling axis included) summed before the mean.

        Returns
        -------
        numpy.ndarray, (N, ...)
            The saliency, without the sampling axis and the ``ch_axis`` axes.
        """
        if method == "raw":
            h = saliency_arrays
        elif method == "abs":
            h = numpy.abs(saliency_arrays)
        elif method == "square":
            h = saliency_arrays ** 2
        else:
            raise ValueError(f"BaseCalculator.aggregate: method must be one of {_AGGREGATIONS}, got {method!r}")
        if ch_axis is not None:
            h = numpy.sum(h, axis=ch_axis)
        return numpy.mean(h, axis=_sampling_axis)

    def _compute_core(self, *inputs):
        """The saliency of one batch, as a tuple; each subclass implements it."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _compute_core")

    def get_target_var(self, inputs):
        """The variable to explain: the target extractor's record, or the first of ``inputs``."""
        if self.target_extractor is not None:
            target_var = self.target_extractor.get_variable()
        else:
            target_var = inputs[0] if isinstance(inputs, (tuple, list)) else inputs
        if target_var is None:
            self.logger.warning("target_var is None: the model has not run the target extractor's link yet")
        return target_var

    def get_output_var(self, outputs):
        """The score to explain: the output extractor's record, or ``outputs``."""
        output_var = outputs if self.output_extractor is None else self.output_extractor.get_variable()
        if output_var is None:
            self.logger.warning("output_var is None: the model has not run the output extractor's link yet")
        return output_var

    def _attach(self, extractor, prefix: str):
        if extractor is None:
            return None
        name = prefix + extractor.name
        extractor.target_link.add_hook(extractor, name=name)
        return name

    def _forward(self, data, batchsize=16, converter=concat_examples, retain_inputs=False,
                 preprocess_fn=None, postprocess_fn=None, noise_sampler=None):
        """One saliency sample of ``data``, batch by batch (the extractors attached meanwhile)."""
        attached = []
        try:
            for extractor, prefix in ((self.target_extractor, _TARGET_PREFIX),
                                      (self.output_extractor, _OUTPUT_PREFIX)):
                name = self._attach(extractor, prefix)
                if name is not None:
                    attached.append((extractor, name))
            return self._forward_batches(data, batchsize, converter, retain_inputs, preprocess_fn,
                                         postprocess_fn, noise_sampler)
        finally:
            for extractor, name in attached:
                extractor.target_link.delete_hook(name)

    def _forward_batches(self, data, batchsize, converter, retain_inputs, preprocess_fn, postprocess_fn,
                         noise_sampler):
        input_list = None
        output_list = None
        for batch in SerialIterator(data, batch_size=batchsize, repeat=False, shuffle=False):
            inputs = _to_tuple(converter(batch, self._device))
            if preprocess_fn:
                inputs = _to_tuple(preprocess_fn(*inputs))
            inputs = [_to_variable(x) for x in inputs]
            outputs = self._compute_with_noise(inputs, noise_sampler)

            if retain_inputs:
                if input_list is None:
                    input_list = [[] for _ in inputs]
                for j, x in enumerate(inputs):
                    input_list[j].append(_to_numpy(x))
            if postprocess_fn:
                outputs = _to_tuple(postprocess_fn(*outputs))
            if output_list is None:
                output_list = [[] for _ in outputs]
            for j, output in enumerate(outputs):
                output_list[j].append(_to_numpy(output))

        if retain_inputs:
            self.inputs = [_concat(arrays) for arrays in input_list]
        result = [_concat(arrays) for arrays in output_list]
        if len(result) == 1:
            return result[0]
        self.logger.error("BaseCalculator: a _compute_core with several outputs is not supported; "
                          "returning the list of them")
        return result

    def _compute_with_noise(self, inputs, noise_sampler):
        if noise_sampler is None:
            return self._compute_core(*inputs)
        if self.target_extractor is None:
            inputs[0].array += noise_sampler.sample(inputs[0].array)
            return self._compute_core(*inputs)

        def add_noise(hook, args, target_var):
            target_var.array += noise_sampler.sample(target_var.array)

        self.target_extractor.add_process("/saliency/add_noise", add_noise)
        try:
            return self._compute_core(*inputs)
        finally:
            self.target_extractor.delete_process("/saliency/add_noise")
