#!/usr/bin/env python
"""Train A2C on a gymnasium environment in a batch of environments (default CartPole-v1).

    python examples/rl/train_a2c_gym.py                       # CartPole-v1, 8 envs, 500k steps
    python examples/rl/train_a2c_gym.py --demo --load results/<run>/best

Discrete action spaces get a softmax policy, Box ones a Gaussian (as in train_ppo_gym.py). The
defaults are rl-baselines3-zoo's CartPole-v1 entry (hyperparams/a2c.yml: 8 envs, 5e5 steps, no
entropy bonus) over Stable-Baselines3's A2C defaults: 5-step returns (its GAE lambda of 1),
gamma 0.99, RMSprop with step size 7e-4, alpha 0.99 and eps 1e-5, value loss weight 0.5,
gradients clipped to norm 0.5, separate 64-64 tanh policy and value networks.
"""
from kusari import optimizers
from kusari.rl import agents

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="CartPole-v1", steps=500_000,
                                  eval_interval=25_000, zoo_name="a2c-cartpole", num_envs=8)
    parser.add_argument("--update-steps", type=int, default=5, help="steps of every env per update")
    parser.add_argument("--lr", type=float, default=7e-4, help="RMSprop's step size")
    parser.add_argument("--rmsprop-eps", type=float, default=1e-5)
    parser.add_argument("--gamma", type=float, default=0.99, help="discount factor")
    parser.add_argument("--use-gae", action="store_true", help="GAE(--tau) instead of n-step returns")
    parser.add_argument("--tau", type=float, default=0.95, help="GAE's lambda, with --use-gae")
    parser.add_argument("--entropy-coeff", type=float, default=0.0)
    parser.add_argument("--v-loss-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--n-hidden-channels", type=int, default=64)
    return _common.parse_args(parser, argv)


def build_agent(args, env):
    model = _common.actor_critic(env, [args.n_hidden_channels] * 2)
    optimizer = optimizers.RMSprop(lr=args.lr, alpha=0.99, eps=args.rmsprop_eps).setup(model)
    return agents.A2C(
        model, optimizer, args.gamma, args.num_envs, gpu=args.gpu, update_steps=args.update_steps,
        v_loss_coef=args.v_loss_coef, entropy_coeff=args.entropy_coeff, use_gae=args.use_gae,
        tau=args.tau, max_grad_norm=args.max_grad_norm)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _common.make_vector_env(args.env, args.num_envs, args.seed, test),
                          build_agent)


if __name__ == "__main__":
    main()
