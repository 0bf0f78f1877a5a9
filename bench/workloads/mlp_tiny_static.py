"""MLP 16-16-16-4 at batch 1, one SGD train step under ``static_graph`` (trace once, then replay).

kusari decorates the whole step (forward, loss, cleargrads, backward, update), which its ``static_graph``
replays as one schedule. Chainer's ``static_graph`` cannot hold backward or the update, so Chainer decorates the
model's forward, its documented use. PyTorch has no counterpart and runs eagerly: the baseline the issue's
static-graph goal is set against. ``mlp_tiny_static_forward`` times kusari with Chainer's pattern.
"""
from bench.workloads import _mlp
from bench.workloads._api import ChainerAPI
from bench.workloads.mlp_tiny_static_forward import SIZES, setup_chainer, setup_torch  # noqa: F401

DESCRIPTION = "MLP 16-16-16-4, batch 1, SGD train step, static_graph (kusari: whole step; Chainer: forward)"
OPS_PER_STEP = 1
PARAMS = {"batch": 1}


def setup_kusari(batch):
    api = ChainerAPI("kusari")
    model = _mlp.chainer_mlp(api, SIZES)
    optimizer = api.optimizers.SGD(lr=_mlp.LEARNING_RATE)
    optimizer.setup(model)
    x, t = api.normal(batch, SIZES[0]), api.labels(SIZES[-1], batch)

    @api.core.static_graph
    def step(x, t):
        loss = api.F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()

    return lambda: step(x, t)
