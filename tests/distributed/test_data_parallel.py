"""Data parallelism on two ranks: the multi-node optimizer under a Trainer equals one process on the
global batch (1e-6) with bit-identical ranks; evaluators, scatter_dataset and the iterators."""


def test_data_parallel_training_evaluation_datasets_iterators(mpi):
    mpi.run_ok("w_data_parallel.py")
