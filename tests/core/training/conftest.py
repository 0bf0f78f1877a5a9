"""Shared fixtures of the training tests: a fake updater/trainer pair for triggers and extensions."""
import numpy
import pytest

from kusari import reporter as reporter_module


class FakeUpdater:
    """An updater whose position advances by ``iters_per_epoch`` iterations per epoch, with no model."""

    def __init__(self, iters_per_epoch=4):
        self.iters_per_epoch = iters_per_epoch
        self.iteration = 0
        self.previous_epoch_detail = None

    @property
    def epoch_detail(self):
        return self.iteration / self.iters_per_epoch

    @property
    def epoch(self):
        return self.iteration // self.iters_per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and self.iteration % self.iters_per_epoch == 0

    def step(self):
        self.previous_epoch_detail = self.epoch_detail
        self.iteration += 1

    def get_all_optimizers(self):
        return {}


class FakeTrainer:
    """Just what triggers and reporting extensions read: updater, observation, out, elapsed_time, reporter."""

    def __init__(self, iters_per_epoch=4, out=None):
        self.updater = FakeUpdater(iters_per_epoch)
        self.observation = {}
        self.out = out
        self.elapsed_time = 0.0
        self.reporter = reporter_module.Reporter()

    def step(self, **observation):
        """Advance one iteration with ``observation`` as this iteration's reports."""
        self.updater.step()
        self.observation = dict(observation)
        self.elapsed_time += 1.0


@pytest.fixture
def fake_trainer(tmp_path):
    """A FakeTrainer with 4 iterations per epoch writing into a temporary directory."""
    return FakeTrainer(iters_per_epoch=4, out=str(tmp_path))


@pytest.fixture
def make_fake_trainer(tmp_path):
    """Factory ``make_fake_trainer(iters_per_epoch)`` of FakeTrainers writing into a temporary directory."""
    return lambda iters_per_epoch=4: FakeTrainer(iters_per_epoch, out=str(tmp_path))


class DictStore:
    """A minimal serializer pair over one flat dict (so trigger tests need no file format)."""

    def __init__(self, data=None, path="", is_loading=False):
        self.data = {} if data is None else data
        self.path = path
        self.is_loading = is_loading

    def __getitem__(self, key):
        return DictStore(self.data, self.path + key + "/", self.is_loading)

    def __call__(self, key, value):
        if self.is_loading:
            stored = self.data[self.path + key]
            if isinstance(value, numpy.ndarray):
                value[...] = stored
                return value
            return stored if value is None else type(value)(stored)
        self.data[self.path + key] = numpy.array(value) if isinstance(value, numpy.ndarray) else value
        return value


def roundtrip(src, dst):
    """Serialize ``src`` and load the result into ``dst`` through DictStore."""
    store = DictStore()
    src.serialize(store)
    dst.serialize(DictStore(store.data, is_loading=True))
    return dst


@pytest.fixture
def store_roundtrip():
    return roundtrip


def _make_classification(n=32, seed=0):
    """A linearly separable 2-class problem in 3 dimensions (float32 x, int32 t)."""
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, 3).astype(numpy.float32)
    t = (x @ numpy.array([1.0, -2.0, 0.5], numpy.float32) > 0).astype(numpy.int32)
    return x, t


@pytest.fixture
def make_setup(tmp_path):
    """Factory of a real (model, optimizer, updater) on a tiny classification set, iterator batch 8."""
    from kusari import datasets, iterators, links as L, optimizers
    from kusari.training import StandardUpdater

    def make(n=32, batch_size=8, shuffle=False, seed=0, lr=0.1, **updater_kwargs):
        x, t = _make_classification(n, seed)
        model = L.Classifier(L.Linear(3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))
        optimizer = optimizers.SGD(lr=lr).setup(model)
        it = iterators.SerialIterator(datasets.TupleDataset(x, t), batch_size, repeat=True, shuffle=shuffle,
                                      order_sampler=None)
        return model, optimizer, StandardUpdater(it, optimizer, **updater_kwargs)

    return make
