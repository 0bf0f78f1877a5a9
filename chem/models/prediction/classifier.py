"""Classifier: a predictor with a classification loss and metrics, plus batched predict / predict_proba."""
import warnings
from collections.abc import Callable

import kusari
from kusari import functions as F
from kusari.chem.models.prediction._supervised import SupervisedForwardModel, metrics_dict
from kusari.chem.dataset.converters import concat_mols


def _argmax(*args):
    return F.argmax(args[0], axis=1)


class Classifier(SupervisedForwardModel):
    """``Classifier(predictor)(*x, t)`` -> ``lossfun(predictor(*x), t)``; reports ``loss`` and metrics.

    Parameters
    ----------
    predictor : kusari.Link
    lossfun : callable
        ``lossfun(y, t)`` -> scalar Variable.
    accfun : callable or None
        Deprecated alias of ``metrics_fun`` (warns, and replaces it).
    metrics_fun : callable, dict of name -> callable, or None
        A callable is reported as ``accuracy``; None computes no metrics.
    label_key : int or str
        The label's position among the positional arguments, or its keyword.
    device : int, str or kusari.backend.Device
        Where the model lives (-1: the host).

    Unlike ``kusari.links.Classifier``, metrics are a dict, reports hold Python scalars, and
    ``predict`` / ``predict_proba`` run whole datasets in batches.
    """

    def __init__(self, predictor, lossfun: Callable = F.softmax_cross_entropy,
                 accfun: Callable | None = None, metrics_fun=F.accuracy, label_key=-1,
                 device=-1):
        if accfun is not None:
            warnings.warn("Classifier: accfun is deprecated, use metrics_fun; accfun now "
                          "replaces metrics_fun", DeprecationWarning, stacklevel=2)
            metrics_fun = accfun
        super().__init__(predictor, lossfun, metrics_dict("Classifier", metrics_fun, "accuracy"),
                         label_key, device)

    def predict_proba(self, data, batchsize: int = 16, converter: Callable = concat_mols,
                      retain_inputs: bool = False, preprocess_fn: Callable | None = None,
                      postprocess_fn: Callable | None = F.softmax):
        """Class probabilities of every example of ``data``, in test mode without a graph.

        Parameters
        ----------
        data
            A dataset of predictor inputs (no labels) or an array of them.
        batchsize, converter, retain_inputs, preprocess_fn
            As in ``BaseForwardModel._forward``.
        postprocess_fn : callable
            Turns the predictor's scores into probabilities (softmax by default).

        Returns
        -------
        numpy.ndarray
            Shape (len(data), n_classes).
        """
        return self._predict(data, batchsize, converter, retain_inputs, preprocess_fn,
                             postprocess_fn)

    def predict(self, data, batchsize: int = 16, converter: Callable = concat_mols,
                retain_inputs: bool = False, preprocess_fn: Callable | None = None,
                postprocess_fn: Callable | None = _argmax):
        """The predicted class of every example of ``data`` (argmax over axis 1 by default).

        Parameters
        ----------
        data
            A dataset of predictor inputs (no labels) or an array of them.
        batchsize, converter, retain_inputs, preprocess_fn, postprocess_fn
            As in ``BaseForwardModel._forward``.

        Returns
        -------
        numpy.ndarray
            Shape (len(data),), integer class ids.
        """
        return self._predict(data, batchsize, converter, retain_inputs, preprocess_fn,
                             postprocess_fn)

    def _predict(self, data, batchsize, converter, retain_inputs, preprocess_fn, postprocess_fn):
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            return self._forward(data, fn=self.predictor, batchsize=batchsize, converter=converter,
                                 retain_inputs=retain_inputs, preprocess_fn=preprocess_fn,
                                 postprocess_fn=postprocess_fn)

    # Chainer Chemistry's deprecated names of compute_metrics / metrics / metrics_fun
    @property
    def compute_accuracy(self) -> bool:
        warnings.warn("Classifier.compute_accuracy is deprecated, use compute_metrics",
                      DeprecationWarning, stacklevel=2)
        return self.compute_metrics

    @compute_accuracy.setter
    def compute_accuracy(self, value: bool) -> None:
        warnings.warn("Classifier.compute_accuracy is deprecated, use compute_metrics",
                      DeprecationWarning, stacklevel=2)
        self.compute_metrics = value

    @property
    def accuracy(self):
        warnings.warn("Classifier.accuracy is deprecated, use metrics", DeprecationWarning,
                      stacklevel=2)
        return self.metrics

    @accuracy.setter
    def accuracy(self, value) -> None:
        warnings.warn("Classifier.accuracy is deprecated, use metrics", DeprecationWarning,
                      stacklevel=2)
        self.metrics = value

    @property
    def accfun(self):
        warnings.warn("Classifier.accfun is deprecated, use metrics_fun", DeprecationWarning,
                      stacklevel=2)
        return self.metrics_fun

    @accfun.setter
    def accfun(self, value) -> None:
        warnings.warn("Classifier.accfun is deprecated, use metrics_fun", DeprecationWarning,
                      stacklevel=2)
        self.metrics_fun = value
