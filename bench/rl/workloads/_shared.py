"""Pieces several RL workloads share: the evaluated policy of a PFRL-interface agent, and CartPole's
separate 64-64 tanh policy and value networks (SB3's MlpPolicy default) in kusari and in PFRL."""
from __future__ import annotations

from typing import Any, Callable


def eval_policy(agent, convert: Callable[[Any], Any] = int):
    """``act(obs)``: ``convert`` of the agent's action in eval mode (greedy or deterministic)."""
    def act(obs):
        with agent.eval_mode():
            return convert(agent.act(obs))
    return act


def kusari_actor_critic():
    """CartPole's policy (softmax over 2 actions) and value networks, branched, in kusari."""
    import kusari
    import kusari.functions as F
    import kusari.links as L
    import kusari.rl as rl

    return rl.nn.Branched(
        kusari.Sequential(L.Linear(4, 64), F.tanh, L.Linear(64, 64), F.tanh, L.Linear(64, 2),
                          rl.policies.SoftmaxCategoricalHead()),
        kusari.Sequential(L.Linear(4, 64), F.tanh, L.Linear(64, 64), F.tanh, L.Linear(64, 1)))


def pfrl_actor_critic():
    """The same networks in PFRL (torch)."""
    import pfrl
    from torch import nn

    return pfrl.nn.Branched(
        nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 2),
                      pfrl.policies.SoftmaxCategoricalHead()),
        nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)))
