"""Write the ChainerRL 0.8.0 parity fixtures of SARSA and ResidualDQN (agents PFRL dropped).

Run ``python tools/make_chainerrl_fixture.py [OUT_DIR] [--python PEER_PYTHON]``. The peer is ChainerRL
0.8.0 on Chainer 7.8.1, in the benchmarks' ``chainer`` virtual environment (``bench.environments.ensure``,
built once under ``$KUSARI_BENCH_CACHE``, default ``~/.cache/kusari-bench``) or the interpreter given with
``--python``. ChainerRL is not part of that recipe; add it once, without letting pip move NumPy 1.23.5::

    ENV=~/.cache/kusari-bench/envs/chainer/bin
    $ENV/pip install --no-deps chainerrl==0.8.0 cached-property future scipy==1.11.4 \\
        gym==0.22.0 cloudpickle gym-notices pillow

(``import chainerrl`` imports gym's ``Monitor``, which gym dropped after 0.22, and SciPy.) A script run
there builds a Q-function ``SingleModelStateQFunctionWithDiscreteAction(Net())`` (``Net``: ``l1 =
Linear(3, 8)``, ReLU, ``l2 = Linear(8, 2)``) on seeded parameters (seed 60), and writes into
``tests/rl/fixtures/chainerrl/`` (or OUT_DIR):

- ``sarsa.npz``: ``SARSA`` (Huber loss, ``batch_accumulator='mean'``, SGD lr 0.1, gamma 0.9, ``t = 11``)
  with a target network that differs from the model, after three ``agent.update(experiences,
  errors_out)`` on the recorded minibatches ``experiences[6k:6k+6]`` (18 experiences of 1 to 3 steps).
  Its explorer is epsilon-greedy (0.5) on recorded draws: the k-th call takes ``random_action[k]`` when
  ``coin[k] < 0.5``, else the greedy action it was given; ``explorer_t`` and ``explorer_greedy`` (18,) are
  what ChainerRL passed it;
- ``residual_dqn.npz``: ``ResidualDQN`` (``grad_scale=0.5``) on the same data and initial model.

Each holds ``init/<name>`` (and ``init_target/<name>`` for SARSA), with Chainer's parameter names
(``model/l1/W``, ...), the experiences as flat arrays (``state``, ``action``, ``reward``, ``next_state``,
``is_state_terminal``, ``exp_len``), ``after/<name>`` (3, ...) the parameters after each update and
``errors`` (3, 6) the TD errors each update reported.
"""
import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "rl" / "fixtures" / "chainerrl"

