"""MLP 16-16-16-4 at batch 1, one SGD train step with the model's forward under ``static_graph`` (Chainer's
pattern: trace the forward once, then replay it; the loss, backward and update run eagerly). PyTorch has no
counterpart and runs eagerly."""
from bench.workloads import _mlp
from bench.workloads._api import ChainerAPI, chainer_train_step

DESCRIPTION = "MLP 16-16-16-4, batch 1, SGD train step, static_graph forward (torch: eager)"
OPS_PER_STEP = 1
PARAMS = {"batch": 1}
SIZES = (16, 16, 16, 4)


def _chainer_style(api: ChainerAPI, batch):
    class StaticMLP(api.core.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.layers = _mlp.chainer_mlp(api, SIZES)

        @api.core.static_graph
        def forward(self, x):
            return self.layers(x)

    model = StaticMLP()
    optimizer = api.optimizers.SGD(lr=_mlp.LEARNING_RATE)
    optimizer.setup(model)
    return chainer_train_step(api, model, optimizer, api.normal(batch, SIZES[0]), api.labels(SIZES[-1], batch))


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    return _mlp.torch_step(SIZES, batch)
