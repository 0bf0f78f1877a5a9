"""Featurizing all of Lipophilicity (4,200 molecules): kusari.chem's GGNN preprocessing against chemprop's.

Each ``featurize_<framework>(data)`` reads the CSV file ``data`` and turns every molecule into its model's
input arrays the way its training pipeline does (:data:`METHOD`), and returns ``{"molecules": n,
"featurize_cpu_s": ...}``: the CPU seconds of that work alone (imports excluded).
"""
from __future__ import annotations

import time

SMILES_COLUMN = "smiles"
LABEL_COLUMN = "exp"
METHOD = {
    "kusari": "`CSVFileParser(GGNNPreprocessor())`: atom IDs and one adjacency matrix per bond type",
    "chainer-chemistry": "the same code as kusari's, on Chainer Chemistry 0.7.1 (`bench.chem.chainer_as_kusari`)",
    "kusari-dmpnn": "CSVFileParser with ChempropPreprocessor (chemprop's V2 atom and bond features), every molecule",
    "chemprop": "RDKit molecules from the SMILES (`MoleculeDatapoint.from_smi`) and the CLI's default featurizer "
                "(`make_dataset`: V2 multi-hot atom and bond features) cached for every molecule, as `chemprop "
                "train` does for its training and validation parts before the first epoch",
}


def featurize_kusari_dmpnn(data: str) -> dict:
    from kusari.chem.dataset.parsers import CSVFileParser
    from kusari.chem.dataset.preprocessors import ChempropPreprocessor

    started = time.process_time()
    dataset = CSVFileParser(ChempropPreprocessor(), labels=LABEL_COLUMN, smiles_col=SMILES_COLUMN).parse(data)["dataset"]
    return {"molecules": len(dataset), "featurize_cpu_s": time.process_time() - started}


def featurize_kusari(data: str) -> dict:
    from kusari.chem.dataset.parsers import CSVFileParser
    from kusari.chem.dataset.preprocessors import GGNNPreprocessor

    started = time.process_time()
    dataset = CSVFileParser(GGNNPreprocessor(), labels=LABEL_COLUMN, smiles_col=SMILES_COLUMN).parse(data)["dataset"]
    return {"molecules": len(dataset), "featurize_cpu_s": time.process_time() - started}


def featurize_chainer_chemistry(data: str) -> dict:
    from bench.chem import chainer_as_kusari

    chainer_as_kusari.install()
    return featurize_kusari(data)


def featurize_chemprop(data: str) -> dict:
    import pandas
    from chemprop.cli.utils.parsing import make_dataset
    from chemprop.data import MoleculeDatapoint

    started = time.process_time()
    frame = pandas.read_csv(data)
    points = [MoleculeDatapoint.from_smi(smiles, [label])
              for smiles, label in zip(frame[SMILES_COLUMN], frame[LABEL_COLUMN])]
    dataset = make_dataset(points)
    dataset.cache = True   # featurizes every molecule now, as chemprop train's cached datasets do
    return {"molecules": len(dataset), "featurize_cpu_s": time.process_time() - started}
