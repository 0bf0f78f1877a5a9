"""PPO(recurrent=True): one update against a per-step computation (states restarted at episode
ends, bootstraps of truncated episodes, sequences cut and split), and the refusals."""
import copy

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents._recurrent_on_policy import sequence_minibatches, split_rollout
from kusari.rl.agents.ppo import PPO, generalized_advantages
from kusari.rl.utils.recurrent import (
    detach_recurrent_state,
    get_recurrent_state_at,
    one_step_forward,
)

GAMMA, LAMBD, LR, VF_COEF, ENT_COEF = 0.9, 0.8, 0.1, 0.5, 0.01
STEPS, N_ENVS = 5, 2
# env 0 terminates after step 1, env 1 is truncated after step 2 (and after the last step)
DONE = numpy.array([[False, False], [True, False], [False, False], [False, False], [False, False]])
RESET = numpy.array([[False, False], [False, False], [False, True], [False, False], [False, True]])


def recurrent_model(seed=0):
    numpy.random.seed(seed)
    return nn.RecurrentSequential(
        L.Linear(2, 4), F.tanh, L.NStepGRU(1, 4, 4, 0.0),
        nn.Branched(kusari.Sequential(L.Linear(4, 3), policies.SoftmaxCategoricalHead()),
                    L.Linear(4, 1)))


def rollout():
    rng = numpy.random.RandomState(3)
    obs = rng.randn(STEPS + 1, N_ENVS, 2).astype(numpy.float32)
    rewards = rng.randn(STEPS, N_ENVS).astype(numpy.float32)
    return obs, rewards


def drive(agent, obs, rewards):
    """Act and observe the fixed rollout; the actions the agent sampled, (T, B)."""
    actions = []
    for t in range(STEPS):
        actions.append(agent.batch_act(list(obs[t])))
        agent.batch_observe(list(obs[t + 1]), list(rewards[t]), list(DONE[t]), list(RESET[t]))
    return numpy.array(actions)


def per_step_loss(model, obs, rewards, actions, max_len=None):
    """PPO's first-minibatch loss (ratio 1) computed by stepping each environment alone, its state
    restarted after each end; the values of truncated episodes' last observations bootstrap.
    Gradients do not flow through the state every ``max_len`` steps of an episode (where the
    update cuts its sequences: truncated backpropagation through time)."""
    values = numpy.zeros((STEPS, N_ENVS), numpy.float32)
    next_values = numpy.zeros((STEPS, N_ENVS), numpy.float32)
    log_probs, entropies, value_vars = [], [], []
    for env in range(N_ENVS):
        state, piece = None, 0
        for t in range(STEPS):
            if piece == max_len:
                state, piece = detach_recurrent_state(state), 0
            piece += 1
            (distrib, value), state = one_step_forward(model, obs[t, env][None], state)
            log_probs.append(distrib.log_prob(actions[t, env][None]))
            entropies.append(distrib.entropy)
            value_vars.append(value)
            values[t, env] = value.array[0, 0]
            if RESET[t, env] or t == STEPS - 1:  # bootstrap from the state after the step
                with kusari.no_backprop_mode():
                    (_, next_value), _ = one_step_forward(model, obs[t + 1, env][None], state)
                next_values[t, env] = next_value.array[0, 0]
            if DONE[t, env] or RESET[t, env]:
                state, piece = None, 0
    for t in range(STEPS - 1):
        keep = ~(DONE[t] | RESET[t])
        next_values[t, keep] = values[t + 1, keep]
    advantages = generalized_advantages(rewards, values, next_values, DONE, DONE | RESET, GAMMA,
                                        LAMBD)
    targets = advantages + values
    # rows env-major here: reorder the arrays alike
    adv = advantages.T.ravel()
    log_prob = F.concat(log_probs, axis=0)
    ratio = F.exp(log_prob - log_prob.array)
    policy_loss = -F.mean(ratio * adv)
    value_loss = F.mean_squared_error(F.concat(value_vars, axis=0), targets.T.reshape(-1, 1))
    return policy_loss + VF_COEF * value_loss - ENT_COEF * F.mean(F.concat(entropies, axis=0))


@pytest.mark.parametrize("max_len, minibatch_size", [(None, 10), (2, 10), (None, 4)])
def test_update_equals_per_step_computation(max_len, minibatch_size):
    """Cut sequences (max_len=2) start from the states stored when acting, so only the gradient
    through the state at the cuts changes. minibatch_size=4 deals the sequences into minibatches
    of 4, 4 and 2 steps (a sequence split between two)."""
    model = recurrent_model()
    agent = PPO(model, optimizers.SGD(lr=LR).setup(model), gamma=GAMMA, lambd=LAMBD,
                value_func_coef=VF_COEF, entropy_coef=ENT_COEF, update_interval=STEPS * N_ENVS,
                minibatch_size=minibatch_size, epochs=1, standardize_advantages=False,
                recurrent=True, max_recurrent_sequence_len=max_len)
    model0 = copy.deepcopy(model)
    obs, rewards = rollout()
    if minibatch_size == 10:
        actions = drive(agent, obs, rewards)
        assert agent.n_updates == 1
        model0.cleargrads()
        per_step_loss(model0, obs, rewards, actions, max_len).backward()
        for (name, p), (_, p0) in zip(model.namedparams(), model0.namedparams(), strict=True):
            numpy.testing.assert_allclose(p.array, p0.array - LR * p0.grad, rtol=1e-4, atol=1e-6,
                                          err_msg=name)
    else:  # three minibatches (4, 4, 2 steps): the rollout's rows all used once
        seen = []
        update = agent._update_minibatch
        agent._update_minibatch = lambda x, a, *rest: (seen.append(len(a)), update(x, a, *rest))
        drive(agent, obs, rewards)
        assert seen == [4, 4, 2] and agent.n_updates == 3


