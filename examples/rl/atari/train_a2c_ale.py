#!/usr/bin/env python
"""Train A2C on an Atari game in a batch of environments (default ALE/Pong-v5).

    python examples/rl/atari/train_a2c_ale.py                  # Pong, 16 envs, 8e7 steps
    python examples/rl/atari/train_a2c_ale.py --demo --load results/<run>/best

PFRL 0.4's examples/atari/train_a2c_ale.py: DeepMind's wrappers, each env in its own process and
the last 4 frames stacked in the main one; the NIPS DQN network (``nn.SmallAtariCNN``: 16x8x8/4,
32x4x4/2, 256 ReLU units) with a softmax policy and a value head; RMSprop with eps inside the
square root (lr 7e-4, alpha 0.99, eps 1e-5); 5 steps of every env per update, n-step returns
(``--use-gae`` for GAE), gamma 0.99, entropy weight 0.01, value loss weight 0.5, gradients
clipped to norm 40. ``--steps`` counts the steps of all envs together. PFRL's default is one env;
16 is the A3C/A2C papers' number of actors. kusari's CNN biases start at 0.1 (PFRL's network,
written with PyTorch layers, starts from PyTorch's default initialization).
"""
import kusari
import kusari.links as L
from kusari.rl import agents, nn, optimizers, policies

import _atari
from _atari import _common


def parse_args(argv=None):
    parser = _atari.build_parser(__doc__.splitlines()[0], steps=8 * 10**7, eval_interval=10**6,
                                 zoo_name="a2c-pong", num_envs=16)
    parser.add_argument("--update-steps", type=int, default=5, help="steps of every env per update")
    parser.add_argument("--lr", type=float, default=7e-4, help="RMSprop's step size")
    parser.add_argument("--alpha", type=float, default=0.99, help="RMSprop's decay")
    parser.add_argument("--rmsprop-epsilon", type=float, default=1e-5)
    parser.add_argument("--gamma", type=float, default=0.99, help="discount factor")
    parser.add_argument("--use-gae", action="store_true", help="GAE(--tau) instead of n-step returns")
    parser.add_argument("--tau", type=float, default=0.95, help="GAE's lambda, with --use-gae")
    parser.add_argument("--max-grad-norm", type=float, default=40.0)
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.A2C:
    """A2C on the NIPS DQN network (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="A2C")
    model = kusari.Sequential(
        nn.SmallAtariCNN(n_input_channels=4, n_output_channels=256),
        nn.Branched(kusari.Sequential(L.Linear(256, env.action_space.n), policies.SoftmaxCategoricalHead()),
                    L.Linear(256, 1)))
    optimizer = optimizers.RMSpropEpsInsideSqrt(lr=args.lr, alpha=args.alpha,
                                                eps=args.rmsprop_epsilon).setup(model)
    return agents.A2C(model, optimizer, args.gamma, args.num_envs, gpu=args.gpu,
                      update_steps=args.update_steps, phi=_atari.phi, use_gae=args.use_gae,
                      tau=args.tau, max_grad_norm=args.max_grad_norm)


def main(argv=None):
    args = parse_args(argv)
    _common.train_or_demo(args, lambda test: _atari.make_vector_env(args, test), build_agent)


if __name__ == "__main__":
    main()
