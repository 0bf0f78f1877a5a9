"""Exploration by adding Ornstein-Uhlenbeck noise to a continuous action (DDPG's explorer)."""
from logging import Logger, getLogger

import numpy

from kusari.rl.explorer import Explorer


class AdditiveOU(Explorer):
    """Add the state of an Ornstein-Uhlenbeck process to the greedy action.

    The state (float32, the action's shape) starts at ``mu`` (``start_with_mu``) or at a draw from
    the process's stationary law ``N(mu, sigma**2 / (2 theta - theta**2))``, then moves once per
    later call: ``x <- x + theta (mu - x) + sigma * N(0, 1)``.

    Parameters
    ----------
    mu : float
        Mean the process reverts to.
    theta : float
        Pull towards ``mu`` per step; in (0, 2) unless ``start_with_mu`` (else no stationary law).
    sigma : float or numpy.ndarray
        Scale of the noise, >= 0.
    start_with_mu : bool
        Start at ``mu`` instead of a stationary draw.
    logger : logging.Logger
        Receives a debug line with the noise per action.
    """

    def __init__(self, mu: float = 0.0, theta: float = 0.15, sigma=0.3, start_with_mu: bool = False,
                 logger: Logger = getLogger(__name__)):
        if numpy.any(numpy.asarray(sigma) < 0):
            raise ValueError(f"AdditiveOU: sigma must be >= 0, got {sigma!r}")
        if not (0 <= theta if start_with_mu else 0 < theta < 2):
            needed = ">= 0" if start_with_mu else "in (0, 2) when start_with_mu is False"
            raise ValueError(f"AdditiveOU: theta must be {needed}, got {theta!r}")
        self.mu = mu
        self.theta = theta
        self.sigma = sigma
        self.start_with_mu = start_with_mu
        self.logger = logger
        self.ou_state = None

    def evolve(self) -> None:
        """Advance the process one step (in place, float32)."""
        noise = numpy.random.normal(loc=0, scale=self.sigma, size=self.ou_state.shape)
        self.ou_state += self.theta * (self.mu - self.ou_state) + noise

    def select_action(self, t, greedy_action_func, action_value=None):
        a = greedy_action_func()
        if self.ou_state is None:
            if self.start_with_mu:
                self.ou_state = numpy.full(a.shape, self.mu, dtype=numpy.float32)
            else:
                stationary_scale = self.sigma / numpy.sqrt(2 * self.theta - self.theta ** 2)
                self.ou_state = numpy.random.normal(
                    loc=self.mu, scale=stationary_scale, size=a.shape).astype(numpy.float32)
        else:
            self.evolve()
        self.logger.debug("t:%s noise:%s", t, self.ou_state)
        return a + self.ou_state

    def __repr__(self):
        return f"AdditiveOU(mu={self.mu}, theta={self.theta}, sigma={self.sigma})"
