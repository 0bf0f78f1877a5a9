"""Gaussian policy heads: a network's output -> a diagonal Gaussian over continuous actions."""
from collections.abc import Callable

import kusari
import kusari.distributions as D
import kusari.functions as F
import numpy
from kusari.rl import distributions
from kusari.rl.policies._checks import batch_of_vectors


def _diagonal_gaussian(mean, scale) -> distributions.Independent:
    return distributions.Independent(D.Normal(loc=mean, scale=scale), 1)


class GaussianHeadWithStateIndependentCovariance(kusari.Link):
    """Gaussian head whose variance is a learned parameter shared by all states (PPO, TRPO).

    Parameters
    ----------
    action_size : int
        Number of action dimensions.
    var_type : {'spherical', 'diagonal'}
        One variance for all dimensions, or one per dimension.
    var_func : callable
        Maps the parameter ``var_param`` to a positive variance.
    var_param_init : float or array
        Initial value of ``var_param`` (float32 of shape (1,) or (action_size,)).
    """

    def __init__(self, action_size: int, var_type: str = "spherical",
                 var_func: Callable = F.softplus, var_param_init=0):
        super().__init__()
        sizes = {"spherical": 1, "diagonal": action_size}
        if var_type not in sizes:
            raise ValueError(f"GaussianHeadWithStateIndependentCovariance: var_type must be "
                             f"'spherical' or 'diagonal', got {var_type!r}")
        self.action_size = action_size
        self.var_func = var_func
        init = numpy.broadcast_to(numpy.asarray(var_param_init, dtype=numpy.float32),
                                  (sizes[var_type],)).copy()
        with self.init_scope():
            self.var_param = kusari.Parameter(init)

    def forward(self, mean) -> distributions.Independent:
        """Gaussian with the given mean and the learned variance.

        Parameters
        ----------
        mean : float Variable or array of shape (batch_size, action_size)

        Returns
        -------
        kusari.rl.distributions.Independent over Normal, batch_shape (batch_size,),
        event_shape (action_size,).
        """
        mean = batch_of_vectors(type(self).__name__, mean, "mean")
        if mean.shape[1] != self.action_size:
            raise ValueError(f"{type(self).__name__}: mean must have {self.action_size} columns "
                             f"(action_size), got shape {mean.shape}")
        return _diagonal_gaussian(mean, F.sqrt(self.var_func(self.var_param)))


class GaussianHeadWithDiagonalCovariance(kusari.Link):
    """Gaussian head that reads mean and variance from its input's two halves.

    Parameters
    ----------
    var_func : callable
        Maps the second half of the input to a positive variance.
    """

    def __init__(self, var_func: Callable = F.softplus):
        super().__init__()
        self.var_func = var_func

    def forward(self, mean_and_var) -> distributions.Independent:
        """Gaussian with mean ``x[:, :n]`` and variance ``var_func(x[:, n:])``.

        Parameters
        ----------
        mean_and_var : float Variable or array of shape (batch_size, 2 * action_size)

        Returns
        -------
        kusari.rl.distributions.Independent over Normal, event_shape (action_size,).
        """
        x = batch_of_vectors(type(self).__name__, mean_and_var, "mean_and_var", even=True)
        mean, pre_var = F.split_axis(x, 2, axis=1)
        return _diagonal_gaussian(mean, F.sqrt(self.var_func(pre_var)))


class GaussianHeadWithFixedCovariance(kusari.Link):
    """Gaussian head with a fixed standard deviation ``scale`` in every dimension.

    Parameters
    ----------
    scale : float
        Standard deviation.
    """

    def __init__(self, scale: float = 1):
        super().__init__()
        self.scale = scale

    def forward(self, mean) -> distributions.Independent:
        """Gaussian with the given mean and standard deviation ``scale``.

        Parameters
        ----------
        mean : float Variable or array of shape (batch_size, action_size)

        Returns
        -------
        kusari.rl.distributions.Independent over Normal, event_shape (action_size,).
        """
        mean = batch_of_vectors(type(self).__name__, mean, "mean")
        return _diagonal_gaussian(mean, self.scale)
