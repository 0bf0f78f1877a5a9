"""The zoo's RL agents, evaluated independently of the reproductions that produced them.

Each ``kusari.model_zoo.load(name)`` agent plays 20 episodes of the raw ``gymnasium.make(env_id)`` in
eval mode, on seeds no reproduction used (training: ``1000 * seed + i``; the reproductions' scoring:
``10**6 + seed``), and must reach issue 13's target: CartPole-v1 >= 475, Pendulum-v1 >= -200,
LunarLander-v3 >= 200.
"""
import numpy
import pytest

gymnasium = pytest.importorskip("gymnasium")

from kusari import model_zoo  # noqa: E402

EPISODES = 20
SEED_BASE = 7_000_000
ZOO_AGENTS = [
    ("dqn-cartpole", "CartPole-v1", 475.0),
    ("ppo-cartpole", "CartPole-v1", 475.0),
    ("a2c-cartpole", "CartPole-v1", 475.0),
    ("a3c-cartpole", "CartPole-v1", 475.0),
    ("td3-pendulum", "Pendulum-v1", -200.0),
    ("sac-pendulum", "Pendulum-v1", -200.0),
    ("ddpg-pendulum", "Pendulum-v1", -200.0),
    ("ppo-lunarlander", "LunarLander-v3", 200.0),
]


def _mean_return(agent, env_id: str) -> float:
    env = gymnasium.make(env_id)
    returns = []
    with agent.eval_mode():
        for episode in range(EPISODES):
            obs, _ = env.reset(seed=SEED_BASE + episode)
            total, finished = 0.0, False
            while not finished:
                obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
                total += float(reward)
                finished = terminated or truncated
            returns.append(total)
    env.close()
    return float(numpy.mean(returns))


@pytest.mark.slow
@pytest.mark.parametrize("name, env_id, target", ZOO_AGENTS, ids=[a[0] for a in ZOO_AGENTS])
def test_zoo_agent_reaches_its_target_on_fresh_episodes(name, env_id, target):
    if env_id.startswith("LunarLander"):
        pytest.importorskip("Box2D")
    agent = model_zoo.load(name)
    assert _mean_return(agent, env_id) >= target
