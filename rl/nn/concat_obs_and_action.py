"""ConcatObsAndAction: the first layer of a state-action Q-function, ``(obs, action) -> [obs, action]``."""
import kusari
import kusari.functions as F
from kusari.rl.nn.lmbda import Lambda


def concat_obs_and_action(obs_and_action) -> kusari.Variable:
    """Concatenate an observation batch and an action batch along the last axis.

    Parameters
    ----------
    obs_and_action : tuple (obs, action) of float arrays or Variables, shapes (B, n_obs), (B, n_act)

    Returns
    -------
    Variable of shape (B, n_obs + n_act).
    """
    if not isinstance(obs_and_action, (tuple, list)):
        raise TypeError(f"concat_obs_and_action: expected one (obs, action) pair, got "
                        f"{type(obs_and_action).__name__}")
    if len(obs_and_action) != 2:
        raise ValueError(f"concat_obs_and_action: expected one (obs, action) pair, got "
                         f"{len(obs_and_action)} items")
    obs, action = obs_and_action
    if obs.shape[:-1] != action.shape[:-1]:
        raise ValueError(f"concat_obs_and_action: obs and action batch shapes differ "
                         f"(obs.shape={obs.shape}, action.shape={action.shape})")
    return F.concat((obs, action), axis=-1)


class ConcatObsAndAction(Lambda):
    """``ConcatObsAndAction()((obs, action))`` is ``concat_obs_and_action((obs, action))``."""

    def __init__(self):
        super().__init__(concat_obs_and_action)
