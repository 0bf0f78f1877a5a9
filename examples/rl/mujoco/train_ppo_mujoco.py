#!/usr/bin/env python
"""Train PPO on a MuJoCo task with PFRL's reproduction settings (default Hopper-v5).

    python examples/rl/mujoco/train_ppo_mujoco.py              # Hopper-v5, 2e6 steps
    python examples/rl/mujoco/train_ppo_mujoco.py --demo --load results/<run>/best

PFRL 0.4's examples/mujoco/reproduction/ppo/train_ppo.py (Schulman et al., 2017): separate 64-64
tanh networks for a Gaussian policy (state-independent log-std starting at 0) and the value,
orthogonally initialized (``_mujoco.gaussian_policy_and_vf``); Adam (lr 3e-4, eps 1e-5); 2048
steps per update, 10 epochs of minibatches of 64, clipping 0.2, no entropy bonus, value loss
weight 1, advantages standardized, gamma 0.995, GAE lambda 0.97, observations normalized by
``EmpiricalNormalization`` clipped at 5; 100 evaluation episodes every 10**5 steps.
"""
from kusari import optimizers
from kusari.rl import agents, nn

import _mujoco
from _mujoco import _common


def parse_args(argv=None):
    parser = _mujoco.build_parser(__doc__.splitlines()[0], steps=2 * 10**6, eval_interval=100_000,
                                  zoo_name="ppo-hopper", eval_n_runs=100)
    parser.add_argument("--update-interval", type=int, default=2048, help="steps per update")
    parser.add_argument("--minibatch-size", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=10, help="passes over each rollout")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam's step size")
    parser.add_argument("--clip-eps", type=float, default=0.2)
    parser.add_argument("--gamma", type=float, default=0.995, help="discount factor")
    parser.add_argument("--lambd", type=float, default=0.97, help="GAE's lambda")
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.PPO:
    """PPO (see the module's docstring)."""
    _common.require_action_space(env, discrete=False, agent_name="PPO")
    policy, vf = _mujoco.gaussian_policy_and_vf(env, vf_last_gain=1.0)
    model = nn.Branched(policy, vf)
    obs_size, _ = _common.space_sizes(env)
    return agents.PPO(
        model, optimizers.Adam(alpha=args.lr, eps=1e-5).setup(model),
        obs_normalizer=nn.EmpiricalNormalization(obs_size, clip_threshold=5), gpu=args.gpu,
        gamma=args.gamma, lambd=args.lambd, value_func_coef=1.0, entropy_coef=0.0,
        update_interval=args.update_interval, minibatch_size=args.minibatch_size,
        epochs=args.epochs, clip_eps=args.clip_eps, clip_eps_vf=None, standardize_advantages=True)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _mujoco.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
