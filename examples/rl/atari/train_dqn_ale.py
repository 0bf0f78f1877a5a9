#!/usr/bin/env python
"""Train DQN on an Atari game with the Nature paper's settings (default ALE/Pong-v5).

    python examples/rl/atari/train_dqn_ale.py                  # Pong, 5e7 steps (2e8 frames)
    python examples/rl/atari/train_dqn_ale.py --env ALE/Breakout-v5
    python examples/rl/atari/train_dqn_ale.py --demo --load results/<run>/best

Mnih et al. (2015), as PFRL 0.4's examples/atari/reproduction/dqn/train_dqn.py sets it up:
DeepMind's wrappers (``make_atari`` + ``wrap_deepmind``: 4 frames per step, 84x84 grey, the last
4 stacked, clipped rewards, a lost life ends a training episode); the Nature network
(``nn.LargeAtariCNN`` and a linear layer to the action values); centered RMSprop with eps inside
the square root (``optimizers.RMSpropGraves`` without momentum: lr 2.5e-4, alpha 0.95, eps 1e-2);
a replay buffer of 10**6 transitions; 5 x 10**4 random-policy steps before learning; an update
of a minibatch of 32 every 4 steps, losses summed, Huber loss; a target copy every 10**4 steps;
epsilon from 1 to 0.1 over the first 10**6 steps; gamma 0.99; evaluation with epsilon 0.05.

A step is 4 frames: ``--steps`` counts steps, as PFRL's ``--steps`` does. PFRL evaluates every
250,000 steps for 125,000 steps; here evaluations are ``--eval-n-runs`` whole games.
"""
import kusari
import kusari.links as L
from kusari import optimizers
from kusari.rl import agents, explorers, nn, q_functions, replay_buffers

import _atari
from _atari import _common


def parse_args(argv=None):
    parser = _atari.build_parser(__doc__.splitlines()[0], steps=5 * 10**7, eval_interval=250_000,
                                 zoo_name="dqn-pong", eval_epsilon=0.05)
    parser.add_argument("--lr", type=float, default=2.5e-4, help="RMSprop's step size")
    _common.add_dqn_arguments(parser, gamma=0.99, minibatch_size=32, replay_buffer_size=10**6,
                              replay_start_size=5 * 10**4, update_interval=4,
                              target_update_interval=10**4)
    parser.add_argument("--final-epsilon", type=float, default=0.1)
    parser.add_argument("--final-exploration-steps", type=int, default=10**6,
                        help="steps over which epsilon decays from 1 to --final-epsilon")
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.DQN:
    """Nature DQN (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="DQN")
    n_actions = env.action_space.n
    q_func = kusari.Sequential(nn.LargeAtariCNN(), L.Linear(512, n_actions),
                               q_functions.DiscreteActionValueHead())
    optimizer = optimizers.RMSpropGraves(lr=args.lr, alpha=0.95, momentum=0.0, eps=1e-2).setup(q_func)
    explorer = explorers.LinearDecayEpsilonGreedy(1.0, args.final_epsilon, args.final_exploration_steps,
                                                  env.action_space.sample)
    return agents.DQN(
        q_func, optimizer, replay_buffers.ReplayBuffer(args.replay_buffer_size), args.gamma, explorer,
        gpu=args.gpu, replay_start_size=args.replay_start_size, minibatch_size=args.minibatch_size,
        update_interval=args.update_interval, target_update_interval=args.target_update_interval,
        clip_delta=True, batch_accumulator="sum", phi=_atari.phi)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, _atari.env_maker(args), build_agent)


if __name__ == "__main__":
    main()
