"""BatchNormalization: batch statistics in training, running averages in inference (Ioffe & Szegedy, 2015)."""
import numpy

from kusari import configuration
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.links.normalization._affine import _initializer
from kusari.variable import Parameter, Variable


def _as_axis(axis):
    if axis is None:
        return None
    return (axis,) if isinstance(axis, int) else tuple(axis)


class BatchNormalization(Link):
    """Batch normalization layer.

    Parameters
    ----------
    size : int, tuple of ints, or None
        Shape of gamma, beta and the running statistics. None defers it to the first call:
        x.shape without the ``axis`` axes, or (x.shape[1],) when axis is None.
    decay : float
        Running averages are updated as ``r = decay * r + (1 - decay) * batch_stat``.
    eps : float
    dtype : dtype of the parameters and statistics (default ``config.dtype`` at construction;
        float32 when that is 'mixed16')
    use_gamma, use_beta : bool
        Without them the scale is 1 and the shift 0 (no Parameter is created).
    initial_gamma, initial_beta : initializers (default 1 and 0)
    axis : int or tuple of ints, optional
        Axes to normalize over; default axis 0 and the axes after ``size``.
    initial_avg_mean, initial_avg_var : initializers (default 0 and 1)

    Persistents: ``avg_mean``, ``avg_var`` (running statistics) and ``N`` (batches seen in
    fine-tuning). ``forward(x, finetune=False)``: in training mode with ``finetune=True`` the
    running statistics become the exact average over the batches seen since the last reset.
    An empty batch in training mode gives an empty output and leaves ``avg_mean``, ``avg_var``
    and ``N`` unchanged (see ``F.batch_normalization``).
    """

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None, axis=None, initial_avg_mean=None,
                 initial_avg_var=None):
        super().__init__()
        self.decay = decay
        self.eps = eps
        self.axis = _as_axis(axis)
        # Under mixed16 the scale, shift and statistics stay float32 (x may be float16).
        self._dtype = configuration.get_dtype(dtype, map_mixed16=numpy.float32)
        self._initial_avg_mean = 0 if initial_avg_mean is None else initial_avg_mean
        self._initial_avg_var = 1 if initial_avg_var is None else initial_avg_var
        self.add_persistent("avg_mean", None)
        self.add_persistent("avg_var", None)
        self.add_persistent("N", 0)
        self.gamma = self.beta = None
        with self.init_scope():
            if use_gamma:
                self.gamma = Parameter(self._param_init(1 if initial_gamma is None else initial_gamma))
            if use_beta:
                self.beta = Parameter(self._param_init(0 if initial_beta is None else initial_beta))
        if size is not None:
            self._initialize_params((size,) if isinstance(size, int) else tuple(size))

    def _param_init(self, value):
        # gamma and beta take the link's dtype whatever the initializer's, as in Chainer
        return _initializer(value, self._dtype)

    def _initialize_params(self, shape):
        xp = self.xp
        for name, value in (("avg_mean", self._initial_avg_mean), ("avg_var", self._initial_avg_var)):
            array = initializers.generate_array(initializers._get_initializer(value), shape, xp,
                                                dtype=self._dtype)
            object.__setattr__(self, name, self.device.send(array))
        for param in (self.gamma, self.beta):
            if param is not None:
                param.initialize(shape)

    def _param_shape(self, x):
        if self.axis is None:
            return x.shape[1:2]
        axes = {a % x.ndim for a in self.axis}
        return tuple(d for i, d in enumerate(x.shape) if i not in axes)

    def _scale_shift(self):
        xp = self.xp
        gamma, beta = self.gamma, self.beta
        if gamma is None:
            gamma = Variable(xp.ones_like(self.avg_mean), requires_grad=False)
        if beta is None:
            beta = Variable(xp.zeros_like(self.avg_mean), requires_grad=False)
        return gamma, beta

    def _decay(self, finetune, x):
        # An empty batch leaves the statistics unchanged, so it does not count as a batch seen.
        if finetune and x.size > 0:
            self.N += 1
            return 1.0 - 1.0 / self.N
        return self.decay

    def forward(self, x, finetune=False):
        """x: (N, *size, ...) -> Variable of x's shape."""
        if self.avg_mean is None:
            self._initialize_params(self._param_shape(x))
        gamma, beta = self._scale_shift()
        if configuration.config.train:
            return F.batch_normalization(x, gamma, beta, eps=self.eps, running_mean=self.avg_mean,
                                         running_var=self.avg_var, decay=self._decay(finetune, x),
                                         axis=self.axis)
        return F.fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var, self.eps,
                                           axis=self.axis)

    def start_finetuning(self):
        """Restart the exact averaging of ``forward(x, finetune=True)``."""
        self.N = 0
