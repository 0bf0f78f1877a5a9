"""What the Atari training scripts share: the parent folder's ``_common`` (arguments, loading, the
run), DeepMind-wrapped ALE environments, and the pixels-to-[0, 1] feature extractor."""
import functools
import os
import sys

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import _common  # noqa: E402

from kusari.rl import envs, wrappers  # noqa: E402
from kusari.rl.wrappers import atari_wrappers  # noqa: E402

_MAX_FRAMES = 30 * 60 * 60  # 30 minutes of play at 60 frames per second


def build_parser(description: str, steps: int, eval_interval: int, zoo_name: str,
                 eval_epsilon: float | None = None, num_envs: int | None = None):
    """``_common.build_parser`` with ``ALE/Pong-v5`` as the env, and ``--max-frames`` (and
    ``--eval-epsilon`` for the value-based agents)."""
    parser = _common.build_parser(description, env="ALE/Pong-v5", steps=steps,
                                  eval_interval=eval_interval, zoo_name=zoo_name, num_envs=num_envs)
    parser.add_argument("--max-frames", type=int, default=_MAX_FRAMES,
                        help="emulator frames after which an episode is cut (4 per step)")
    if eval_epsilon is not None:
        parser.add_argument("--eval-epsilon", type=float, default=eval_epsilon,
                            help="probability of a random action while evaluating")
    return parser


def make_env(env_id: str, seed: int, max_frames: int, test: bool = False, eval_epsilon: float = 0.0,
             frame_stack: bool = True):
    """A seeded ``wrap_deepmind(make_atari(env_id))``.

    Training envs end an episode at each lost life and clip rewards; evaluation envs (``test``)
    play whole games for their real score, taking a random action with probability
    ``eval_epsilon`` (as PFRL's). ``make_atari``'s errors (an unknown id with its close names,
    ale-py missing) end the script with their message.
    """
    env_seed = seed + _common._TEST_SEED_OFFSET if test else seed
    try:
        env = atari_wrappers.make_atari(env_id, max_frames=max_frames)
    except (ImportError, ValueError) as e:
        sys.exit(f"error: {e}")
    env = atari_wrappers.wrap_deepmind(env, episode_life=not test, clip_rewards=not test,
                                       frame_stack=frame_stack)
    env.reset(seed=env_seed)
    env.action_space.seed(env_seed)
    if test and eval_epsilon > 0:
        # wrapped after the seeding: RandomizeAction.reset would seed a RandomState with the
        # evaluation seed, which is >= 2**32; its own generator comes from NumPy's seeded one
        env = wrappers.RandomizeAction(env, eval_epsilon)
    return env


def env_maker(args):
    """``test -> make_env(...)`` of ``args.env``, ``args.seed`` and ``args.max_frames``, evaluating
    with ``args.eval_epsilon`` (for ``_common.train_or_demo``)."""
    return lambda test: make_env(args.env, args.seed, args.max_frames, test, args.eval_epsilon)


def make_vector_env(args, test: bool = False) -> wrappers.VectorFrameStack:
    """``args.num_envs`` envs of :func:`make_env` (env ``i`` seeded ``seed * num_envs + i``), each
    in its own process, their last 4 frames stacked here (one frame per step between processes)."""
    make_atari_env = functools.partial(make_env, args.env, max_frames=args.max_frames, test=test,
                                       frame_stack=False)
    # an unknown id or missing ale-py is reported here, not from inside a worker
    make_atari_env(args.seed * args.num_envs).close()
    env = envs.MultiprocessVectorEnv([functools.partial(make_atari_env, args.seed * args.num_envs + i)
                                      for i in range(args.num_envs)])
    return wrappers.VectorFrameStack(env, 4, stack_axis=0)


def phi(x) -> numpy.ndarray:
    """Stacked uint8 frames (LazyFrames or an array) -> float32 in [0, 1]."""
    return numpy.asarray(x, dtype=numpy.float32) / 255
