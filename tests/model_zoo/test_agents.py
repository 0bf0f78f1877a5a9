"""kusari.model_zoo.agents: the agent builders, the action-scaling adapter, the one-file save/load round trip."""
import contextlib

import numpy
import pytest

import kusari

gymnasium = pytest.importorskip("gymnasium")

from kusari.model_zoo import agents  # noqa: E402  (after the skip: it needs gymnasium)
from kusari.rl.agents import A2C, A3C, DDPG, DQN, PPO, TD3, SoftActorCritic  # noqa: E402
from kusari.rl.utils import set_random_seed  # noqa: E402

# small networks and early updates, so a few hundred steps change every network
SMALL = {
    "dqn": ("CartPole-v1", DQN, dict(hidden_sizes=(16,), replay_start_size=32, minibatch_size=16,
                                     update_interval=1, target_update_interval=50, decay_steps=100)),
    "ppo": ("CartPole-v1", PPO, dict(hidden_sizes=(16,), update_interval=64, minibatch_size=32,
                                     epochs=2)),
    "a2c": ("CartPole-v1", A2C, dict(hidden_sizes=(16,))),
    "a3c": ("CartPole-v1", A3C, dict(hidden_sizes=(16,))),
    "td3": ("Pendulum-v1", TD3, dict(hidden_sizes=(16,), replay_start_size=32, minibatch_size=16)),
    "sac": ("Pendulum-v1", SoftActorCritic, dict(hidden_sizes=(16,), replay_start_size=32,
                                                 minibatch_size=16)),
    "ddpg": ("Pendulum-v1", DDPG, dict(hidden_sizes=(16,), replay_start_size=32, minibatch_size=16)),
}


def _train(agent, env_id, steps=200, seed=0):
    env = gymnasium.make(env_id)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
        agent.observe(obs, reward, terminated, truncated)
        if terminated or truncated:
            obs, _ = env.reset()
    return env


def _greedy(agent, observations):
    with agent.eval_mode():  # act, not batch_act: A3C acts in one environment
        return numpy.array([agent.act(obs) for obs in observations])


def _inner(agent):
    return agent.agent if isinstance(agent, agents.ScaledActionAgent) else agent


def _state(agent):
    """Every saved network's parameters and every saved counter of ``agent``, by name."""
    state = {}
    for name in _inner(agent).saved_attributes:
        value = getattr(_inner(agent), name)
        if isinstance(value, kusari.Link):
            state.update({name + path: p.array.copy() for path, p in value.namedparams()})
        elif isinstance(value, (int, float)):
            state[name] = value
    return state


def _assert_same_state(a, b):
    assert sorted(a) == sorted(b)
    for key in a:
        numpy.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_save_and_load_give_the_same_agent(kind, tmp_path):
    env_id, cls, kwargs = SMALL[kind]
    set_random_seed(0)
    trained = agents.make_agent(kind, env_id, **kwargs)
    assert type(_inner(trained)) is cls
    env = _train(trained, env_id)
    path = str(tmp_path / "agent.npz")
    agents.save_agent(trained, path)

    set_random_seed(1)  # another initialization: what matches must come from the file
    fresh = _state(agents.make_agent(kind, env_id, **kwargs))
    with pytest.raises(AssertionError):
        _assert_same_state(fresh, _state(trained))
    loaded = agents.load_agent(path, kind, env_id, hidden_sizes=kwargs["hidden_sizes"])
    _assert_same_state(_state(loaded), _state(trained))
    observations = [env.observation_space.sample() for _ in range(16)]
    numpy.testing.assert_array_equal(_greedy(loaded, observations), _greedy(trained, observations))


def test_loaded_pendulum_agent_acts_in_the_torque_range(tmp_path):
    set_random_seed(0)
    trained = agents.make_agent("td3", "Pendulum-v1", hidden_sizes=(16,), replay_start_size=32,
                                minibatch_size=16)
    env = _train(trained, "Pendulum-v1")
    path = str(tmp_path / "td3.npz")
    agents.save_agent(trained, path)
    loaded = agents.load_agent(path, "td3", "Pendulum-v1", hidden_sizes=(16,))
    assert isinstance(loaded, agents.ScaledActionAgent)
    observations = [env.observation_space.sample() for _ in range(64)]
    actions = _greedy(loaded, observations)
    inner = _greedy(loaded.agent, observations)
    assert actions.dtype == numpy.float32 and actions.shape == (64, 1)
    numpy.testing.assert_allclose(actions, 2 * inner, atol=1e-6)
    assert (numpy.abs(actions) <= 2).all()
    assert env.action_space.contains(loaded.act(observations[0]))


