#!/usr/bin/env python
"""Train Rainbow on an Atari game with the paper's settings (default ALE/Pong-v5).

    python examples/rl/atari/train_rainbow_ale.py              # Pong, 5e7 steps (2e8 frames)
    python examples/rl/atari/train_rainbow_ale.py --demo --load results/<run>/best

Rainbow (Hessel et al., 2018) as PFRL 0.4's examples/atari/reproduction/rainbow/train_rainbow.py
assembles it: DeepMind's wrappers; ``q_functions.DistributionalDuelingDQN`` (51 atoms in
[-10, 10]) with its Linears made noisy by ``nn.to_factorized_noisy(sigma_scale=0.5)``, and the
``Greedy`` explorer (the noise explores, also while evaluating); Adam (lr 6.25e-5, eps 1.5e-4);
``PrioritizedReplayBuffer`` of 10**6 (alpha 0.5, beta from 0.4 to 1 over the run's updates,
3-step returns, priorities normalized by the memory's maximum); ``CategoricalDoubleDQN`` with
gamma 0.99, minibatch 32 averaged, 2 x 10**4 steps before learning, an update every 4 steps and
a target copy every 32,000 steps; evaluation with epsilon 0.
"""
from kusari import optimizers
from kusari.rl import agents, explorers, nn, q_functions, replay_buffers

import _atari
from _atari import _common


def parse_args(argv=None):
    parser = _atari.build_parser(__doc__.splitlines()[0], steps=5 * 10**7, eval_interval=250_000,
                                 zoo_name="rainbow-pong", eval_epsilon=0.0)
    parser.add_argument("--lr", type=float, default=6.25e-5, help="Adam's step size")
    _common.add_dqn_arguments(parser, gamma=0.99, minibatch_size=32, replay_buffer_size=10**6,
                              replay_start_size=2 * 10**4, update_interval=4,
                              target_update_interval=32_000)
    parser.add_argument("--num-step-return", type=int, default=3, help="n of the n-step returns")
    parser.add_argument("--noisy-net-sigma", type=float, default=0.5,
                        help="sigma_0 of the noisy layers' initial noise amplitudes")
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.CategoricalDoubleDQN:
    """Rainbow (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="Rainbow")
    q_func = q_functions.DistributionalDuelingDQN(env.action_space.n, n_atoms=51, v_min=-10.0, v_max=10.0)
    nn.to_factorized_noisy(q_func, sigma_scale=args.noisy_net_sigma)
    replay_buffer = replay_buffers.PrioritizedReplayBuffer(
        args.replay_buffer_size, alpha=0.5, beta0=0.4, betasteps=args.steps / args.update_interval,
        num_steps=args.num_step_return, normalize_by_max="memory")
    return agents.CategoricalDoubleDQN(
        q_func, optimizers.Adam(alpha=args.lr, eps=1.5e-4).setup(q_func), replay_buffer, args.gamma,
        explorers.Greedy(), gpu=args.gpu, minibatch_size=args.minibatch_size,
        replay_start_size=args.replay_start_size, update_interval=args.update_interval,
        target_update_interval=args.target_update_interval, batch_accumulator="mean", phi=_atari.phi)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, _atari.env_maker(args), build_agent)


if __name__ == "__main__":
    main()
