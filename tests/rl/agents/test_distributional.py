"""What the distributional DQNs (C51, QR-DQN, IQN) share: training through act/observe, save and load."""
import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN, CategoricalDQN
from kusari.rl.agents.iqn import IQN, CosineBasisLinear, ImplicitQuantileQFunction
from kusari.rl.agents.qrdqn import QRDQN
from kusari.rl.replay_buffers import PrioritizedReplayBuffer
from kusari.rl.utils import set_random_seed


def q_function(cls):
    if cls is QRDQN:
        return q_functions.QuantileFCStateQFunctionWithDiscreteAction(3, 4, 5, 8, 1)
    if cls is IQN:
        return ImplicitQuantileQFunction(psi=kusari.Sequential(L.Linear(3, 8), F.relu),
                                         phi=kusari.Sequential(CosineBasisLinear(6, 8), F.relu), f=L.Linear(8, 4))
    return q_functions.DistributionalFCStateQFunctionWithDiscreteAction(3, 4, 7, -1, 1, 8, 1)


@pytest.mark.parametrize("cls", [CategoricalDQN, CategoricalDoubleDQN, QRDQN, IQN])
def test_prioritized_training_then_save_load_restores_everything(cls, tmp_path):
    set_random_seed(0)
    extra = dict(act_deterministically=True) if cls is IQN else {}

    def build():
        q = q_function(cls)
        return cls(q, optimizers.Adam(1e-2).setup(q), PrioritizedReplayBuffer(100, num_steps=2), 0.9,
                   explorers.ConstantEpsilonGreedy(0.5, lambda: numpy.random.randint(4)),
                   replay_start_size=4, minibatch_size=4, target_update_interval=3, **extra)

    agent = build()
    sent = []
    update_errors = agent.replay_buffer.update_errors
    agent.replay_buffer.update_errors = lambda e: (sent.append(e), update_errors(e))
    observations = numpy.random.randn(30, 3).astype(numpy.float32)
    for i, obs in enumerate(observations):
        agent.act(obs)
        agent.observe(obs, float(i % 2), i % 9 == 8, False)
    stats = dict(agent.get_statistics())
    assert numpy.isfinite(stats["average_loss"])
    # every update sent its minibatch's 4 priorities back to the buffer
    assert stats["n_updates"] == len(sent) >= 20 and all(len(e) == 4 and min(e) >= 0 for e in sent)
    for p in agent.model.params():
        p.array[...] += 0.1  # make model and target differ
    agent.save(str(tmp_path / "agent"))

    other = build()
    other.load(str(tmp_path / "agent"))
    assert (other.t, other.optim_t) == (agent.t, agent.optim_t)
    for mine, theirs in ((agent.model, other.model), (agent.target_model, other.target_model)):
        for (name, p), (_, q) in zip(sorted(mine.namedparams()), sorted(theirs.namedparams())):
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    with agent.eval_mode(), other.eval_mode():
        numpy.testing.assert_array_equal(agent.batch_act(list(observations)), other.batch_act(list(observations)))
