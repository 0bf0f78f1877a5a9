"""kusari.rl.agents._off_policy: what DDPG, TD3 and SAC share; here, their target networks."""
import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, policies, replay_buffers
from kusari.rl.agents.ddpg import DDPG
from kusari.rl.agents.soft_actor_critic import SoftActorCritic
from kusari.rl.agents.td3 import TD3

OBS, ACTION = 3, 1


class ListedMLP(kusari.Chain):
    """A user's network whose forward walks a Python list of its (registered) layers."""

    def __init__(self, n_in, n_out, head=None, concat=False):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, 8)
            self.l2 = L.Linear(8, n_out)
        self.layers = [self.l1, F.relu, self.l2] + ([head] if head is not None else [])
        self.concat = concat

    def forward(self, x):
        h = F.concat(x, axis=1) if self.concat else x
        for layer in self.layers:
            h = layer(h)
        return h


def critic():
    return ListedMLP(OBS + ACTION, 1, concat=True)


def make_agent(name, critic=critic):
    common = dict(replay_start_size=4, minibatch_size=4)
    if name == "DDPG":
        policy, q = ListedMLP(OBS, ACTION, policies.DeterministicHead()), critic()
        return DDPG(policy, q, optimizers.Adam().setup(policy), optimizers.Adam().setup(q),
                    replay_buffers.ReplayBuffer(10), 0.9, explorers.Greedy(),
                    target_update_method="soft", soft_update_tau=0.5, **common)
    policy = (ListedMLP(OBS, 2 * ACTION, policies.SquashedDiagonalGaussianHead()) if name == "SAC"
              else ListedMLP(OBS, ACTION, policies.DeterministicHead()))
    q1, q2 = critic(), critic()
    opts = [optimizers.Adam().setup(link) for link in (policy, q1, q2)]
    if name == "SAC":
        return SoftActorCritic(policy, q1, q2, *opts, replay_buffers.ReplayBuffer(10), 0.9,
                               soft_update_tau=0.5, **common)
    return TD3(policy, q1, q2, *opts, replay_buffers.ReplayBuffer(10), 0.9, explorers.Greedy(),
               soft_update_tau=0.5, **common)


TARGETS = {"DDPG": [("policy", "target_policy"), ("q_function", "target_q_function")],
           "TD3": [("policy", "target_policy"), ("q_func1", "target_q_func1"),
                   ("q_func2", "target_q_func2")],
           "SAC": [("q_func1", "target_q_func1"), ("q_func2", "target_q_func2")]}


def output(link, x):
    with kusari.no_backprop_mode():
        y = link(x)
    return (y.mode if hasattr(y, "mode") else y).array.copy()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_targets_run_their_own_layers_when_a_network_lists_them(name):
    # PFRL deep-copies its targets; a copy of the registered children alone would leave the list
    # pointing at the online layers, and the target would be the online network
    agent = make_agent(name)
    rng = numpy.random.RandomState(0)
    obs = rng.uniform(-1, 1, (5, OBS)).astype(numpy.float32)
    action = rng.uniform(-1, 1, (5, ACTION)).astype(numpy.float32)
    for online_name, target_name in TARGETS[name]:
        online, target = getattr(agent, online_name), getattr(agent, target_name)
        x = obs if "policy" in online_name else (obs, action)
        before = output(target, x)
        numpy.testing.assert_array_equal(before, output(online, x))
        assert all(p.update_rule is None and p.grad is None for p in target.params())
        for p in online.params():
            p.array += 0.5
        numpy.testing.assert_array_equal(output(target, x), before, err_msg=target_name)
        agent.sync_target_network()
        assert not numpy.array_equal(output(target, x), before), f"{target_name} did not move"


class UnregisteredCritic(kusari.Chain):
    """A critic ported from torch as is: its layers assigned outside init_scope."""

    def __init__(self):
        super().__init__()
        self.l1 = L.Linear(OBS + ACTION, 1)

    def forward(self, x):
        return self.l1(F.concat(x, axis=1))


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_a_network_without_parameters_is_refused(name):
    # it would never learn: trained as is, SAC on Pendulum-v1 ends 3,000 steps at about -1300
    with pytest.raises(ValueError, match=r"q_func1? \(UnregisteredCritic\) has no parameters to "
                                         r"train; .*init_scope"):
        make_agent(name, critic=UnregisteredCritic)
