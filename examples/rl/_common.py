"""What the Gym training scripts share: their common arguments, seeded environments, agent loading,
and the run itself (training with evaluation, or a demo of a loaded agent)."""
import argparse
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy

import kusari
import kusari.functions as F
from kusari.rl import envs, experiments, nn, policies, utils, wrappers

_SEED_LIMIT = 2**31  # --seed stays below it: NumPy's global generator takes seeds < 2**32
# Evaluation envs are seeded this far above the training ones, so the two never share an episode.
_TEST_SEED_OFFSET = 2**40


def build_parser(description: str, env: str, steps: int, eval_interval: int, zoo_name: str,
                 eval_n_runs: int = 10, num_envs: int | None = None) -> argparse.ArgumentParser:
    """The arguments every script takes, with this script's defaults; the script adds its own.

    Parameters
    ----------
    description : str
        The script's help text.
    env : str
        Default gymnasium environment id.
    steps, eval_interval, eval_n_runs : int
        Default training steps, steps between evaluations, and episodes per evaluation.
    zoo_name : str
        The model zoo's agent for this script and its default env (``--load-pretrained`` alone).
    num_envs : int, optional
        For scripts that train in a batch of environments: the default of ``--num-envs``.

    Returns
    -------
    argparse.ArgumentParser
    """
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--env", default=env, help="gymnasium environment id")
    parser.add_argument("--steps", type=int, default=steps, help="environment steps to train for")
    parser.add_argument("--seed", type=int, default=0, help="random seed in [0, 2**31)")
    parser.add_argument("--outdir", default="results",
                        help="the run's files go into a new folder inside this one")
    parser.add_argument("--gpu", type=int, default=None, help="GPU id; None: the CPU")
    parser.add_argument("--eval-interval", type=int, default=eval_interval,
                        help="environment steps between evaluations")
    parser.add_argument("--eval-n-runs", type=int, default=eval_n_runs,
                        help="episodes per evaluation (and of --demo)")
    parser.add_argument("--demo", action="store_true",
                        help="only run --eval-n-runs evaluation episodes and print their returns")
    parser.add_argument("--load", default=None,
                        help="a saved agent's folder (e.g. results/<run>/best) to start from")
    parser.add_argument("--load-pretrained", nargs="?", const=zoo_name, default=None, metavar="NAME",
                        help=f"start from the agent kusari.model_zoo.load(NAME) (NAME: {zoo_name})")
    if num_envs is not None:
        parser.add_argument("--num-envs", type=int, default=num_envs,
                            help="environments stepped as one batch (training and evaluation)")
    parser.add_argument("--log-level", default="WARNING",
                        help="logging level; INFO logs every training and evaluation episode")
    return parser


def add_off_policy_arguments(parser: argparse.ArgumentParser, gamma: float, lr: float,
                             replay_buffer_size: int, replay_start_size: int, minibatch_size: int,
                             soft_update_tau: float, hidden_sizes: list[int]) -> None:
    """Add the arguments DDPG, TD3 and SAC share, with the script's defaults."""
    parser.add_argument("--gamma", type=float, default=gamma, help="discount factor")
    parser.add_argument("--lr", type=float, default=lr, help="Adam's step size, for every network")
    parser.add_argument("--replay-buffer-size", type=int, default=replay_buffer_size)
    parser.add_argument("--replay-start-size", type=int, default=replay_start_size,
                        help="random steps collected before the first update")
    parser.add_argument("--minibatch-size", type=int, default=minibatch_size)
    parser.add_argument("--soft-update-tau", type=float, default=soft_update_tau,
                        help="Polyak rate of the target networks")
    parser.add_argument("--hidden-sizes", type=int, nargs="+", default=hidden_sizes,
                        help="hidden layers of the policy and of the critics")


def add_dqn_arguments(parser: argparse.ArgumentParser, gamma: float, minibatch_size: int,
                      replay_buffer_size: int, replay_start_size: int, update_interval: int,
                      target_update_interval: int,
                      update_interval_help: str = "steps between updates") -> None:
    """Add the arguments the DQN-family scripts share (discount, replay, update schedule), with
    the script's defaults."""
    parser.add_argument("--gamma", type=float, default=gamma, help="discount factor")
    parser.add_argument("--minibatch-size", type=int, default=minibatch_size)
    parser.add_argument("--replay-buffer-size", type=int, default=replay_buffer_size)
    parser.add_argument("--replay-start-size", type=int, default=replay_start_size,
                        help="transitions collected before the first update")
    parser.add_argument("--update-interval", type=int, default=update_interval, help=update_interval_help)
    parser.add_argument("--target-update-interval", type=int, default=target_update_interval,
                        help="steps between copies of the Q-network into the target network")


