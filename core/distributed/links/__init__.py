"""Links across ranks: MultiNodeChainList (model parallelism), MultiNodeBatchNormalization."""
from kusari.distributed.links.batch_normalization import MultiNodeBatchNormalization  # NOQA
from kusari.distributed.links.create_mnbn_model import create_mnbn_model  # NOQA
from kusari.distributed.links.multi_node_chain_list import MultiNodeChainList  # NOQA
