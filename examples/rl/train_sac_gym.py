#!/usr/bin/env python
"""Train Soft Actor-Critic on a gymnasium environment with continuous actions (default Pendulum-v1).

    python examples/rl/train_sac_gym.py                       # Pendulum-v1, 20k steps
    python examples/rl/train_sac_gym.py --demo --load results/<run>/best

The policy is a tanh-squashed Gaussian in [-1, 1] (NormalizeActionSpace maps that onto the env's
bounds). The defaults are rl-baselines3-zoo's Pendulum-v1 entry (hyperparams/sac.yml: 20k steps,
Adam 1e-3) over Stable-Baselines3's SAC defaults: gamma 0.99, buffer 1e6, minibatch 256, one
update per step, Polyak rate 0.005, 256-256 networks, and the temperature tuned (from 1, by Adam at
the same step size) towards an entropy of -(action size). Stable-Baselines3 starts learning after
100 uniformly random steps, sampling its first minibatches with repeats; kusari's agents wait
until a minibatch can be filled, so 256 random steps come first here.
"""
import kusari
from kusari import optimizers
from kusari.rl import agents, nn, policies, replay_buffers

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="Pendulum-v1", steps=20_000,
                                  eval_interval=2000, zoo_name="sac-pendulum")
    _common.add_off_policy_arguments(parser, gamma=0.99, lr=1e-3, replay_buffer_size=1_000_000,
                                     replay_start_size=256, minibatch_size=256,
                                     soft_update_tau=5e-3, hidden_sizes=[256, 256])
    parser.add_argument("--initial-temperature", type=float, default=1.0)
    return _common.parse_args(parser, argv)


def build_agent(args, env):
    _common.require_action_space(env, discrete=False, agent_name="SoftActorCritic")
    obs_size, action_size = _common.space_sizes(env)
    # the MLP gives the mean and the log-std of each action dimension
    policy = kusari.Sequential(nn.MLP(obs_size, 2 * action_size, args.hidden_sizes),
                               policies.SquashedDiagonalGaussianHead())
    q_func1, q_func2 = (_common.critic(env, args.hidden_sizes) for _ in range(2))
    return agents.SoftActorCritic(
        policy, q_func1, q_func2, *(optimizers.Adam(alpha=args.lr).setup(m) for m in (policy, q_func1, q_func2)),
        replay_buffers.ReplayBuffer(args.replay_buffer_size), args.gamma, gpu=args.gpu,
        replay_start_size=args.replay_start_size, minibatch_size=args.minibatch_size,
        soft_update_tau=args.soft_update_tau, burnin_action_func=env.action_space.sample,
        initial_temperature=args.initial_temperature, entropy_target=-float(action_size),
        temperature_optimizer_lr=args.lr)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _common.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
