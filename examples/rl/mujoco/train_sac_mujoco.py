#!/usr/bin/env python
"""Train Soft Actor-Critic on a MuJoCo task with PFRL's reproduction settings (default Hopper-v5).

    python examples/rl/mujoco/train_sac_mujoco.py              # Hopper-v5, 1e6 steps
    python examples/rl/mujoco/train_sac_mujoco.py --demo --load results/<run>/best

PFRL 0.4's examples/mujoco/reproduction/soft_actor_critic/train_soft_actor_critic.py (Haarnoja et
al., 2018): 256-256 ReLU networks (a tanh-squashed Gaussian policy whose log-std is clipped to
[-20, 2], two critics), Adam 3e-4 for each and for the temperature (from 1, towards an entropy of
-(action size)), a buffer of 10**6, 10**4 uniformly random steps before learning, minibatches of
256, gamma 0.99, Polyak rate 0.005; 10 evaluation episodes every 5000 steps. The agent is
examples/rl/train_sac_gym.py's ``build_agent``. PFRL's policy output layer starts Xavier-uniform
and its other layers from PyTorch's default; kusari's from Chainer's (LeCun normal, zero biases).
"""
import _mujoco
from _mujoco import _common

import train_sac_gym


def parse_args(argv=None):
    parser = _mujoco.build_parser(__doc__.splitlines()[0], steps=10**6, eval_interval=5000,
                                  zoo_name="sac-hopper")
    _common.add_off_policy_arguments(parser, gamma=0.99, lr=3e-4, replay_buffer_size=10**6,
                                     replay_start_size=10_000, minibatch_size=256,
                                     soft_update_tau=5e-3, hidden_sizes=[256, 256])
    parser.add_argument("--initial-temperature", type=float, default=1.0)
    return _common.parse_args(parser, argv)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _mujoco.make_env(args.env, args.seed, test),
                          train_sac_gym.build_agent)


if __name__ == "__main__":
    main()
