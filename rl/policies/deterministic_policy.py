"""DeterministicHead: wraps a deterministic action in a point-mass distribution (DDPG, TD3)."""
import kusari
from kusari.rl import distributions
from kusari.rl.policies._checks import batch_of_vectors


class DeterministicHead(kusari.Link):
    """Head for deterministic policies: ``loc`` -> ``Independent(Delta(loc), 1)``.

    ``sample()``, ``rsample()``, ``mode`` and ``mean`` all return ``loc``; ``rsample`` keeps
    its gradient, which is what DDPG's policy loss needs.
    """

    def forward(self, loc) -> distributions.Independent:
        """Point mass at ``loc``.

        Parameters
        ----------
        loc : float Variable or array of shape (batch_size, action_size)

        Returns
        -------
        kusari.rl.distributions.Independent with batch_shape (batch_size,) and event_shape
        (action_size,).
        """
        loc = batch_of_vectors("DeterministicHead", loc, "loc")
        return distributions.Independent(distributions.Delta(loc), 1)
