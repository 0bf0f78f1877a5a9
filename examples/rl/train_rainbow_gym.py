#!/usr/bin/env python
"""Train Rainbow on a gymnasium environment with discrete actions (default CartPole-v1).

    python examples/rl/train_rainbow_gym.py                   # CartPole-v1, 50k steps
    python examples/rl/train_rainbow_gym.py --demo --load results/<run>/best

Rainbow (Hessel et al. 2018, https://arxiv.org/abs/1710.02298) as PFRL 0.4's
examples/atari/reproduction/rainbow/train_rainbow.py assembles it, in :func:`build_agent`:

- ``CategoricalDoubleDQN`` (C51 targets with Double DQN's action choice), ``gamma`` 0.99,
  minibatch 32, ``batch_accumulator='mean'``;
- a distributional dueling network whose Linears are made noisy by
  ``kusari.rl.nn.to_factorized_noisy(q, sigma_scale=0.5)``, and the ``Greedy`` explorer: the
  network's own noise, drawn anew at every forward, explores (also while evaluating, as in PFRL);
- ``PrioritizedReplayBuffer(alpha=0.5, beta0=0.4, betasteps=steps / update_interval, num_steps=3,
  normalize_by_max='memory')``: 3-step returns, and the importance-sampling exponent beta annealed
  from 0.4 to 1 over the run's updates;
- Adam with ``eps=1.5e-4`` (kusari's Adam adds eps to ``sqrt(v)``, torch's to the bias-corrected
  ``sqrt(v_hat)``: nearly the same after a few thousand updates).

PFRL's Atari values (51 atoms in [-10, 10] for clipped rewards, ``DistributionalDuelingDQN`` on
84x84 frames, lr 6.25e-5, 20,000 steps before learning, an update every 4 steps, a target copy
every 32,000 steps, a buffer of 10**6) are for 50M frames. The defaults here are ours for
CartPole's short run (not tuned against a published result): 51 atoms in [0, 100] (returns of
reward 1 discounted by 0.99 stay below 100), ``DistributionalDuelingFCStateQFunctionWithDiscreteAction``
with one hidden layer of 64 and a main stream of 2 x 64, lr 1e-3, 1,000 steps before learning, an
update every step, a target copy every 500 steps, a buffer of 10**5.

With these defaults and ``--seed 0``, one run on a 2-core Intel Xeon shared with other work
evaluated (10 episodes, noise on) at a mean of 113 after 5k steps, 191 after 30k, 264 after 35k and
500 (the maximum) from 40k to the end of the 50k steps, in 829 s (evaluations included).

The model zoo has no Rainbow agent yet: ``--load-pretrained`` ends with status 2.
"""
from kusari import optimizers
from kusari.rl import agents, explorers, nn, q_functions, replay_buffers

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="CartPole-v1", steps=50_000,
                                  eval_interval=5000, zoo_name="rainbow-cartpole")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--adam-eps", type=float, default=1.5e-4, help="Adam's eps (Rainbow's)")
    _common.add_dqn_arguments(parser, gamma=0.99, minibatch_size=32, replay_buffer_size=100_000,
                              replay_start_size=1000, update_interval=1,
                              target_update_interval=500)
    parser.add_argument("--num-step-return", type=int, default=3, help="n of the n-step returns")
    parser.add_argument("--alpha", type=float, default=0.5, help="prioritization exponent")
    parser.add_argument("--beta0", type=float, default=0.4,
                        help="initial importance-sampling exponent, annealed to 1 over the run")
    parser.add_argument("--noisy-net-sigma", type=float, default=0.5,
                        help="sigma_0 of the noisy layers' initial noise amplitudes")
    parser.add_argument("--n-atoms", type=int, default=51)
    parser.add_argument("--v-min", type=float, default=0.0, help="return of the lowest atom")
    parser.add_argument("--v-max", type=float, default=100.0, help="return of the highest atom")
    parser.add_argument("--n-hidden-channels", type=int, default=64,
                        help="width of the hidden layers and of each half of the main stream")
    parser.add_argument("--n-hidden-layers", type=int, default=1,
                        help="hidden layers before the main stream")
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.CategoricalDoubleDQN:
    """Rainbow: a noisy distributional dueling network, n-step prioritized replay with annealed
    beta, and CategoricalDoubleDQN (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="Rainbow")
    obs_size, n_actions = _common.space_sizes(env)
    q_func = q_functions.DistributionalDuelingFCStateQFunctionWithDiscreteAction(
        obs_size, n_actions, args.n_atoms, args.v_min, args.v_max, args.n_hidden_channels,
        args.n_hidden_layers)
    nn.to_factorized_noisy(q_func, sigma_scale=args.noisy_net_sigma)
    # PFRL's annealing: beta reaches 1 after the run's last update (one per update_interval steps)
    betasteps = args.steps / args.update_interval
    replay_buffer = replay_buffers.PrioritizedReplayBuffer(
        args.replay_buffer_size, alpha=args.alpha, beta0=args.beta0, betasteps=betasteps,
        num_steps=args.num_step_return, normalize_by_max="memory")
    return agents.CategoricalDoubleDQN(
        q_func, optimizers.Adam(alpha=args.lr, eps=args.adam_eps).setup(q_func), replay_buffer,
        args.gamma, explorers.Greedy(), gpu=args.gpu, minibatch_size=args.minibatch_size,
        replay_start_size=args.replay_start_size, update_interval=args.update_interval,
        target_update_interval=args.target_update_interval, batch_accumulator="mean")


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _common.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
