"""Model parallelism on two ranks: MultiNodeChainList training equals one process (1e-6); send, recv,
pseudo_connect and the collectives have their adjoint gradients; MultiNodeBatchNormalization equals
BatchNormalization on the concatenated batch (forward, gradients, running statistics)."""


def test_model_parallel_functions_and_multi_node_batch_normalization(mpi):
    mpi.run_ok("w_model_parallel.py")
