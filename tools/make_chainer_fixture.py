"""Write the Chainer 7.8.1 serializer fixture used by tests/core/serializers/test_chainer_fixture.py.

Run ``python tools/make_chainer_fixture.py``. It creates (once) a Python 3.11 virtual environment with
Chainer 7.8.1 under the cache directory (``$KUSARI_HOME/chainer-7.8.1-venv``, default ``~/.kusari``),
then runs a script in it that trains a small fixed-seed model for two Adam steps and writes

- ``model.npz``: the model saved by ``chainer.serializers.save_npz``;
- ``optimizer.npz``: the Adam optimizer after two steps;
- ``model_step3.npz``: the model after a third Adam step on the same loss;
- ``expected.npz``: the inputs ``x`` and ``ids``, the model's test-mode output ``y`` after two steps,
  and ``y_step3``: the test-mode output after one more Adam step on the same loss;
- ``none_entries.npz``: a chain holding None values, saved by Chainer: ``lazy`` (``L.Linear(None, 3)``,
  its ``W`` never initialized, ``b`` set to [1.5, -2, 3]), ``fc`` (``L.Linear(2, 2)``, seed 0) and
  ``scaler`` (a link with the persistents ``mean`` = [7, 8] and ``indices`` = None);
- ``chainer_read_kusari.npz``: what Chainer saw when it loaded kusari's re-save of ``none_entries.npz``
  (kusari's ``load_npz`` then ``save_npz``, run with the repository's ``.venv`` Python) into a fresh
  chain (seed 1, ``scaler.indices`` = arange(3)): ``lazy_W_is_none``, ``indices_is_none``,
  ``lazy_b``, ``fc_W``, ``fc_b``, ``mean``

into ``tests/core/serializers/fixtures/`` (or the directory given as the first argument).
"""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "core" / "serializers" / "fixtures"

CHAINER_SCRIPT = r'''
import sys
import numpy as np
import chainer
import chainer.functions as F
import chainer.links as L

out = sys.argv[1]


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            # no bias before BatchNormalization: its gradient is zero up to rounding, which Adam
            # would amplify into an arbitrary +-alpha step and make step-3 outputs incomparable
            self.conv = L.Convolution2D(1, 2, ksize=3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(2)
            self.embed = L.EmbedID(10, 4)
            self.fc = L.Linear(2 * 4 * 4 + 4, 3)

    def forward(self, x, ids):
        h = F.relu(self.bn(self.conv(x)))
        h = F.reshape(h, (x.shape[0], -1))
        e = F.sum(self.embed(ids), axis=1)
        return self.fc(F.concat([h, e], axis=1))


def loss_fn(model, x, ids):
    y = model(x, ids)
    return F.sum(y * y) / y.shape[0]


np.random.seed(0)
model = Net()
x = np.random.uniform(-1, 1, (2, 1, 4, 4)).astype(np.float32)
ids = np.array([[1, 2, 3], [4, 5, 9]], dtype=np.int32)
model(x, ids)  # initialize lazily shaped parameters, if any
opt = chainer.optimizers.Adam(alpha=0.01)
opt.setup(model)
for _ in range(2):
    opt.update(loss_fn, model, x, ids)
with chainer.using_config("train", False):
    y = model(x, ids).array
chainer.serializers.save_npz(out + "/model.npz", model)
chainer.serializers.save_npz(out + "/optimizer.npz", opt)
opt.update(loss_fn, model, x, ids)
chainer.serializers.save_npz(out + "/model_step3.npz", model)
with chainer.using_config("train", False):
    y3 = model(x, ids).array
np.savez(out + "/expected.npz", x=x, ids=ids, y=y, y_step3=y3)
print("chainer", chainer.__version__, "wrote", out)
'''

NONE_NET = r'''
class Scaler(chainer.Link):
    def __init__(self):
        super().__init__()
        self.add_persistent("mean", np.zeros(2, np.float32))
        self.add_persistent("indices", None)  # a persistent never fit


class NoneNet(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.lazy = L.Linear(None, 3)  # W stays uninitialized: no forward pass is run
            self.fc = L.Linear(2, 2)
            self.scaler = Scaler()
'''

CHAINER_NONE_SCRIPT = r'''
import sys
import numpy as np
import chainer
import chainer.links as L
''' + NONE_NET + r'''
mode, out = sys.argv[1], sys.argv[2]
if mode == "write":
    np.random.seed(0)
    net = NoneNet()
    net.lazy.b.array[...] = [1.5, -2, 3]
    net.scaler.mean[...] = [7, 8]
    chainer.serializers.save_npz(out + "/none_entries.npz", net)
else:
    np.random.seed(1)
    net = NoneNet()
    net.scaler.indices = np.arange(3)
    chainer.serializers.load_npz(sys.argv[3], net)
    np.savez(out + "/chainer_read_kusari.npz", lazy_W_is_none=net.lazy.W.array is None,
             indices_is_none=net.scaler.indices is None, lazy_b=net.lazy.b.array,
             fc_W=net.fc.W.array, fc_b=net.fc.b.array, mean=net.scaler.mean)
print("chainer", chainer.__version__, mode, out)
'''

# kusari's side, run with the repository's .venv: the same chain, loaded from Chainer's file and saved again
KUSARI_NONE_SCRIPT = r'''
import sys
import numpy as np
import kusari as chainer
import kusari.links as L
''' + NONE_NET + r'''
net = NoneNet()
chainer.serializers.load_npz(sys.argv[1], net)
assert net.lazy.W.array is None and net.scaler.indices is None
chainer.serializers.save_npz(sys.argv[2], net)
'''


def _venv_python() -> pathlib.Path:
    home = pathlib.Path(os.environ.get("KUSARI_HOME", pathlib.Path.home() / ".kusari"))
    env_dir = home / "chainer-7.8.1-venv"
    python = env_dir / "bin" / "python"
    if not python.exists():
        interpreter = "python3.11"
        subprocess.run([interpreter, "-m", "venv", str(env_dir)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q"]
        subprocess.run(pip + ["setuptools<70", "wheel", "numpy==1.23.5"], check=True)
        subprocess.run(pip + ["--no-build-isolation", "chainer==7.8.1"], check=True)
    return python


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0]) if argv else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    chainer_python = str(_venv_python())
    subprocess.run([chainer_python, "-c", CHAINER_SCRIPT, str(out)], check=True)
    subprocess.run([chainer_python, "-c", CHAINER_NONE_SCRIPT, "write", str(out)], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        kusari_file = os.path.join(tmp, "kusari_none.npz")
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", KUSARI_NONE_SCRIPT,
                        str(out / "none_entries.npz"), kusari_file], check=True)
        subprocess.run([chainer_python, "-c", CHAINER_NONE_SCRIPT, "read", str(out), kusari_file], check=True)


if __name__ == "__main__":
    main()