def test_stats_and_states_after_acting():
    model = recurrent_model()
    agent = PPO(model, optimizers.SGD(lr=LR).setup(model), update_interval=100, recurrent=True)
    obs, rewards = rollout()
    actions = drive(agent, obs, rewards)
    # env 1 was truncated after the last step: its state restarted; env 0's continues
    h = agent.train_recurrent_states[0]
    assert not h[:, 1].any() and h[:, 0].any()
    state = None
    for t in range(2, STEPS):  # env 0's episode after its end at step 1
        _, state = one_step_forward(model, obs[t, 0][None], state)
    numpy.testing.assert_allclose(h[:, 0], get_recurrent_state_at(state[0], 0, True), rtol=1e-5)
    assert actions.shape == (STEPS, N_ENVS)
    with agent.eval_mode():
        agent.batch_act(list(obs[0]))
        assert agent.test_recurrent_states is not None
        agent.batch_observe(list(obs[1]), [0.0, 0.0], [True, False], [False, False])
        assert not agent.test_recurrent_states[0][:, 0].any()
    assert agent.train_recurrent_states[0] is h  # eval mode left the training states alone


def test_split_rollout_and_minibatches():
    ends = DONE | RESET
    assert split_rollout(ends, None) == [(0, 0, 2), (0, 2, 3), (1, 0, 3), (1, 3, 2)]
    assert split_rollout(ends, 2) == [(0, 0, 2), (0, 2, 2), (0, 4, 1), (1, 0, 2), (1, 2, 1),
                                      (1, 3, 2)]
    numpy.random.seed(0)
    batches = list(sequence_minibatches(split_rollout(ends, None), 4, 2))
    assert [sum(n for _, _, n in b) for b in batches] == [4, 4, 2] * 2
    for epoch in (batches[:3], batches[3:]):  # every step once per epoch
        steps = sorted((env, start + k) for b in epoch for env, start, n in b for k in range(n))
        assert steps == sorted((env, t) for env in range(2) for t in range(5))


def test_refusals():
    feed_forward = nn.Branched(kusari.Sequential(L.Linear(2, 3), policies.SoftmaxCategoricalHead()),
                               L.Linear(2, 1))
    with pytest.raises(ValueError, match="PPO: recurrent=True needs a recurrent model .* got the "
                                         "feed-forward Branched"):
        PPO(feed_forward, optimizers.SGD().setup(feed_forward), recurrent=True)
    model = recurrent_model()
    with pytest.raises(ValueError, match="PPO: the model RecurrentSequential is recurrent; pass "
                                         "recurrent=True"):
        PPO(model, optimizers.SGD().setup(model))
    with pytest.raises(ValueError, match="PPO: max_recurrent_sequence_len must be an int >= 1, "
                                         "got 0"):
        PPO(model, optimizers.SGD().setup(model), recurrent=True, max_recurrent_sequence_len=0)


def test_training_loop_save_and_load(tmp_path):
    """train_agent_with_evaluation drives a recurrent PPO (two updates on sequences of at most 8
    steps, evaluation episodes); a loaded copy then acts as the original from restarted states."""
    import gymnasium
    from kusari.rl import experiments
    from kusari.rl.utils import set_random_seed

    set_random_seed(0)
    env, eval_env = gymnasium.make("CartPole-v1"), gymnasium.make("CartPole-v1")

    def agent_of(model):
        return PPO(model, optimizers.Adam(1e-3).setup(model), update_interval=64,
                   minibatch_size=16, epochs=2, recurrent=True, max_recurrent_sequence_len=8,
                   act_deterministically=True)

    def model():
        numpy.random.seed(0)
        return nn.RecurrentSequential(
            L.Linear(4, 8), F.tanh, L.NStepGRU(1, 8, 8, 0.0),
            nn.Branched(kusari.Sequential(L.Linear(8, 2), policies.SoftmaxCategoricalHead()),
                        L.Linear(8, 1)))
    agent = agent_of(model())
    experiments.train_agent_with_evaluation(agent, env, steps=140, eval_n_steps=None,
                                            eval_n_episodes=1, eval_interval=140,
                                            outdir=str(tmp_path / "run"), eval_env=eval_env)
    assert agent.n_updates == 2 * 4 * 2  # two updates of 4 minibatches, 2 epochs
    agent.save(str(tmp_path / "agent"))
    loaded = agent_of(model())
    loaded.load(str(tmp_path / "agent"))
    observations = numpy.random.RandomState(1).randn(12, 4).astype(numpy.float32)
    with agent.eval_mode(), loaded.eval_mode():
        hidden = []
        for each in (agent, loaded):
            each.observe(observations[0], 0.0, True, False)  # from zeros
            hidden.append([])
            for obs in observations:
                each.act(obs)
                hidden[-1].append(each.test_recurrent_states[0].copy())
                each.observe(obs, 0.0, False, False)
    assert numpy.abs(hidden[0]).min() > 0
    numpy.testing.assert_allclose(hidden[0], hidden[1], rtol=1e-6)
