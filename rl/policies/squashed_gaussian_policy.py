"""SquashedDiagonalGaussianHead: SAC's tanh-squashed Gaussian policy head."""
import kusari
import kusari.functions as F
from kusari.rl import distributions
from kusari.rl.policies._checks import batch_of_vectors


class SquashedDiagonalGaussianHead(kusari.Link):
    """Head that reads a mean and a log standard deviation and squashes draws with tanh.

    PFRL writes this head inline in its SAC examples; the log-scale bounds are theirs.

    Parameters
    ----------
    log_scale_min, log_scale_max : float
        The log standard deviation is clipped to this range (no gradient outside it).
    """

    def __init__(self, log_scale_min: float = -20.0, log_scale_max: float = 2.0):
        super().__init__()
        if not log_scale_min < log_scale_max:
            raise ValueError(f"SquashedDiagonalGaussianHead: log_scale_min={log_scale_min} must be "
                             f"below log_scale_max={log_scale_max}")
        self.log_scale_min = log_scale_min
        self.log_scale_max = log_scale_max

    def forward(self, mean_and_log_scale) -> distributions.SquashedDiagonalGaussian:
        """``tanh(N(x[:, :n], exp(clip(x[:, n:]))^2))``.

        Parameters
        ----------
        mean_and_log_scale : float Variable or array of shape (batch_size, 2 * action_size)

        Returns
        -------
        kusari.rl.distributions.SquashedDiagonalGaussian, batch_shape (batch_size,),
        event_shape (action_size,).
        """
        x = batch_of_vectors(type(self).__name__, mean_and_log_scale, "mean_and_log_scale",
                             even=True)
        mean, log_scale = F.split_axis(x, 2, axis=1)
        log_scale = F.clip(log_scale, self.log_scale_min, self.log_scale_max)
        return distributions.SquashedDiagonalGaussian(mean, log_scale)
