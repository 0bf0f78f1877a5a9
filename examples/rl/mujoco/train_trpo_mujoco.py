#!/usr/bin/env python
"""Train TRPO on a MuJoCo task with PFRL's reproduction settings (default Hopper-v5).

    python examples/rl/mujoco/train_trpo_mujoco.py             # Hopper-v5, 2e6 steps
    python examples/rl/mujoco/train_trpo_mujoco.py --demo --load results/<run>/best

PFRL 0.4's examples/mujoco/reproduction/trpo/train_trpo.py (Schulman et al., 2015): separate 64-64
tanh networks for a Gaussian policy (state-independent log-std starting at 0) and the value,
orthogonally initialized (``_mujoco.gaussian_policy_and_vf``, the value's last layer of gain 0.01);
observations normalized by ``EmpiricalNormalization`` clipped at 5; 5000 steps per update, a KL
limit of 0.01, 20 conjugate-gradient iterations with damping 0.1, no entropy bonus, gamma 0.995,
GAE lambda 0.97; the value fitted by Adam (lr 1e-3) for 5 epochs of minibatches of 64 per update;
100 evaluation episodes every 10**5 steps.
"""
from kusari import optimizers
from kusari.rl import agents, nn

import _mujoco
from _mujoco import _common


def parse_args(argv=None):
    parser = _mujoco.build_parser(__doc__.splitlines()[0], steps=2 * 10**6, eval_interval=100_000,
                                  zoo_name="trpo-hopper", eval_n_runs=100)
    parser.add_argument("--update-interval", type=int, default=5000, help="steps per update")
    parser.add_argument("--max-kl", type=float, default=0.01)
    parser.add_argument("--vf-lr", type=float, default=1e-3, help="the value's Adam step size")
    parser.add_argument("--vf-epochs", type=int, default=5)
    parser.add_argument("--vf-batch-size", type=int, default=64)
    parser.add_argument("--gamma", type=float, default=0.995, help="discount factor")
    parser.add_argument("--lambd", type=float, default=0.97, help="GAE's lambda")
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.TRPO:
    """TRPO (see the module's docstring)."""
    _common.require_action_space(env, discrete=False, agent_name="TRPO")
    policy, vf = _mujoco.gaussian_policy_and_vf(env, vf_last_gain=1e-2)
    obs_size, _ = _common.space_sizes(env)
    return agents.TRPO(
        policy, vf, optimizers.Adam(alpha=args.vf_lr).setup(vf),
        obs_normalizer=nn.EmpiricalNormalization(obs_size, clip_threshold=5), gpu=args.gpu,
        gamma=args.gamma, lambd=args.lambd, entropy_coef=0.0, update_interval=args.update_interval,
        max_kl=args.max_kl, vf_epochs=args.vf_epochs, vf_batch_size=args.vf_batch_size,
        conjugate_gradient_max_iter=20, conjugate_gradient_damping=1e-1)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _mujoco.make_env(args.env, args.seed, test), build_agent)


if __name__ == "__main__":
    main()
