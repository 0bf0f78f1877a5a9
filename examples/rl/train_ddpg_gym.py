#!/usr/bin/env python
"""Train DDPG on a gymnasium environment with continuous actions (default Pendulum-v1).

    python examples/rl/train_ddpg_gym.py                      # Pendulum-v1, 20k steps
    python examples/rl/train_ddpg_gym.py --demo --load results/<run>/best

The agent acts in [-1, 1] (NormalizeActionSpace maps that onto the env's bounds). The defaults
are rl-baselines3-zoo's Pendulum-v1 entry (hyperparams/ddpg.yml): 20k steps, gamma 0.98, buffer
2e5, 10k uniformly random steps before learning, Gaussian exploration noise of std 0.1, one update
per step, Adam 1e-3, 400-300 networks; and Stable-Baselines3's DDPG defaults: minibatch 256 and
targets Polyak-averaged with rate 0.005 after every update.
"""
import kusari
import kusari.functions as F
from kusari import optimizers
from kusari.rl import agents, explorers, nn, policies, replay_buffers

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="Pendulum-v1", steps=20_000,
                                  eval_interval=2000, zoo_name="ddpg-pendulum")
    _common.add_off_policy_arguments(parser, gamma=0.98, lr=1e-3, replay_buffer_size=200_000,
                                     replay_start_size=10_000, minibatch_size=256,
                                     soft_update_tau=5e-3, hidden_sizes=[400, 300])
    parser.add_argument("--noise-std", type=float, default=0.1,
                        help="std of the Gaussian noise added to actions while training")
    return _common.parse_args(parser, argv)


def build_agent(args, env):
    _common.require_action_space(env, discrete=False, agent_name="DDPG")
    obs_size, action_size = _common.space_sizes(env)
    policy = kusari.Sequential(nn.MLP(obs_size, action_size, args.hidden_sizes), F.tanh,
                               policies.DeterministicHead())
    q_func = _common.critic(env, args.hidden_sizes)
    return agents.DDPG(
        policy, q_func, optimizers.Adam(alpha=args.lr).setup(policy),
        optimizers.Adam(alpha=args.lr).setup(q_func), replay_buffers.ReplayBuffer(args.replay_buffer_size),
        args.gamma, explorers.AdditiveGaussian(args.noise_std, low=-1.0, high=1.0), gpu=args.gpu,
        replay_start_size=args.replay_start_size, minibatch_size=args.minibatch_size,
        target_update_interval=1, target_update_method="soft", soft_update_tau=args.soft_update_tau,
        burnin_action_func=env.action_space.sample)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _common.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