class _FixedAgent:
    """Returns fixed actions in [-1, 1]; records what it observed and whether it was evaluating."""

    def __init__(self, actions):
        self.actions = actions
        self.training = True
        self.observed = []

    def batch_act(self, batch_obs):
        return self.actions[:len(batch_obs)]

    def batch_observe(self, *args):
        self.observed.append(args)

    @contextlib.contextmanager
    def eval_mode(self):
        self.training = False
        try:
            yield
        finally:
            self.training = True


def test_scaled_action_agent_maps_the_unit_box_onto_the_bounds():
    inner = _FixedAgent([numpy.array([-1.0, 0.0], numpy.float32), numpy.array([1.0, 0.5], numpy.float32)])
    agent = agents.ScaledActionAgent(inner, low=[-2.0, 0.0], high=[2.0, 10.0])
    low_corner, high_corner = agent.batch_act([None, None])
    numpy.testing.assert_array_equal(low_corner, [-2.0, 5.0])
    numpy.testing.assert_array_equal(high_corner, [2.0, 7.5])
    assert low_corner.dtype == numpy.float32
    agent.observe("obs", 1.0, False, True)
    assert inner.observed == [(["obs"], [1.0], [False], [True])]
    with agent.eval_mode():
        assert agent.training is False and inner.training is False
    assert agent.training is True


@pytest.mark.parametrize("low, high, match", [([-1.0], [1.0, 2.0], "vectors of one shape"),
                                              ([1.0], [-1.0], "low < high"),
                                              ([-numpy.inf], [1.0], "finite")])
def test_scaled_action_agent_rejects_bad_bounds(low, high, match):
    with pytest.raises(ValueError, match=match):
        agents.ScaledActionAgent(_FixedAgent([]), low, high)


def test_scaled_action_agent_rejects_actions_of_another_shape():
    agent = agents.ScaledActionAgent(_FixedAgent([numpy.zeros(3, numpy.float32)]), [-1.0], [1.0])
    with pytest.raises(ValueError, match=r"action has shape \(3,\), the bounds \(1,\)"):
        agent.batch_act([None])


def test_make_agent_errors():
    with pytest.raises(ValueError, match="unknown agent kind 'dqnn'; kinds: a2c, a3c, ddpg, dqn, ppo, sac, td3"):
        agents.make_agent("dqnn", "CartPole-v1")
    with pytest.raises(TypeError, match="td3 takes no hyperparameter 'epsilon'; it takes hidden_sizes"):
        agents.make_agent("td3", "Pendulum-v1", epsilon=0.1)
    with pytest.raises(ValueError, match="dqn needs a Discrete action space, Pendulum-v1 has Box"):
        agents.make_agent("dqn", "Pendulum-v1")
    with pytest.raises(ValueError, match="sac needs a bounded Box action space .* CartPole-v1 has Discrete"):
        agents.make_agent("sac", "CartPole-v1")
    with pytest.raises(FileNotFoundError, match="load_agent: no agent file"):
        agents.load_agent("/nonexistent/agent.npz", "dqn", "CartPole-v1")


def test_hyperparameters_list_the_builders_defaults():
    td3 = agents.hyperparameters("td3")
    assert td3["hidden_sizes"] == (400, 300) and td3["minibatch_size"] == 256
    assert agents.hyperparameters("sac")["hidden_sizes"] == (256, 256)
    set_random_seed(0)
    dqn = agents.make_agent("dqn", "CartPole-v1", hidden_sizes=(8, 4), lr=0.5)
    assert [layer.W.shape for layer in dqn.model[0].hidden_layers] == [(8, 4), (4, 8)]
    assert dqn.optimizer.alpha == 0.5


def test_dqn_can_start_from_pytorchs_default_initialization():
    set_random_seed(0)
    q = agents.make_agent("dqn", "CartPole-v1", hidden_sizes=(64,), initialization="pytorch").model[0]
    for layer, fan_in in ((q.hidden_layers[0], 4), (q.output, 64)):
        assert numpy.abs(layer.W.array).max() <= 1 / fan_in ** 0.5
        assert layer.b.array.any()                         # PyTorch draws biases too
    set_random_seed(0)
    chainer_q = agents.make_agent("dqn", "CartPole-v1", hidden_sizes=(64,)).model[0]
    assert not chainer_q.output.b.array.any()
    with pytest.raises(ValueError, match="initialization must be 'chainer' or 'pytorch', got 'xavier'"):
        agents.make_agent("dqn", "CartPole-v1", initialization="xavier")
