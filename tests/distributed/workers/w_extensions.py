"""Worker: per-rank checkpoints, AllreducePersistent, ObservationAggregator and the multi-node
early-stopping trigger (run by test_extensions). argv: out directory, mode ('run' or 'other_size')."""
import sys

import numpy as np

import kusari.distributed as chainermn
import kusari.links as L
from kusari import optimizers, training
from kusari.iterators import SerialIterator

from _common import MLP, params_of, toy_dataset


def trainer_for(comm, out, stop):
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(optimizers.MomentumSGD(lr=0.05), comm).setup(model)
    shard = chainermn.scatter_dataset(toy_dataset(n=32) if comm.rank == 0 else None, comm, shuffle=True, seed=1)
    updater = training.StandardUpdater(SerialIterator(shard, 4), optimizer)
    return training.Trainer(updater, stop, out=out), model


def main(out, mode):
    comm = chainermn.create_communicator("naive")
    r = comm.rank
    if mode == "other_size":
        trainer, _ = trainer_for(comm, out, (6, "iteration"))
        checkpointer = chainermn.create_multi_node_checkpointer("cp", comm)
        try:
            checkpointer.maybe_load(trainer)
            raise AssertionError("a checkpoint of 2 ranks was loaded on 1")
        except ValueError as e:
            assert "jobs of [2] ranks" in str(e), e
        print("w_extensions.py ok", flush=True)
        return

    # --- per-rank checkpoints: resume from the newest iteration every rank has
    trainer, model = trainer_for(comm, out, (6, "iteration"))
    checkpointer = chainermn.create_multi_node_checkpointer("cp", comm, cp_interval=2, gc_interval=1)
    trainer.extend(checkpointer, trigger=(2, "iteration"))
    trainer.run()
    assert checkpointer.get_stats()["count"] == 3
    finished = params_of(model)
    resumed, model2 = trainer_for(comm, out, (6, "iteration"))
    assert chainermn.create_multi_node_checkpointer("cp", comm).maybe_load(resumed) == 6
    assert resumed.updater.iteration == 6
    for name, value in params_of(model2).items():
        np.testing.assert_array_equal(value, finished[name])
    empty, _ = trainer_for(comm, out, (6, "iteration"))
    assert chainermn.create_multi_node_checkpointer("none", comm).maybe_load(empty) is None

    # --- AllreducePersistent: BatchNormalization statistics averaged over ranks
    bn = L.BatchNormalization(3)
    bn.avg_mean[...] = r + 1.0
    bn.N = 7 + r
    chainermn.extensions.AllreducePersistent(bn, comm)()
    np.testing.assert_array_equal(bn.avg_mean, np.full(3, 1.5, np.float32))
    assert bn.N == 7 + r   # integers are left alone

    # --- ObservationAggregator and the early-stopping trigger, on a fake trainer
    class Fake:
        def __init__(self):
            self.observation = {}
            self.updater = type("U", (), {"iteration": 0, "epoch": 0, "epoch_detail": 0.0,
                                          "previous_epoch_detail": None, "is_new_epoch": False})()

    fake = Fake()
    aggregator = chainermn.extensions.ObservationAggregator(comm, "loss", "loss_mean", comm_trigger=(2, "iteration"))
    for it in (1, 2):
        fake.updater.iteration = it
        fake.observation = {"loss": float(10 * r + it)}
        aggregator(fake)
    assert fake.observation["loss_mean"] == (1 + 2 + 11 + 12) / 4, fake.observation

    trigger = chainermn.extensions.MultiNodeEarlyStoppingTrigger(
        comm, check_trigger=(1, "iteration"), monitor="loss", patience=2, max_trigger=(100, "iteration"))
    # rank 0's loss keeps falling (alone it would never stop), rank 1's rises faster: the mean is best at
    # iteration 1 and worse at 2 and 3, so with patience 2 every rank stops at iteration 3
    stops = []
    for it in range(1, 8):
        fake.updater.iteration = it
        fake.observation = {"loss": 10.0 - it if r == 0 else 10.0 + 3 * it}
        stops.append(trigger(fake))
    assert comm.allgather_obj(stops)[0] == stops and stops.index(True) == 2, stops
    print("w_extensions.py ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
