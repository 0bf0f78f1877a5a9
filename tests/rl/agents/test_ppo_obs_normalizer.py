"""PPO's obs_normalizer (PFRL's third argument): what it learns from, when, and what the model sees."""
import inspect

import kusari
import kusari.functions as F
import kusari.links as L
import numpy as np
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents.ppo import PPO
from kusari.rl.utils import set_random_seed

OBS, N_ENVS, STEPS = 3, 2, 6
CENTER = np.array([3.0, -2.0, 0.5], np.float32)
SCALE = np.array([2.0, 0.5, 4.0], np.float32)


class Recorder(kusari.Link):
    """Passes its input on and keeps ``(train mode, a copy of the input)`` of every call."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def forward(self, x):
        self.seen.append((kusari.config.train, np.array(x)))
        return x


def feed_forward_model(recorder):
    return nn.Branched(kusari.Sequential(recorder, nn.MLP(OBS, 2, [8], nonlinearity=F.tanh),
                                         policies.SoftmaxCategoricalHead()),
                       nn.MLP(OBS, 1, [8], nonlinearity=F.tanh))


def recurrent_model(recorder):
    return nn.RecurrentSequential(
        recorder, L.Linear(OBS, 4), F.tanh, L.NStepGRU(1, 4, 4, 0.0),
        nn.Branched(kusari.Sequential(L.Linear(4, 2), policies.SoftmaxCategoricalHead()),
                    L.Linear(4, 1)))


def make_agent(model, **kwargs):
    normalizer = nn.EmpiricalNormalization(OBS)
    return PPO(model, optimizers.SGD(lr=0.1).setup(model), normalizer, gamma=0.9, lambd=0.8,
               update_interval=N_ENVS * STEPS, minibatch_size=4, epochs=2, **kwargs)


def drive(agent, rollouts, seed=0):
    """``rollouts`` iterations of N_ENVS environments x STEPS steps of observations far from zero
    mean and unit variance (an episode ends every 4 steps); the observations acted on, (T, B, OBS)."""
    rng = np.random.RandomState(seed)
    total = rollouts * STEPS
    obs = (CENTER + SCALE * rng.uniform(-1, 1, (total + 1, N_ENVS, OBS))).astype(np.float32)
    ends = (np.arange(total)[:, None] + np.arange(N_ENVS)) % 4 == 3
    for t in range(total):
        agent.batch_act(list(obs[t]))
        agent.batch_observe(list(obs[t + 1]), rng.uniform(-1, 1, N_ENVS).tolist(),
                            list(ends[t] & (t % 2 == 0)), list(ends[t] & (t % 2 == 1)))
    return obs[:total]


def normalized(x, mean, var, eps=1e-2):
    return (x - mean) / np.sqrt(var + eps)


@pytest.mark.parametrize("recurrent", [False, True])
def test_statistics_after_each_update_are_numpys_mean_and_var_of_the_updates_observations(recurrent):
    set_random_seed(0)
    model = recurrent_model(Recorder()) if recurrent else feed_forward_model(Recorder())
    agent = make_agent(model, recurrent=recurrent)
    norm = agent.obs_normalizer
    obs = drive(agent, 1)
    # learnt once, from the rollout's observations only: not while acting, nor from next observations
    assert norm.count == N_ENVS * STEPS
    np.testing.assert_allclose(norm.mean, obs.reshape(-1, OBS).mean(0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(norm.std ** 2, obs.reshape(-1, OBS).var(0), rtol=1e-5, atol=1e-6)
    with agent.eval_mode():
        drive(agent, 1, seed=1)
    assert norm.count == N_ENVS * STEPS
    both = np.concatenate([obs, drive(agent, 1, seed=2)]).reshape(-1, OBS)
    assert norm.count == 2 * N_ENVS * STEPS
    np.testing.assert_allclose(norm.mean, both.mean(0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(norm.std ** 2, both.var(0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("recurrent", [False, True])
def test_the_rollout_is_evaluated_with_the_old_statistics_and_trained_on_with_the_new(recurrent):
    set_random_seed(0)
    recorder = Recorder()
    agent = make_agent(recurrent_model(recorder) if recurrent else feed_forward_model(recorder),
                       recurrent=recurrent)
    obs = drive(agent, 1)
    rows = obs.reshape(-1, OBS)  # time-major, as the agent keeps them
    old = normalized(rows, np.zeros(OBS), np.ones(OBS))
    new = normalized(rows, rows.mean(0), rows.var(0))
    evaluated = [x for train, x in recorder.seen if not train and len(x) == len(rows)]
    trained = np.concatenate([x for train, x in recorder.seen if train])
    assert len(evaluated) == 1 and len(trained) == 2 * len(rows)  # two epochs
    # the order of the rows follows the sequences when recurrent: compare them as sets
    np.testing.assert_allclose(np.sort(evaluated[0], axis=0), np.sort(old, axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.sort(trained, axis=0), np.sort(np.concatenate([new, new]), axis=0),
                               rtol=1e-5, atol=1e-5)
    # and acting used the statistics of the last update, unchanged by acting
    recorder.seen.clear()
    with agent.eval_mode():
        agent.batch_act(list(obs[0]))
    np.testing.assert_allclose(recorder.seen[0][1], new[:N_ENVS], rtol=1e-5, atol=1e-5)


def test_save_load_restores_the_normalizer(tmp_path):
    set_random_seed(0)
    agent = make_agent(feed_forward_model(Recorder()), act_deterministically=True)
    drive(agent, 2)
    agent.save(str(tmp_path))
    set_random_seed(1)
    other = make_agent(feed_forward_model(Recorder()), act_deterministically=True)
    other.load(str(tmp_path))
    assert other.obs_normalizer.count == agent.obs_normalizer.count == 2 * N_ENVS * STEPS
    np.testing.assert_array_equal(other.obs_normalizer.mean, agent.obs_normalizer.mean)
    np.testing.assert_array_equal(other.obs_normalizer.std, agent.obs_normalizer.std)
    observations = (CENTER + SCALE * np.random.RandomState(3).uniform(-1, 1, (20, OBS))).astype(np.float32)
    with agent.eval_mode(), other.eval_mode():
        assert [int(other.act(o)) for o in observations] == [int(agent.act(o)) for o in observations]


def test_loading_a_normalizer_into_an_agent_without_one_is_refused_and_changes_nothing(tmp_path):
    """A file saved with an obs_normalizer does not load silently into an agent built without one
    (it would act on unnormalized observations); the agent keeps its parameters."""
    set_random_seed(0)
    agent = make_agent(feed_forward_model(Recorder()))
    drive(agent, 1)
    agent.save(str(tmp_path))
    model = feed_forward_model(Recorder())
    bare = PPO(model, optimizers.SGD(lr=0.1).setup(model), gamma=0.9, lambd=0.8,
               update_interval=N_ENVS * STEPS, minibatch_size=4, epochs=2)
    before = {name: p.array.copy() for name, p in model.namedparams()}
    with pytest.raises(ValueError, match=r"^PPO: the file holds 'obs_normalizer', but this agent was "
                                         r"built without one \(obs_normalizer=None\)"):
        bare.load(str(tmp_path))
    for name, p in model.namedparams():
        np.testing.assert_array_equal(p.array, before[name])


def test_obs_normalizer_is_the_third_argument_as_in_pfrl():
    names = list(inspect.signature(PPO).parameters)
    assert names[:5] == ["model", "optimizer", "obs_normalizer", "gpu", "gamma"]
    model = feed_forward_model(Recorder())
    # a GPU id passed third, as kusari's PPO once took it, is refused, not taken for a normalizer
    with pytest.raises(TypeError, match="PPO: obs_normalizer must be None or an "
                                        "EmpiricalNormalization, got int"):
        PPO(model, optimizers.Adam().setup(model), 0)
    with pytest.raises(TypeError, match="PPO: obs_normalizer must be None or an "
                                        "EmpiricalNormalization, got function"):
        PPO(model, optimizers.Adam().setup(model), obs_normalizer=lambda x: x)
