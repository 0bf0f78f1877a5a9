#!/usr/bin/env python
"""Train PPO on an Atari game in a batch of environments (default ALE/Pong-v5).

    python examples/rl/atari/train_ppo_ale.py                  # Pong, 8 envs, 1e7 steps
    python examples/rl/atari/train_ppo_ale.py --demo --load results/<run>/best

PFRL 0.4's examples/atari/train_ppo_ale.py (Schulman et al., 2017's Atari settings): DeepMind's
wrappers, 8 envs each in its own process, the last 4 frames stacked in the main one; the Nature
network's torso (``nn.LargeAtariCNN``: three convolutions, 512 ReLU units) under a softmax
policy whose last layer starts 100 times smaller and a value head (LeCun normal weights and
zero biases throughout, as PFRL's ``lecun_init``); Adam (lr 2.5e-4, eps 1e-5) with the step
size decaying linearly to 0; 128 steps of each env per update, 4 epochs of minibatches of 256,
clipping 0.1, entropy weight 0.01, value loss weight 1, advantages standardized, gradients
clipped to norm 0.5, gamma 0.99, GAE lambda 0.95. ``--steps`` counts the steps of all envs.
"""
import kusari
import kusari.links as L
from kusari import initializers, optimizers
from kusari.rl import agents, experiments, nn, policies

import _atari
from _atari import _common


def parse_args(argv=None):
    parser = _atari.build_parser(__doc__.splitlines()[0], steps=10**7, eval_interval=100_000,
                                 zoo_name="ppo-pong", num_envs=8)
    parser.add_argument("--update-interval", type=int, default=128 * 8,
                        help="transitions (over all envs) collected per update")
    parser.add_argument("--minibatch-size", type=int, default=32 * 8)
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--lr", type=float, default=2.5e-4, help="Adam's initial step size")
    parser.add_argument("--clip-eps", type=float, default=0.1)
    parser.add_argument("--gamma", type=float, default=0.99, help="discount factor")
    parser.add_argument("--lambd", type=float, default=0.95, help="GAE's lambda")
    parser.add_argument("--entropy-coef", type=float, default=0.01)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    return _common.parse_args(parser, argv)


def build_agent(args, env) -> agents.PPO:
    """PPO on the Nature network (see the module's docstring)."""
    _common.require_action_space(env, discrete=True, agent_name="PPO")
    policy_out = L.Linear(512, env.action_space.n, initialW=initializers.LeCunNormal(1e-2))
    model = kusari.Sequential(
        nn.LargeAtariCNN(n_input_channels=4, n_output_channels=512, bias=0.0),
        nn.Branched(kusari.Sequential(policy_out, policies.SoftmaxCategoricalHead()), L.Linear(512, 1)))
    optimizer = optimizers.Adam(alpha=args.lr, eps=1e-5).setup(model)
    return agents.PPO(
        model, optimizer, gpu=args.gpu, gamma=args.gamma, lambd=args.lambd, phi=_atari.phi,
        value_func_coef=1.0, entropy_coef=args.entropy_coef, update_interval=args.update_interval,
        minibatch_size=args.minibatch_size, epochs=args.epochs, clip_eps=args.clip_eps,
        clip_eps_vf=None, standardize_advantages=True, max_grad_norm=args.max_grad_norm)


def _set_lr(env, agent, value):
    agent.optimizer.alpha = value


def main(argv=None):
    args = parse_args(argv)
    # the step size reaches 0 at the last step, after the last update
    hooks = (experiments.LinearInterpolationHook(args.steps, args.lr, 0.0, _set_lr),)
    _common.train_or_demo(args, lambda test: _atari.make_vector_env(args, test), build_agent,
                          step_hooks=hooks)


if __name__ == "__main__":
    main()