PEER_SCRIPT = r'''
import sys
from importlib.metadata import version

import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
from chainerrl import replay_buffers
from chainerrl.agents import SARSA, ResidualDQN
from chainerrl.q_functions import SingleModelStateQFunctionWithDiscreteAction

assert version("chainerrl") == "0.8.0" and chainer.__version__ == "7.8.1", version("chainerrl")
out = sys.argv[1]
rng = np.random.RandomState(60)
OBS, HIDDEN, GAMMA, BATCH, N_UPDATES, EPSILON = 3, 8, 0.9, 6, 3, 0.5


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(OBS, HIDDEN)
            self.l2 = L.Linear(HIDDEN, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def draw_params(q):
    return {name.lstrip("/"): (rng.uniform(-1, 1, p.shape) / np.sqrt(p.shape[1]) if p.ndim == 2
                               else rng.uniform(-0.1, 0.1, p.shape)).astype(np.float32)
            for name, p in sorted(q.namedparams())}


def load(q, params):
    for name, p in q.namedparams():
        p.array[...] = params[name.lstrip("/")]


def export(prefix, q):
    return {f"{prefix}/{name.lstrip('/')}": p.array.copy() for name, p in q.namedparams()}


class RecordedEpsilonGreedy:
    """Epsilon-greedy on recorded draws; keeps the steps and greedy actions it was given."""

    def __init__(self, coin, random_action):
        self.coin, self.random_action, self.t, self.greedy = coin, random_action, [], []

    def select_action(self, t, greedy_action_func, action_value=None):
        k = len(self.greedy)
        self.t.append(t)
        self.greedy.append(int(greedy_action_func()))
        return int(self.random_action[k]) if self.coin[k] < EPSILON else self.greedy[-1]


q = SingleModelStateQFunctionWithDiscreteAction(Net())
q(np.zeros((1, OBS), np.float32))
init = draw_params(q)
target = {name: v + rng.normal(0, 0.3, v.shape).astype(np.float32) for name, v in init.items()}
lengths = [1, 2, 3, 3, 2, 1] * N_UPDATES
terminal = [False, True, False, True, False, False] * N_UPDATES
arrays = {k: [] for k in ("state", "action", "reward", "next_state", "is_state_terminal")}
for n, term in zip(lengths, terminal):
    obs = rng.uniform(-1, 1, (n + 1, OBS)).astype(np.float32)
    arrays["state"].extend(obs[:-1])
    arrays["next_state"].extend(obs[1:])
    arrays["action"].extend(rng.randint(0, 2, n))
    arrays["reward"].extend(rng.uniform(-3, 3, n).astype(np.float32))
    arrays["is_state_terminal"].extend([False] * (n - 1) + [term])
arrays = {k: np.asarray(v) for k, v in arrays.items()}
arrays["exp_len"] = np.asarray(lengths, np.int64)
experiences, k = [], 0
for n in lengths:
    experiences.append([dict(state=arrays["state"][k + i], action=int(arrays["action"][k + i]),
                             reward=float(arrays["reward"][k + i]), next_state=arrays["next_state"][k + i],
                             next_action=None, is_state_terminal=bool(arrays["is_state_terminal"][k + i]))
                        for i in range(n)])
    k += n
coin = rng.uniform(0, 1, len(lengths))
random_action = rng.randint(0, 2, len(lengths))


def run(cls, name, **kwargs):
    model = SingleModelStateQFunctionWithDiscreteAction(Net())
    model(np.zeros((1, OBS), np.float32))
    load(model, init)
    explorer = RecordedEpsilonGreedy(coin, random_action)
    agent = cls(model, chainer.optimizers.SGD(lr=0.1).setup(model), replay_buffers.ReplayBuffer(100), GAMMA,
                explorer, replay_start_size=BATCH, minibatch_size=BATCH, target_update_interval=100,
                clip_delta=True, batch_accumulator="mean", **kwargs)
    fixture = dict(export("init", model), **arrays, gamma=GAMMA)
    if cls is SARSA:
        load(agent.target_model, target)
        fixture.update(export("init_target", agent.target_model), epsilon=EPSILON, coin=coin,
                       random_action=random_action, t=11)
        agent.t = 11
    history, errors = [], []
    for k in range(N_UPDATES):
        errors_out = []
        agent.update(experiences[k * BATCH:(k + 1) * BATCH], errors_out=errors_out)
        history.append(export("after", model))
        errors.append(np.asarray(errors_out, np.float32))
    fixture.update({key: np.stack([h[key] for h in history]) for key in history[0]}, errors=np.stack(errors),
                   **{key: float(value) for key, value in kwargs.items()})
    if cls is SARSA:
        fixture.update(explorer_t=np.asarray(explorer.t), explorer_greedy=np.asarray(explorer.greedy))
    np.savez(out + f"/{name}.npz", **fixture)


run(SARSA, "sarsa")
run(ResidualDQN, "residual_dqn", grad_scale=0.5)
print("chainerrl", version("chainerrl"), "chainer", chainer.__version__, "wrote", out)
'''


def _peer_python(python: str | None) -> str:
    """The interpreter with ChainerRL 0.8.0: ``python`` if given, else the bench's ``chainer`` venv."""
    if python is not None:
        return python
    sys.path.insert(0, str(ROOT))
    from bench.environments import ensure

    return ensure("chainer")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=pathlib.Path, default=DEFAULT_OUT,
                        help="output directory (default: tests/rl/fixtures/chainerrl)")
    parser.add_argument("--python", help="an interpreter that already has chainerrl==0.8.0 on chainer==7.8.1")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    python = _peer_python(args.python)
    probe = subprocess.run([python, "-c", "import chainerrl"], capture_output=True, text=True)
    if probe.returncode != 0:
        sys.exit(f"make_chainerrl_fixture: {python} cannot import chainerrl "
                 f"({probe.stderr.strip().splitlines()[-1]}); install it as this script's docstring says")
    # gym warns at import; the fixtures do not depend on it
    subprocess.run([python, "-W", "ignore", "-c", PEER_SCRIPT, str(args.out)], check=True)


if __name__ == "__main__":
    main()
