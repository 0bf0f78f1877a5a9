#!/usr/bin/env python
"""Train DQN on a gymnasium environment with discrete actions (default CartPole-v1).

    python examples/rl/train_dqn_gym.py                       # CartPole-v1, 50k steps
    python examples/rl/train_dqn_gym.py --demo --load results/<run>/best

The defaults are rl-baselines3-zoo's tuned CartPole-v1 entry (hyperparams/dqn.yml): Adam 2.3e-3,
minibatch 64, buffer 1e5, 1000 steps before learning, gamma 0.99, 128 updates every 256 steps,
epsilon from 1 to 0.04 over the first 16% of the steps, a 256-256 ReLU network, Huber loss and
gradients clipped to norm 10 (Stable-Baselines3's DQN defaults). The zoo copies the target network
every 10 steps; nothing is learned between two bursts of updates, so that equals one copy per
burst, which is what ``--target-update-interval 256`` does here.
"""
from kusari import optimizers
from kusari.rl import agents, explorers, q_functions, replay_buffers

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="CartPole-v1", steps=50_000,
                                  eval_interval=5000, zoo_name="dqn-cartpole")
    parser.add_argument("--lr", type=float, default=2.3e-3, help="Adam's step size")
    _common.add_dqn_arguments(parser, gamma=0.99, minibatch_size=64, replay_buffer_size=100_000,
                              replay_start_size=1000, update_interval=256,
                              target_update_interval=256,
                              update_interval_help="steps between bursts of updates")
    parser.add_argument("--n-times-update", type=int, default=128, help="updates per burst")
    parser.add_argument("--start-epsilon", type=float, default=1.0)
    parser.add_argument("--end-epsilon", type=float, default=0.04)
    parser.add_argument("--exploration-fraction", type=float, default=0.16,
                        help="fraction of --steps over which epsilon decays")
    parser.add_argument("--n-hidden-channels", type=int, default=256)
    parser.add_argument("--n-hidden-layers", type=int, default=2)
    parser.add_argument("--max-grad-norm", type=float, default=10.0)
    return _common.parse_args(parser, argv)


def build_agent(args, env):
    _common.require_action_space(env, discrete=True, agent_name="DQN")
    obs_size, n_actions = _common.space_sizes(env)
    q_func = q_functions.FCStateQFunctionWithDiscreteAction(
        obs_size, n_actions, args.n_hidden_channels, args.n_hidden_layers)
    explorer = explorers.LinearDecayEpsilonGreedy(
        args.start_epsilon, args.end_epsilon, int(args.exploration_fraction * args.steps),
        env.action_space.sample)
    return agents.DQN(
        q_func, optimizers.Adam(alpha=args.lr).setup(q_func),
        replay_buffers.ReplayBuffer(args.replay_buffer_size), args.gamma, explorer, gpu=args.gpu,
        replay_start_size=args.replay_start_size, minibatch_size=args.minibatch_size,
        update_interval=args.update_interval, n_times_update=args.n_times_update,
        target_update_interval=args.target_update_interval, max_grad_norm=args.max_grad_norm)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _common.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
