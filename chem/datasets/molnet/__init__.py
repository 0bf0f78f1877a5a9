"""kusari.chem.datasets.molnet (Chainer Chemistry's chainer_chemistry.datasets.molnet): MoleculeNet."""
from kusari.chem.datasets.molnet import chembl_tasks  # NOQA
from kusari.chem.datasets.molnet import molnet  # NOQA
from kusari.chem.datasets.molnet import molnet_config  # NOQA
from kusari.chem.datasets.molnet import pdbbind_time  # NOQA
from kusari.chem.datasets.molnet import toxcast_tasks  # NOQA

from kusari.chem.datasets.molnet.molnet import get_grid_featurized_pdbbind_dataset  # NOQA
from kusari.chem.datasets.molnet.molnet import get_molnet_dataframe  # NOQA
from kusari.chem.datasets.molnet.molnet import get_molnet_dataset  # NOQA
from kusari.chem.datasets.molnet.molnet import get_molnet_filepath  # NOQA
from kusari.chem.datasets.molnet.molnet_config import molnet_default_config  # NOQA
