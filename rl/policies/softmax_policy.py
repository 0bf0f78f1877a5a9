"""SoftmaxCategoricalHead: turns action logits into a Categorical policy."""
import kusari
from kusari.rl import distributions


class SoftmaxCategoricalHead(kusari.Link):
    """Head for discrete actions: logits -> ``Categorical(softmax(logits))``."""

    def forward(self, logits) -> distributions.Categorical:
        """Categorical policy over the last axis of ``logits``.

        Parameters
        ----------
        logits : float Variable or array of shape (batch_size, n_actions)

        Returns
        -------
        kusari.rl.distributions.Categorical with batch_shape (batch_size,).
        """
        logits = kusari.as_variable(logits)
        if logits.ndim < 1:
            raise ValueError(f"SoftmaxCategoricalHead: logits must have an action axis, got shape "
                             f"{logits.shape}")
        return distributions.Categorical(logit=logits)