def parse_args(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> argparse.Namespace:
    """Parse ``argv`` (``sys.argv[1:]`` when None), check the common arguments, set up logging and
    seed Python's and NumPy's generators with ``--seed``."""
    args = parser.parse_args(argv)
    if not 0 <= args.seed < _SEED_LIMIT:
        parser.error(f"--seed must be in [0, 2**31), got {args.seed}")
    for name in ("steps", "eval_interval", "eval_n_runs", "num_envs"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.load and args.load_pretrained:
        parser.error("give at most one of --load and --load-pretrained")
    logging.basicConfig(level=args.log_level.upper())
    utils.set_random_seed(args.seed)
    return args


def make_env(env_id: str, seed: int, test: bool = False) -> gymnasium.Env:
    """A seeded environment with float32 observations and, for a Box action space, actions in [-1, 1].

    Parameters
    ----------
    env_id : str
        gymnasium id, e.g. ``'CartPole-v1'``.
    seed : int
        Seeds the environment's first reset (later resets continue its generator) and its
        action space's ``sample``.
    test : bool
        An evaluation environment: it gets a seed far from the training ones.

    Returns
    -------
    gymnasium.Env
    """
    env_seed = seed + _TEST_SEED_OFFSET if test else seed
    env = wrappers.CastObservationToFloat32(gymnasium.make(env_id))
    if isinstance(env.action_space, gymnasium.spaces.Box):
        # agents act in [-1, 1]; the wrapper maps that onto the env's bounds
        env = wrappers.NormalizeActionSpace(env)
    env.reset(seed=env_seed)
    env.action_space.seed(env_seed)
    return env


def make_vector_env(env_id: str, num_envs: int, seed: int, test: bool = False) -> envs.SerialVectorEnv:
    """``num_envs`` environments of :func:`make_env`, env ``i`` seeded with ``seed * num_envs + i``.

    They step in this process: for classic-control envs a step costs far less than sending it to
    a worker process would (use :class:`kusari.rl.envs.MultiprocessVectorEnv` for costly envs).
    """
    return envs.SerialVectorEnv([make_env(env_id, seed * num_envs + i, test) for i in range(num_envs)])


def space_sizes(env: Any) -> tuple[int, int]:
    """``(observation size, action count or size)`` of a flat-observation env or vector env."""
    obs_space, action_space = env.observation_space, env.action_space
    if isinstance(action_space, gymnasium.spaces.Discrete):
        return int(numpy.prod(obs_space.shape)), int(action_space.n)
    return int(numpy.prod(obs_space.shape)), int(numpy.prod(action_space.shape))


def is_discrete(env: Any) -> bool:
    """Whether ``env``'s action space is Discrete."""
    return isinstance(env.action_space, gymnasium.spaces.Discrete)


def require_action_space(env: Any, discrete: bool, agent_name: str) -> None:
    """End the script with a message unless ``env``'s actions are discrete (or continuous) as
    ``agent_name`` needs."""
    if is_discrete(env) != discrete:
        # the hint names scripts for the action space the env has
        needed, hint = ("a Discrete", "train_ppo_gym.py or train_sac_gym.py") if discrete else (
            "a Box", "train_ppo_gym.py or train_dqn_gym.py")
        sys.exit(f"error: {agent_name} needs {needed} action space, but the env's is "
                 f"{env.action_space}; try {hint}")


def actor_critic(env: Any, hidden_sizes: list[int]) -> nn.Branched:
    """PPO's and A2C's model: separate tanh MLPs for the policy and the value, as one Link.

    Discrete actions get a softmax policy; Box actions (in [-1, 1], see :func:`make_env`) a
    Gaussian whose standard deviation is a learned parameter, the same in every state.

    Returns
    -------
    nn.Branched
        Observations (B, obs_size) -> (action distribution, values (B, 1)).
    """
    obs_size, action_size = space_sizes(env)
    if is_discrete(env):
        head = policies.SoftmaxCategoricalHead()
    else:
        # the parameter is log(std), so std starts at 1 (as in PFRL's MuJoCo PPO)
        head = policies.GaussianHeadWithStateIndependentCovariance(
            action_size, var_type="diagonal", var_func=lambda x: F.exp(2 * x), var_param_init=0)
    # a small last layer starts the policy near uniform (or near the middle of the bounds)
    policy = kusari.Sequential(nn.MLP(obs_size, action_size, hidden_sizes, nonlinearity=F.tanh,
                                      last_wscale=0.01), head)
    return nn.Branched(policy, nn.MLP(obs_size, 1, hidden_sizes, nonlinearity=F.tanh))


def critic(env: Any, hidden_sizes: list[int]) -> kusari.Sequential:
    """A ReLU MLP of the concatenated observation and action: ``q((obs, action))`` -> (B, 1)."""
    obs_size, action_size = space_sizes(env)
    return kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(obs_size + action_size, 1, hidden_sizes))


def load_agent(args: argparse.Namespace, build: Callable[[], Any]) -> Any:
    """The agent of the run: the zoo's ``--load-pretrained`` agent, or ``build()``, then ``--load``.

    A zoo agent for continuous actions acts here in ``[-1, 1]``, as the scripts' envs expect
    (:func:`make_env`), not through the zoo's scaling onto the raw env's bounds.

    An agent the zoo cannot give (an unknown name, a missing file) ends the script with exit
    status 2 and a message naming the entry.
    """
    if args.load_pretrained:
        # imported only when asked for: importing the zoo registers every entry
        from kusari import model_zoo
        from kusari.model_zoo.agents import ScaledActionAgent
        try:
            agent = model_zoo.load(args.load_pretrained)
        except (ValueError, OSError) as e:
            print(f"error: --load-pretrained: the model zoo has no usable agent "
                  f"{args.load_pretrained!r} ({e})", file=sys.stderr)
            sys.exit(2)
        if isinstance(agent, ScaledActionAgent):
            # the zoo's wrapper maps [-1, 1] onto the raw env's bounds; make_env's envs already do
            agent = agent.agent
    else:
        agent = build()
    if args.load:
        agent.load(args.load)
    return agent


class PrintEvaluation(experiments.EvaluationHook):
    """Prints one line per evaluation, so a run shows its progress without INFO logging."""

    support_train_agent = True
    support_train_agent_batch = True
    support_train_agent_async = True

    def __call__(self, env, agent, evaluator, step, eval_stats, agent_stats, env_stats):
        print(f"step {step}: eval mean {eval_stats['mean']:.1f} median {eval_stats['median']:.1f} "
              f"stdev {eval_stats['stdev']:.1f} over {eval_stats['episodes']} episodes "
              f"(best {max(evaluator.max_score, eval_stats['mean']):.1f}, "
              f"{time.time() - evaluator.start_time:.0f} s)", flush=True)


def run(args: argparse.Namespace, agent: Any, env: Any, eval_env: Any,
        step_hooks: tuple = ()) -> None:
    """Train ``agent`` with evaluations (the vector-env loop when ``env`` is a vector env), or with
    ``--demo`` only evaluate it and print the mean, median and stdev of its returns.

    Training writes into a new folder of ``--outdir`` (:func:`prepare_output_dir`): ``scores.txt``,
    the best agent ``best/`` and the last one ``<steps>_finish/``.
    """
    if args.demo:
        stats = experiments.eval_performance(eval_env, agent, n_steps=None, n_episodes=args.eval_n_runs)
        print(f"n_runs: {args.eval_n_runs} mean: {stats['mean']:.2f} median: {stats['median']:.2f} "
              f"stdev: {stats['stdev']:.2f}")
        return
    outdir = experiments.prepare_output_dir(args, args.outdir)
    print(f"Output files are saved in {outdir}", flush=True)
    train = (experiments.train_agent_batch_with_evaluation if isinstance(env, envs.VectorEnv)
             else experiments.train_agent_with_evaluation)
    train(agent=agent, env=env, steps=args.steps, eval_n_steps=None, eval_n_episodes=args.eval_n_runs,
          eval_interval=args.eval_interval, outdir=outdir, eval_env=eval_env, step_hooks=step_hooks,
          evaluation_hooks=(PrintEvaluation(),))


def train_or_demo(args: argparse.Namespace, make_env: Callable[[bool], Any],
                  build_agent: Callable[[argparse.Namespace, Any], Any], step_hooks: tuple = ()) -> None:
    """A script's run: :func:`run` of the agent of :func:`load_agent` (``build_agent(args, env)``
    unless one is loaded) in ``env = make_env(False)``, evaluated in ``make_env(True)``; both envs
    are closed at the end (a vector env's worker processes with it)."""
    env, eval_env = make_env(False), make_env(True)
    try:
        agent = load_agent(args, lambda: build_agent(args, env))
        run(args, agent, env, eval_env, step_hooks=step_hooks)
    finally:
        env.close()
        eval_env.close()
