#!/usr/bin/env python
"""Train A3C on a gymnasium environment with several processes sharing the model (default CartPole-v1).

    python examples/rl/train_a3c_gym.py                       # CartPole-v1, 4 processes, 500k steps
    python examples/rl/train_a3c_gym.py --demo --load results/<run>/best

Each process acts in its own environment and applies its gradients, lock-free, to parameters and
RMSprop state in shared memory (Mnih et al., 2016). rl-baselines3-zoo publishes no A3C; the defaults
follow its A2C CartPole-v1 entry (hyperparams/a2c.yml, zoo commit 22e3ff2: 5e5 steps, no entropy
bonus, 5-step returns, 64-64 tanh networks) and PFRL's A3C example for the optimizer (RMSprop with
eps inside the square root, step size 7e-4, alpha 0.99, eps 0.1) and gradient clipping (norm 40).
"""
from kusari.rl import agents, experiments, optimizers

import _common


def parse_args(argv=None):
    parser = _common.build_parser(__doc__.splitlines()[0], env="CartPole-v1", steps=500_000,
                                  eval_interval=25_000, zoo_name="a3c-cartpole")
    parser.add_argument("--processes", type=int, default=4, help="training processes")
    parser.add_argument("--t-max", type=int, default=5, help="steps per rollout before an update")
    parser.add_argument("--lr", type=float, default=7e-4, help="RMSprop's step size")
    parser.add_argument("--rmsprop-eps", type=float, default=1e-1)
    parser.add_argument("--gamma", type=float, default=0.99, help="discount factor")
    parser.add_argument("--beta", type=float, default=0.0, help="entropy bonus weight")
    parser.add_argument("--max-grad-norm", type=float, default=40.0)
    parser.add_argument("--n-hidden-channels", type=int, default=64)
    return _common.parse_args(parser, argv)


def build_agent(args, env, process_idx=0):
    model = _common.actor_critic(env, [args.n_hidden_channels] * 2)
    optimizer = optimizers.SharedRMSpropEpsInsideSqrt(lr=args.lr, alpha=0.99, eps=args.rmsprop_eps)
    optimizer.setup(model)
    return agents.A3C(model, optimizer, t_max=args.t_max, gamma=args.gamma, beta=args.beta,
                      process_idx=process_idx, max_grad_norm=args.max_grad_norm)


def main(argv=None):
    args = parse_args(argv)
    eval_env = _common.make_env(args.env, args.seed, test=True)
    agent = _common.load_agent(args, lambda: build_agent(args, eval_env))
    if args.demo:
        _common.run(args, agent, None, eval_env)
        return
    outdir = experiments.prepare_output_dir(args, args.outdir)
    print(f"Output files are saved in {outdir}", flush=True)
    # process i trains in an env seeded seed * processes + i; evaluation uses the test seeds
    experiments.train_agent_async(
        outdir, args.processes,
        lambda process_idx, test: _common.make_env(args.env, args.seed * args.processes + process_idx, test),
        steps=args.steps, eval_interval=args.eval_interval, eval_n_steps=None,
        eval_n_episodes=args.eval_n_runs, agent=agent, evaluation_hooks=(_common.PrintEvaluation(),))


if __name__ == "__main__":
    main()
