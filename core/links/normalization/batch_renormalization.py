"""BatchRenormalization: batch normalization corrected towards the running statistics (Ioffe, 2017)."""
from kusari import configuration
from kusari import functions as F
from kusari.links.normalization.batch_normalization import BatchNormalization


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer; as BatchNormalization plus ``rmax``, ``dmax``.

    In training ``y = gamma * (x_hat * r + d) + beta`` with ``r`` clipped to [1/rmax, rmax] and
    ``d`` to [-dmax, dmax] (see ``F.batch_renormalization``); the running statistics are updated
    unless ``freeze_running_statistics``. Inference uses the running statistics.
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None,
                 freeze_running_statistics=False):
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta)
        self.rmax = rmax
        self.dmax = dmax
        self.freeze_running_statistics = freeze_running_statistics

    def forward(self, x, finetune=False):
        """x: (N, *size, ...) -> Variable of x's shape."""
        if self.avg_mean is None:
            self._initialize_params(self._param_shape(x))
        gamma, beta = self._scale_shift()
        if configuration.config.train:
            return F.batch_renormalization(
                x, gamma, beta, self.rmax, self.dmax, self.eps, self.avg_mean, self.avg_var,
                self._decay(finetune, x), update_statistics=not self.freeze_running_statistics)
        return F.fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
