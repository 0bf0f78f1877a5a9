#!/usr/bin/env python
"""Train IQN on an Atari game with the paper's settings (default ALE/Pong-v5).

    python examples/rl/atari/train_iqn_ale.py                  # Pong, 5e7 steps (2e8 frames)
    python examples/rl/atari/train_iqn_ale.py --demo --load results/<run>/best

Implicit quantile networks (Dabney et al., 2018), as PFRL 0.4's
examples/atari/reproduction/iqn/train_iqn.py sets them up: DeepMind's wrappers; psi the Nature
network's three convolutions (3136 features), phi a linear layer on 64 cosines of tau to 3136
features with a ReLU, f a 512-unit ReLU layer to the quantiles of each action; Adam (lr 5e-5, eps
0.01 / 32); a replay buffer of 10**6; 5 x 10**4 steps before learning; an update every 4 steps of
a minibatch of 32, losses averaged; a target copy every 10**4 steps; epsilon from 1 to 0.01 over
10**6 steps; N = N' = 64 and K = 32 quantile levels; gamma 0.99; evaluation with epsilon 0.001.
PFRL's layers start from PyTorch's default initialization, kusari's from Chainer's (LeCun normal
weights, zero biases).
"""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import optimizers
from kusari.rl import agents, explorers, replay_buffers

import _atari
from _atari import _common


def parse_args(argv=None):
    parser = _atari.build_parser(__doc__.splitlines()[0], steps=5 * 10**7, eval_interval=250_000,
                                 zoo_name="iqn-pong", eval_epsilon=0.001)
    parser.add_argument("--lr", type=float, default=5e-5, help="Adam's step size")
    _common.add_dqn_arguments(parser, gamma=0.99, minibatch_size=32, replay_buffer_size=10**6,
                              replay_start_size=5 * 10**4, update_interval=4,
                              target_update_interval=10**4)
    parser.add_argument("--final-epsilon", type=float, default=0.01)
    parser.add_argument("--final-exploration-steps", type=int, default=10**6,
                        help="steps over which epsilon decays from 1 to --final-epsilon")
    parser.add_argument("--quantile-thresholds-N", type=int, default=64)
    parser.add_argument("--quantile-thresholds-N-prime", type=int, default=64)
    parser.add_argument("--quantile-thresholds-K", type=int, default=32)
    return _common.parse_args(parser, argv)


def _flatten(h):
    return F.reshape(h, (h.shape[0], -1))


def build_agent(args, env) -> agents.IQN:
    """IQN with the Nature network's torso (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="IQN")
    n_actions = env.action_space.n
    q_func = agents.ImplicitQuantileQFunction(
        psi=kusari.Sequential(L.Convolution2D(4, 32, 8, stride=4), F.relu,
                              L.Convolution2D(32, 64, 4, stride=2), F.relu,
                              L.Convolution2D(64, 64, 3, stride=1), F.relu, _flatten),
        phi=kusari.Sequential(agents.CosineBasisLinear(64, 3136), F.relu),
        f=kusari.Sequential(L.Linear(3136, 512), F.relu, L.Linear(512, n_actions)))
    optimizer = optimizers.Adam(alpha=args.lr, eps=1e-2 / args.minibatch_size).setup(q_func)
    explorer = explorers.LinearDecayEpsilonGreedy(1.0, args.final_epsilon, args.final_exploration_steps,
                                                  env.action_space.sample)
    return agents.IQN(
        q_func, optimizer, replay_buffers.ReplayBuffer(args.replay_buffer_size), args.gamma, explorer,
        gpu=args.gpu, replay_start_size=args.replay_start_size, minibatch_size=args.minibatch_size,
        update_interval=args.update_interval, target_update_interval=args.target_update_interval,
        batch_accumulator="mean", phi=_atari.phi,
        quantile_thresholds_N=args.quantile_thresholds_N,
        quantile_thresholds_N_prime=args.quantile_thresholds_N_prime,
        quantile_thresholds_K=args.quantile_thresholds_K)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, _atari.env_maker(args), build_agent)


if __name__ == "__main__":
    main()
