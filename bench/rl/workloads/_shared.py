"""Pieces several RL workloads share: the evaluated policy of a PFRL-interface agent, and CartPole's
separate 64-64 tanh policy and value networks (SB3's MlpPolicy default, with its initialization) in
kusari and in PFRL."""
from __future__ import annotations

from typing import Any, Callable


def eval_policy(agent, convert: Callable[[Any], Any] = int):
    """``act(obs)``: ``convert`` of the agent's action in eval mode (greedy or deterministic)."""
    def act(obs):
        with agent.eval_mode():
            return convert(agent.act(obs))
    return act


# SB3's ActorCriticPolicy (ortho_init=True): orthogonal weights with gain sqrt(2) in the hidden layers,
# 0.01 on the action logits, 1 on the value; zero biases
_HIDDEN_GAIN, _POLICY_GAIN, _VALUE_GAIN = 2 ** 0.5, 0.01, 1.0


def kusari_actor_critic():
    """CartPole's policy (softmax over 2 actions) and value networks, branched, in kusari, initialized as SB3's."""
    import kusari
    import kusari.functions as F
    import kusari.links as L
    import kusari.rl as rl
    from kusari import initializers

    def linear(n_in, n_out, gain):
        return L.Linear(n_in, n_out, initialW=initializers.Orthogonal(gain), initial_bias=0)

    return rl.nn.Branched(
        kusari.Sequential(linear(4, 64, _HIDDEN_GAIN), F.tanh, linear(64, 64, _HIDDEN_GAIN), F.tanh,
                          linear(64, 2, _POLICY_GAIN), rl.policies.SoftmaxCategoricalHead()),
        kusari.Sequential(linear(4, 64, _HIDDEN_GAIN), F.tanh, linear(64, 64, _HIDDEN_GAIN), F.tanh,
                          linear(64, 1, _VALUE_GAIN)))


def pfrl_actor_critic():
    """The same networks in PFRL (torch), initialized the same way."""
    import pfrl
    from torch import nn

    def linear(n_in, n_out, gain):
        layer = nn.Linear(n_in, n_out)
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)
        return layer

    return pfrl.nn.Branched(
        nn.Sequential(linear(4, 64, _HIDDEN_GAIN), nn.Tanh(), linear(64, 64, _HIDDEN_GAIN), nn.Tanh(),
                      linear(64, 2, _POLICY_GAIN), pfrl.policies.SoftmaxCategoricalHead()),
        nn.Sequential(linear(4, 64, _HIDDEN_GAIN), nn.Tanh(), linear(64, 64, _HIDDEN_GAIN), nn.Tanh(),
                      linear(64, 1, _VALUE_GAIN)))
