#!/usr/bin/env python
"""Train PPO on a gymnasium environment in a batch of environments (default CartPole-v1).

    python examples/rl/train_ppo_gym.py                       # CartPole-v1, 8 envs, 100k steps
    python examples/rl/train_ppo_gym.py --env Pendulum-v1 --num-envs 4 --update-interval 4096 \\
        --minibatch-size 64 --epochs 10 --gamma 0.9 --lambd 0.95 --lr 1e-3 --no-decay
    python examples/rl/train_ppo_gym.py --demo --load results/<run>/best

Discrete action spaces get a softmax policy, Box ones a Gaussian with a learned, state-independent
standard deviation (actions in [-1, 1] are mapped onto the env's bounds). The defaults are
rl-baselines3-zoo's tuned CartPole-v1 entry (hyperparams/ppo.yml): 8 envs of 32 steps per update,
minibatch 256, 20 epochs, gamma 0.98, GAE lambda 0.8, no entropy bonus, learning rate 1e-3 and
clipping range 0.2 both decaying linearly to 0; and Stable-Baselines3's PPO defaults: separate
64-64 tanh policy and value networks, value loss weight 0.5, gradients clipped to norm 0.5,
Adam's eps 1e-5. The Pendulum-v1 line above is that file's Pendulum-v1 entry, less its gSDE
exploration, which kusari does not have.
"""
from kusari import optimizers
from kusari.rl import agents, experiments

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="CartPole-v1", steps=100_000,
                                  eval_interval=10_000, zoo_name="ppo-cartpole", num_envs=8)
    parser.add_argument("--update-interval", type=int, default=256,
                        help="transitions (over all envs) collected per update")
    parser.add_argument("--minibatch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=20, help="passes over each rollout")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's initial step size")
    parser.add_argument("--clip-eps", type=float, default=0.2, help="initial clipping range")
    parser.add_argument("--no-decay", dest="decay", action="store_false",
                        help="keep --lr and --clip-eps constant instead of decaying them to 0")
    parser.add_argument("--gamma", type=float, default=0.98, help="discount factor")
    parser.add_argument("--lambd", type=float, default=0.8, help="GAE's lambda")
    parser.add_argument("--entropy-coef", type=float, default=0.0)
    parser.add_argument("--value-func-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--n-hidden-channels", type=int, default=64)
    return _common.parse_args(parser, argv)


def build_agent(args, env):
    model = _common.actor_critic(env, [args.n_hidden_channels] * 2)
    return agents.PPO(
        model, optimizers.Adam(alpha=args.lr, eps=1e-5).setup(model), gpu=args.gpu, gamma=args.gamma,
        lambd=args.lambd, value_func_coef=args.value_func_coef, entropy_coef=args.entropy_coef,
        update_interval=args.update_interval, minibatch_size=args.minibatch_size, epochs=args.epochs,
        clip_eps=args.clip_eps, max_grad_norm=args.max_grad_norm)


def _set_lr(env, agent, value):
    agent.optimizer.alpha = value


def _set_clip_eps(env, agent, value):
    agent.clip_eps = value


def main(argv=None):
    args = parse_args(argv)
    # Both reach 0 only at the last step, after the last update has run.
    hooks = (experiments.LinearInterpolationHook(args.steps, args.lr, 0.0, _set_lr),
             experiments.LinearInterpolationHook(args.steps, args.clip_eps, 0.0, _set_clip_eps)
             ) if args.decay else ()
    _common.train_or_demo(args, lambda test: _common.make_vector_env(args.env, args.num_envs, args.seed, test),
                          build_agent, step_hooks=hooks)


if __name__ == "__main__":
    main()
