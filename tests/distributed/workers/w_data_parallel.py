"""Worker: data-parallel training under StandardUpdater/Trainer equals one process on the global batch,
the ranks stay bit-identical, evaluators, datasets and iterators (run by test_data_parallel)."""
import tempfile

import numpy as np

import kusari.distributed as chainermn
import kusari.links as L
from kusari.dataset import concat_examples
from kusari import optimizer_hooks, optimizers, training
from kusari.iterators import SerialIterator, ShuffleOrderSampler
from kusari.training import extensions

from _common import MLP, params_of, toy_dataset

comm = chainermn.create_communicator("flat")
r, n = comm.rank, comm.size
GLOBAL_BATCH, STEPS, SEED = 8, 20, 3
dataset = toy_dataset()

# --- 1. two ranks of momentum SGD under a Trainer == one process on the global batch
model = L.Classifier(MLP())
actual = optimizers.MomentumSGD(lr=0.1)
optimizer = chainermn.create_multi_node_optimizer(actual, comm)
optimizer.setup(model)
optimizer.add_hook(optimizer_hooks.WeightDecay(1e-3))
optimizer.lr = 0.05   # reaches the wrapped optimizer
assert actual.lr == 0.05 and optimizer.lr == 0.05
it = chainermn.iterators.GlobalOrderIterator(dataset, GLOBAL_BATCH, comm, seed=SEED)
assert it.batch_size == GLOBAL_BATCH // n
updater = training.StandardUpdater(it, optimizer)
with tempfile.TemporaryDirectory() as out:
    training.Trainer(updater, (STEPS, "iteration"), out=out).run()
assert actual.t == STEPS and optimizer.t == STEPS, (actual.t, optimizer.t)

reference = L.Classifier(MLP())
ref_opt = optimizers.MomentumSGD(lr=0.05)
ref_opt.setup(reference)
ref_opt.add_hook(optimizer_hooks.WeightDecay(1e-3))
ref_it = SerialIterator(dataset, GLOBAL_BATCH, order_sampler=ShuffleOrderSampler(np.random.RandomState(SEED)))
ref_updater = training.StandardUpdater(ref_it, ref_opt)
for _ in range(STEPS):
    ref_updater.update()
mine, ref = params_of(model), params_of(reference)
worst = max(float(np.abs(mine[k] - ref[k]).max()) for k in mine)
assert worst < 1e-6, f"2-rank training differs from one process by {worst}"
everyone = comm.allgather_obj(mine)
for k in mine:
    assert np.array_equal(everyone[0][k], everyone[1][k]), f"ranks differ in {k}"

# --- 2. rank 1 starts from other values: the first step takes rank 0's and is skipped, then in step
model2 = L.Classifier(MLP(seed=r))
opt2 = chainermn.create_multi_node_optimizer(optimizers.SGD(lr=0.1), comm).setup(model2)
x, t = concat_examples(dataset[:4])
opt2.update(model2, x + r, t)
assert opt2.t == 0
np.testing.assert_array_equal(model2.predictor.l1.W.array, MLP(seed=0).l1.W.array)
opt2.update(model2, x + r, t)
assert opt2.t == 1
assert all(np.array_equal(a, b) for a, b in zip(*[list(p.values()) for p in comm.allgather_obj(params_of(model2))]))

# --- 3. the multi-node evaluator over the ranks' shards == one process over the whole test set
test = toy_dataset(n=32, seed=1)
shard = chainermn.scatter_dataset(test if r == 0 else None, comm, shuffle=True, seed=0)
assert len(shard) == 16
covered = comm.allgather_obj([float(ex[0][0]) for ex in shard])
assert sorted(sum(covered, [])) == sorted(float(ex[0][0]) for ex in test)
evaluator = chainermn.create_multi_node_evaluator(
    extensions.Evaluator(SerialIterator(shard, 4, repeat=False, shuffle=False), model), comm)
result = evaluator()
whole = extensions.Evaluator(SerialIterator(test, 4, repeat=False, shuffle=False), model)()
assert set(result) == set(whole) == {"main/loss", "main/accuracy"}, result
for key in whole:
    assert abs(float(result[key]) - float(whole[key])) < 1e-6, (key, result[key], whole[key])


class CountCorrect(chainermn.GenericMultiNodeEvaluator):
    def calc_local(self, x, t):
        return int((model.predictor(x).array.argmax(axis=1) == t).sum()), len(t)

    def aggregate(self, results):
        return sum(c for c, _ in results) / sum(m for _, m in results)


accuracy = CountCorrect(comm, SerialIterator(shard, 4, repeat=False, shuffle=False), model)()
if r == 0:
    assert abs(accuracy - float(whole["main/accuracy"])) < 1e-6, accuracy
else:
    assert accuracy is None

# --- 4. datasets and iterators
for equal in (True, False):
    part = chainermn.scatter_dataset(list(range(7)) if r == 0 else None, comm, force_equal_length=equal)
    parts = comm.allgather_obj(part)
    assert parts == ([[0, 1, 2, 3], [3, 4, 5, 6]] if equal else [[0, 1, 2], [3, 4, 5, 6]]), parts
    expected = [(0, 4), (3, 7)] if equal else [(0, 3), (3, 7)]
    assert chainermn.scatter_index(7, comm, force_equal_length=equal) == expected[r]
try:
    chainermn.scatter_dataset([] if r == 0 else None, comm)
    raise AssertionError("scatter_dataset of an empty dataset did not raise")
except chainermn.DataSizeError as e:
    assert "empty" in str(e) and f"rank {r}" in str(e)
assert chainermn.create_empty_dataset(dataset) == [()] * len(dataset)

source = SerialIterator(list(range(10)), 3, repeat=False) if r == 0 else None
batches = list(chainermn.iterators.create_multi_node_iterator(source, comm))
assert comm.allgather_obj(batches)[0] == batches and sum(map(len, batches)) == 10
synced = chainermn.iterators.create_synchronized_iterator(SerialIterator(list(range(50)), 50), comm)
first = synced.next()
assert comm.allgather_obj(first)[1] == first and first != list(range(50))
print("w_data_parallel.py ok", flush=True)
