"""Regressor: a predictor with a regression loss and metrics, plus a batched predict."""
from collections.abc import Callable

import kusari
from kusari import functions as F
from kusari.chem.models.prediction._supervised import SupervisedForwardModel, metrics_dict
from kusari.chem.dataset.converters import concat_mols


class Regressor(SupervisedForwardModel):
    """``Regressor(predictor)(*x, t)`` -> ``lossfun(predictor(*x), t)``; reports ``loss`` and metrics.

    Parameters
    ----------
    predictor : kusari.Link
    lossfun : callable
        ``lossfun(y, t)`` -> scalar Variable (mean squared error by default).
    metrics_fun : callable, dict of name -> callable, or None
        A callable is reported as ``metrics``; None (default) computes no metrics.
    label_key : int or str
        The label's position among the positional arguments, or its keyword.
    device : int, str or kusari.backend.Device
        Where the model lives (-1: the host).
    """

    def __init__(self, predictor, lossfun: Callable = F.mean_squared_error, metrics_fun=None,
                 label_key=-1, device=-1):
        super().__init__(predictor, lossfun, metrics_dict("Regressor", metrics_fun, "metrics"),
                         label_key, device)

    def predict(self, data, batchsize: int = 16, converter: Callable = concat_mols,
                retain_inputs: bool = False, preprocess_fn: Callable | None = None,
                postprocess_fn: Callable | None = None):
        """The predictor's output for every example of ``data``, in test mode without a graph.

        Parameters
        ----------
        data
            A dataset of predictor inputs (no labels) or an array of them.
        batchsize, converter, retain_inputs, preprocess_fn, postprocess_fn
            As in ``BaseForwardModel._forward``.

        Returns
        -------
        numpy.ndarray
            Shape (len(data), ...) as the predictor returns it.
        """
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            return self._forward(data, fn=self.predictor, batchsize=batchsize, converter=converter,
                                 retain_inputs=retain_inputs, preprocess_fn=preprocess_fn,
                                 postprocess_fn=postprocess_fn)
