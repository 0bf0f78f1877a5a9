"""Classifier: wrap a predictor with a loss (and accuracy) against labels, reporting both."""
from kusari import functions as F
from kusari.link import Chain


class Classifier(Chain):
    """``Classifier(predictor)(*args, t)`` returns ``lossfun(predictor(*args), t)``.

    Parameters
    ----------
    predictor : Link
    lossfun : callable (default ``F.softmax_cross_entropy``)
    accfun : callable (default ``F.accuracy``), used when ``compute_accuracy`` is True
    label_key : int or str
        Position of the label among the positional arguments (default the last), or the name
        of a keyword argument.

    After a call, ``y``, ``loss`` and ``accuracy`` hold the results; ``loss`` (and
    ``accuracy``) are reported to ``kusari.reporter`` under this link.
    """

    compute_accuracy = True

    def __init__(self, predictor, lossfun=F.softmax_cross_entropy, accfun=F.accuracy,
                 label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError(f"Classifier: label_key must be int or str, got "
                            f"{type(label_key).__name__}")
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.label_key = label_key
        self.y = self.loss = self.accuracy = None
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        """Arguments of the predictor plus the label t (at ``label_key``) -> the loss Variable."""
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(f"Classifier: label_key={key} is out of range for "
                                 f"{len(args)} positional arguments")
            t = args[key]
            index = key % len(args)
            args = args[:index] + args[index + 1:]
        else:
            if key not in kwargs:
                raise ValueError(f"Classifier: label_key {key!r} is not among the keyword "
                                 f"arguments {sorted(kwargs)}")
            kwargs = dict(kwargs)
            t = kwargs.pop(key)
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        values = {"loss": self.loss}
        self.accuracy = None
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            values["accuracy"] = self.accuracy
        _report(values, self)
        return self.loss


def _report(values, observer):
    try:
        from kusari import reporter
    except ImportError:
        return
    reporter.report(values, observer)
