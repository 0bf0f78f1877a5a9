#!/usr/bin/env python
"""Train TD3 on a MuJoCo task with PFRL's reproduction settings (default Hopper-v5).

    python examples/rl/mujoco/train_td3_mujoco.py              # Hopper-v5, 1e6 steps
    python examples/rl/mujoco/train_td3_mujoco.py --env HalfCheetah-v5
    python examples/rl/mujoco/train_td3_mujoco.py --demo --load results/<run>/best

PFRL 0.4's examples/mujoco/reproduction/td3/train_td3.py (Fujimoto et al., 2018): 400-300 ReLU
networks (a tanh policy, two critics of the concatenated observation and action), Adam 1e-3 for
each, a buffer of 10**6, 10**4 uniformly random steps before learning, minibatches of 100,
gamma 0.99, Polyak rate 0.005, Gaussian exploration noise of std 0.1, a policy update every 2
critic updates, target smoothing noise of std 0.2 clipped to 0.5; 10 evaluation episodes every
5000 steps. The agent is examples/rl/train_td3_gym.py's ``build_agent``. PFRL's layers start from
PyTorch's default initialization, kusari's from Chainer's (LeCun normal weights, zero biases).
"""
import _mujoco
from _mujoco import _common

import train_td3_gym


def parse_args(argv=None):
    parser = _mujoco.build_parser(__doc__.splitlines()[0], steps=10**6, eval_interval=5000,
                                  zoo_name="td3-hopper")
    _common.add_off_policy_arguments(parser, gamma=0.99, lr=1e-3, replay_buffer_size=10**6,
                                     replay_start_size=10_000, minibatch_size=100,
                                     soft_update_tau=5e-3, hidden_sizes=[400, 300])
    parser.add_argument("--noise-std", type=float, default=0.1,
                        help="std of the Gaussian noise added to actions while training")
    parser.add_argument("--policy-update-delay", type=int, default=2,
                        help="critic updates per policy update")
    return _common.parse_args(parser, argv)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _mujoco.make_env(args.env, args.seed, test),
                          train_td3_gym.build_agent)


if __name__ == "__main__":
    main()
