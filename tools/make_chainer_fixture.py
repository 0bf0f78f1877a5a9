"""Write the Chainer 7.8.1 serializer fixture used by tests/core/serializers/test_chainer_fixture.py.

Run ``python tools/make_chainer_fixture.py``. It creates (once) a Python 3.11 virtual environment with
Chainer 7.8.1 under the cache directory (``$KUSARI_HOME/chainer-7.8.1-venv``, default ``~/.kusari``),
then runs a script in it that trains a small fixed-seed model for two Adam steps and writes

- ``model.npz``: the model saved by ``chainer.serializers.save_npz``;
- ``optimizer.npz``: the Adam optimizer after two steps;
- ``model_step3.npz``: the model after a third Adam step on the same loss;
- ``expected.npz``: the inputs ``x`` and ``ids``, the model's test-mode output ``y`` after two steps,
  and ``y_step3``: the test-mode output after one more Adam step on the same loss.

into ``tests/core/serializers/fixtures/`` (or the directory given as the first argument).
"""
import os
import pathlib
import subprocess
import sys

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
    subprocess.run([str(_venv_python()), "-c", CHAINER_SCRIPT, str(out)], check=True)


if __name__ == "__main__":
    main()
