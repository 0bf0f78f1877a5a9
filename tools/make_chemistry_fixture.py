"""Write the Chainer Chemistry 0.7.1 fixtures (data side and models) used by the tests under tests/chem/.

Run ``python tools/make_chemistry_fixture.py`` (with the repository's ``.venv`` Python). It runs, in the
benchmarks' ``chainer-chemistry`` virtual environment (``bench.environments.ensure``: Python 3.11 with NumPy
1.23.5, Chainer 7.8.1, RDKit 2026.3.6 and Chainer Chemistry 0.7.1 with its dependencies pinned by hand, built
once under ``$KUSARI_BENCH_CACHE``, default ``~/.cache/kusari-bench``), a script that writes, from a fixed
hand-written list of 16 SMILES and two float32 label columns drawn from a fixed seed:

- ``molecules.csv``: ``smiles,label_a,label_b``, the input every other fixture is built from;
- ``parsers.npz``: ``CSVFileParser(NFPPreprocessor(), labels=['label_a', 'label_b'])`` on ``molecules.csv``
  (``nfp/<i>/<k>``: the k-th array of dataset example i, ``labels``, ``smiles``, ``is_successful``) and
  ``SmilesParser(GGNNPreprocessor())`` on the same SMILES (``ggnn/...``);
- ``preprocessors.npz``: for every key of ``preprocess_method_dict`` (and ``nfp_max_atoms20``), the outputs
  of ``prepare_smiles_and_mol`` + ``get_input_features`` per parseable molecule (``<method>/<i>/<k>``), the
  canonical SMILES, the csv rows used and the rows skipped with the reason; sparse preprocessors also
  record their ``SparseGraphData`` attributes (``<method>/graph/<i>/<attr>``); ``skipped`` lists the
  preprocessors not run and why;
- ``splitters.npz``: the indices of the five splitters on a 40-row dataset, with each call's arguments;
- ``wle.npz``: ``apply_wle_for_datasets`` / ``apply_cwle_for_datasets`` / ``findmaxidx`` on three NFP datasets;
- ``numpy_tuple_dataset.npz``: ``NumpyTupleDataset.save`` of the ragged NFP dataset (object arrays, pickled
  by NumPy); ``numpy_tuple_dataset_padded.npz``: the same with ``out_size=32`` (no object arrays);
- ``models/<F>.model.npz`` and ``models/<F>.io.npz`` for each model fixture F (every family of
  ``chainer_chemistry.models`` in small configurations, the MPNN message/readout combinations, the
  GWM, CWLE and GWLE variants, and ``predictor`` from ``set_up_predictor('ggnn', ...)``): the model saved by
  ``chainer.serializers.save_npz`` after one forward, and its constructor arguments, inputs (four molecules of
  ``molecules.csv`` through the preprocessor and converter; for ``CGCNN``, three small hand-made crystal graphs
  through ``cgcnn_converter``), test-mode output and the gradients of ``sum(y * gy)`` (CGCNN also in train
  mode);
- ``models/links.npz``: the same per link of ``chainer_chemistry.links`` (readouts, updates, connections),
  with each link's serialized state; ``models/cgcnn_links.npz``: the same for ``CGCNNUpdate`` and
  ``CGCNNReadout`` on the crystal graphs; ``models/evaluators.npz``: the ROC AUC, PRC AUC and R2 evaluators on
  fixed predictions;
- ``saliency.npz``: the saliency calculators (gradient, gradient times input, integrated gradients, occlusion,
  SmoothGrad) on the atom embedding of the ``GGNN`` model fixture with a fixed Linear(4, 1) head, for three
  molecules, and ``aggregate`` with each method; under ``utils/``, ``extend_node`` / ``extend_adj`` /
  ``permute_node`` / ``permute_adj`` / ``convert_sparse_with_edge_type`` on fixed arrays;
- ``README.md``: what each file holds, the versions used and this command.

into ``tests/chem/fixtures/`` (or the directory given as the first argument). Every npz has fixed zip
timestamps, and the peer runs with OpenBLAS's Haswell kernels and without NumPy's AVX-512 loops (which round
some float32 results differently), so a re-run on any CPU with AVX2 rewrites identical bytes; those written by
the script itself (not by Chainer Chemistry or Chainer's ``save_npz``) also store a ``versions`` JSON entry.
"""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "chem" / "fixtures"
PEER_SCRIPT = r'''
import contextlib
import io
import inspect
import json
import os
import platform
import sys
import warnings
import zipfile

import numpy as np

# NumPy 1.23.5 warns on every numpy.int / ragged-array use inside Chainer Chemistry 0.7.1
warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=np.VisibleDeprecationWarning)

import chainer
import chainer.functions as F
import chainer_chemistry
import pandas
import rdkit
from rdkit import Chem, RDLogger
from chainer_chemistry import links as chem_links
from chainer_chemistry import models as chem_models
from chainer_chemistry.dataset.converters import converter_method_dict, megnet_converter
from chainer_chemistry.dataset.parsers import CSVFileParser, SmilesParser
from chainer_chemistry.dataset.preprocessors import (
    GGNNPreprocessor, MolFeatureExtractionError, NFPPreprocessor, preprocess_method_dict)
from chainer_chemistry.dataset.preprocessors.wle import (
    apply_cwle_for_datasets, apply_wle_for_datasets, findmaxidx)
from chainer_chemistry.dataset.splitters import (
    DeepChemScaffoldSplitter, RandomSplitter, ScaffoldSplitter, StratifiedSplitter, TimeSplitter)
from chainer_chemistry.datasets import NumpyTupleDataset
from chainer_chemistry.models.megnet import MEGNet  # not exported by chainer_chemistry.models
from chainer_chemistry.models.prediction import set_up_predictor
from chainer_chemistry.training.extensions import R2ScoreEvaluator, ROCAUCEvaluator
# not exported by chainer_chemistry.training.extensions
from chainer_chemistry.training.extensions.prc_auc_evaluator import PRCAUCEvaluator

RDLogger.DisableLog("rdApp.*")  # the unparsable SMILES is expected; its error log is noise here

OUT = sys.argv[1]

MOLECULES = [
    "CCO",                                          # ethanol
    "CC(=O)Oc1ccccc1C(=O)O",                        # aspirin
    "c1ccncc1",                                     # pyridine: aromatic heterocycle
    "[NH3+]CC(=O)[O-]",                             # glycine zwitterion: formal charges
    "C[C@@H](N)C(=O)O",                             # L-alanine: a stereocentre
    "CC(=O)[O-].[Na+]",                             # sodium acetate: a two-fragment salt
    "C1CCC",                                        # unclosed ring: RDKit cannot parse it
    "CCC(=C(c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1",  # tamoxifen: 28 heavy atoms, above max_atoms=20
    "Cn1cnc2c1c(=O)n(C)c(=O)n2C",                   # caffeine
    "c1ccsc1",                                      # thiophene
    "Clc1ccccc1",                                   # chlorobenzene
    "CC#N",                                         # acetonitrile: a triple bond
    "FC(F)(F)c1ccccc1",                             # trifluorotoluene
    "C/C=C/C",                                      # trans-2-butene: double-bond stereo
    "CN1CCC[C@H]1c1cccnc1",                         # nicotine
    "O=C(O)c1ccccc1O",                              # salicylic acid
]
# extra parseable molecules sharing scaffolds with the list above, for the scaffold splitters
SPLIT_EXTRA = [
    "Cc1ccccc1", "Oc1ccccc1", "Cc1ccncc1", "Nc1ccccc1", "CCc1ccsc1", "OCC(=O)O", "CCCO",
    "c1ccc2ccccc2c1", "C1CCCCC1", "CC1CCCCC1", "Cc1ccc(O)cc1", "O=C1CCCN1",
]
LABEL_NAMES = ["label_a", "label_b"]
MAX_ATOMS_LIMIT = 20
NFP_DATASET_SPLITS = (8, 3)  # train and valid sizes of the WLE datasets; the rest is test

VERSIONS = {
    "python": platform.python_version(), "numpy": np.__version__, "chainer": chainer.__version__,
    "chainer_chemistry": chainer_chemistry.__version__, "rdkit": rdkit.__version__,
    "pandas": pandas.__version__,
}


def text(value):
    """A unicode NumPy array (never object dtype, so that no pickle is needed to read it)."""
    return np.array(value, dtype=str)


def save_npz(name, entries):
    """np.savez with fixed zip timestamps and no pickle, so that a re-run writes identical bytes."""
    entries = dict(entries, versions=text(json.dumps(VERSIONS, sort_keys=True)))
    with zipfile.ZipFile(os.path.join(OUT, name), "w", zipfile.ZIP_DEFLATED) as archive:
        for key, value in entries.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())


def per_example(prefix, example, entries):
    """Store one example's arrays as <prefix>/<k>, whatever the example holds (array or tuple)."""
    items = example if isinstance(example, tuple) else (example,)
    for k, item in enumerate(items):
        entries["{}/{}".format(prefix, k)] = np.asarray(item)


def dataset_layout(dataset):
    """dtype and shape of each column of a NumpyTupleDataset: shows which ones are ragged object arrays."""
    return [{"dtype": str(column.dtype), "shape": list(column.shape)} for column in dataset.get_datasets()]


def store_dataset(prefix, dataset, entries):
    for i in range(len(dataset)):
        per_example("{}{}".format(prefix, i), dataset[i], entries)
    entries[prefix + "layout"] = text(json.dumps(dataset_layout(dataset)))


def write_molecules_csv():
    rng = np.random.RandomState(0)
    label_a = rng.normal(size=len(MOLECULES)).astype(np.float32)
    label_b = rng.uniform(-1, 1, size=len(MOLECULES)).astype(np.float32)
    path = os.path.join(OUT, "molecules.csv")
    with open(path, "w", newline="\n") as f:
        f.write("smiles," + ",".join(LABEL_NAMES) + "\n")
        for smiles, a, b in zip(MOLECULES, label_a, label_b):
            # the shortest text that reads back as the same float32
            f.write("{},{},{}\n".format(smiles, np.format_float_positional(a), np.format_float_positional(b)))
    return path


def write_parsers(csv_path):
    entries = {}
    parser = CSVFileParser(NFPPreprocessor(), labels=LABEL_NAMES, smiles_col="smiles")
    result = parser.parse(csv_path, return_smiles=True, return_is_successful=True)
    store_dataset("nfp/", result["dataset"], entries)
    entries["labels"] = result["dataset"].get_datasets()[-1]
    entries["smiles"] = text(list(result["smiles"]))
    entries["is_successful"] = result["is_successful"]

    smiles_parser = SmilesParser(GGNNPreprocessor())
    result = smiles_parser.parse(MOLECULES, return_smiles=True, return_is_successful=True)
    store_dataset("ggnn/", result["dataset"], entries)
    entries["ggnn/smiles"] = text(list(result["smiles"]))
    entries["ggnn/is_successful"] = result["is_successful"]
    entries["calls"] = text(json.dumps({
        "nfp": "CSVFileParser(NFPPreprocessor(), labels=['label_a', 'label_b'], smiles_col='smiles')"
               ".parse('molecules.csv', return_smiles=True, return_is_successful=True)",
        "ggnn": "SmilesParser(GGNNPreprocessor()).parse(<the smiles column of molecules.csv>, "
                "return_smiles=True, return_is_successful=True)",
    }))
    save_npz("parsers.npz", entries)


# preprocessors whose outputs cannot be made from a SMILES string alone
NOT_FROM_SMILES = {
    "cgcnn": "CGCNNPreprocessor is for crystal structures: its get_input_features raises "
             "NotImplementedError and its constructor downloads atom_init.json",
}


def preprocessor_kwargs(cls):
    """Default arguments, except add_Hs=False wherever the constructor takes it."""
    return {"add_Hs": False} if "add_Hs" in inspect.signature(cls.__init__).parameters else {}


def run_preprocessor(name, preprocessor, kwargs, entries):
    """prepare_smiles_and_mol + get_input_features on every molecule, skipping as the parsers do."""
    canonical, rows, skipped_rows, reasons = [], [], [], []
    for row, smiles in enumerate(MOLECULES):
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            skipped_rows.append(row)
            reasons.append("unparsable")
            continue
        try:
            canonical_smiles, mol = preprocessor.prepare_smiles_and_mol(mol)
            features = preprocessor.get_input_features(mol)
        except MolFeatureExtractionError as e:
            skipped_rows.append(row)
            reasons.append("MolFeatureExtractionError: {}".format(e))
            continue
        except Exception as e:  # the parsers skip these rows too, with a warning
            skipped_rows.append(row)
            reasons.append("{}: {}".format(type(e).__name__, e))
            continue
        per_example("{}/{}".format(name, len(rows)), features, entries)
        canonical.append(canonical_smiles)
        rows.append(row)
    entries[name + "/canonical_smiles"] = text(canonical)
    entries[name + "/rows"] = np.array(rows, dtype=np.int64)
    entries[name + "/skipped_rows"] = np.array(skipped_rows, dtype=np.int64)
    entries[name + "/skipped_reasons"] = text(reasons)
    entries[name + "/kwargs"] = text(json.dumps(kwargs, sort_keys=True))
    return rows


def store_graph_data(name, preprocessor, csv_path, entries):
    """The SparseGraphData objects a sparse preprocessor's create_dataset builds, by attribute name."""
    parser = CSVFileParser(preprocessor, labels=LABEL_NAMES, smiles_col="smiles")
    dataset = parser.parse(csv_path)["dataset"]
    none_attributes = set()
    for i, graph in enumerate(dataset.data_list):
        for attribute, value in vars(graph).items():
            if value is None:
                none_attributes.add(attribute)
            else:
                entries["{}/graph/{}/{}".format(name, i, attribute)] = np.asarray(value)
    entries[name + "/graph_none_attributes"] = text(sorted(none_attributes))
    entries[name + "/graph_class"] = text(type(dataset.data_list[0]).__name__)


def write_preprocessors(csv_path):
    entries, skipped = {}, {}
    methods = [(name, cls, preprocessor_kwargs(cls)) for name, cls in preprocess_method_dict.items()]
    # a default-argument preprocessor with a small max_atoms, so that the large molecule is skipped
    methods.append(("nfp_max_atoms20", preprocess_method_dict["nfp"], {"max_atoms": MAX_ATOMS_LIMIT}))
    for name, cls, kwargs in methods:
        if name in NOT_FROM_SMILES:
            skipped[name] = NOT_FROM_SMILES[name]
            continue
        preprocessor = cls(**kwargs)
        rows = run_preprocessor(name, preprocessor, kwargs, entries)
        if not rows:
            skipped[name] = "every molecule failed: " + "; ".join(sorted(set(entries[name + "/skipped_reasons"])))
        elif hasattr(preprocessor, "construct_sparse_data"):
            store_graph_data(name, preprocessor, csv_path, entries)
    entries["methods"] = text([name for name, _, _ in methods])
    entries["skipped"] = text(json.dumps(skipped, sort_keys=True))
    save_npz("preprocessors.npz", entries)


# splitter arguments stored as their own entries rather than repeated inside the call description
ARGUMENT_ENTRIES = {"labels": "classification_labels", "smiles_list": "smiles", "time_list": "time_list"}


def write_splitters():
    smiles = [s for s in MOLECULES if Chem.MolFromSmiles(s) is not None] + SPLIT_EXTRA
    smiles = (smiles * 2)[:40]
    n = len(smiles)
    rng = np.random.RandomState(1)
    regression = rng.normal(size=n).astype(np.float32)
    # near-equal class sizes: StratifiedSplitter's _approximate_mode asserts that flooring the per-class
    # share loses less than one draw per class, which skewed class sizes break
    classes = (np.arange(n) % 3)[rng.permutation(n)].astype(np.int32)
    time_list = rng.randint(2000, 2010, size=n).tolist()  # ties on purpose: the order among equal times matters
    dataset = NumpyTupleDataset(np.arange(n, dtype=np.float32).reshape(n, 1), regression)
    calls = {
        "random": (RandomSplitter(), "RandomSplitter()", dict(seed=0)),
        "stratified_regression": (StratifiedSplitter(), "StratifiedSplitter()", dict(seed=0)),
        "stratified_classification": (StratifiedSplitter(), "StratifiedSplitter()",
                                      dict(labels=classes, seed=0)),
        "scaffold": (ScaffoldSplitter(), "ScaffoldSplitter()", dict(smiles_list=smiles, seed=0)),
        "deepchem_scaffold": (DeepChemScaffoldSplitter(), "DeepChemScaffoldSplitter()",
                              dict(smiles_list=smiles, seed=0)),
        "time": (TimeSplitter(), "TimeSplitter()", dict(time_list=time_list)),
    }
    entries = {"dataset_x": dataset.get_datasets()[0], "regression_labels": regression,
               "classification_labels": classes, "smiles": text(smiles),
               "time_list": np.array(time_list, dtype=np.int64)}
    for name, (splitter, constructor, kwargs) in calls.items():
        indices = splitter.train_valid_test_split(
            dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, return_index=True, **kwargs)
        for part, index in zip(("train", "valid", "test"), indices):
            entries["{}/{}".format(name, part)] = index
        shown = {key: ("<entry {}>".format(ARGUMENT_ENTRIES[key]) if key in ARGUMENT_ENTRIES else value)
                 for key, value in kwargs.items()}
        entries[name + "/call"] = text(json.dumps({
            "splitter": constructor, "method": "train_valid_test_split",
            "dataset": "NumpyTupleDataset(<entry dataset_x>, <entry regression_labels>)",
            "kwargs": dict(frac_train=0.8, frac_valid=0.1, frac_test=0.1, return_index=True, **shown)}))
    save_npz("splitters.npz", entries)


def nfp_datasets(csv_path):
    parser = CSVFileParser(NFPPreprocessor(), labels=LABEL_NAMES, smiles_col="smiles")
    dataset = parser.parse(csv_path)["dataset"]
    columns = dataset.get_datasets()
    n_train, n_valid = NFP_DATASET_SPLITS
    bounds = [(0, n_train), (n_train, n_train + n_valid), (n_train + n_valid, len(dataset))]
    return tuple(NumpyTupleDataset(*[column[start:stop] for column in columns]) for start, stop in bounds)


def store_wle_result(prefix, result, entries):
    datasets, expanded_labels, frequencies = result
    for s, dataset in enumerate(datasets):
        store_dataset("{}/{}/".format(prefix, s), dataset, entries)
    entries[prefix + "/expanded_labels"] = text(expanded_labels)
    entries[prefix + "/frequency_labels"] = text(list(frequencies.keys()))
    entries[prefix + "/frequency_counts"] = np.array(list(frequencies.values()), dtype=np.int64)
    entries[prefix + "/findmaxidx_atom_label"] = np.int64(findmaxidx(datasets, "atom_label"))
    if len(datasets[0].get_datasets()) == 4:
        entries[prefix + "/findmaxidx_wle_label"] = np.int64(findmaxidx(datasets, "wle_label"))


def write_wle(csv_path):
    entries = {}
    inputs = nfp_datasets(csv_path)
    for s, dataset in enumerate(inputs):
        store_dataset("input/{}/".format(s), dataset, entries)
    entries["input/findmaxidx_atom_label"] = np.int64(findmaxidx(inputs, "atom_label"))
    calls = {
        "wle_k1": (apply_wle_for_datasets, dict(cutoff=0, k=1)),
        "wle_cutoff1_k2": (apply_wle_for_datasets, dict(cutoff=1, k=2)),
        "cwle_k1": (apply_cwle_for_datasets, dict(k=1)),
        "cwle_k2": (apply_cwle_for_datasets, dict(k=2)),
    }
    for name, (function, kwargs) in calls.items():
        store_wle_result(name, function(nfp_datasets(csv_path), **kwargs), entries)
        entries[name + "/call"] = text(json.dumps({"function": function.__name__, "kwargs": kwargs}))
    entries["input/call"] = text(json.dumps({
        "datasets": "CSVFileParser(NFPPreprocessor(), labels=['label_a', 'label_b']).parse('molecules.csv')"
                    "['dataset'], examples [0:8], [8:11], [11:] as three NumpyTupleDatasets"}))
    save_npz("wle.npz", entries)


def write_numpy_tuple_datasets(csv_path):
    for name, preprocessor in (("numpy_tuple_dataset.npz", NFPPreprocessor()),
                               ("numpy_tuple_dataset_padded.npz", NFPPreprocessor(out_size=32))):
        parser = CSVFileParser(preprocessor, labels=LABEL_NAMES, smiles_col="smiles")
        NumpyTupleDataset.save(os.path.join(OUT, name), parser.parse(csv_path)["dataset"])


# ---- model side: tests/chem/fixtures/models/ ----

MODELS_OUT = os.path.join(OUT, "models")
# ethanol, pyridine, glycine zwitterion, acetonitrile: three to six heavy atoms, no atomic number above 8,
# single, double, triple and aromatic bonds
MODEL_ROWS = [0, 2, 3, 11]
N_ATOM_TYPES = 10
SMALL = dict(out_dim=4, hidden_channels=8, n_update_layers=2, n_atom_types=N_ATOM_TYPES)

# fixture name, model class, constructor kwargs, preprocess_method_dict key
MODEL_SPECS = [
    ("NFP", chem_models.NFP, dict(SMALL, max_degree=4), "nfp"),
    ("GGNN", chem_models.GGNN, SMALL, "ggnn"),
    ("GGNN-untied-concat", chem_models.GGNN, dict(SMALL, weight_tying=False, concat_hidden=True), "ggnn"),
] + [
    ("MPNN-{}-{}".format(message, readout), chem_models.MPNN,
     dict(SMALL, message_func=message, readout_func=readout), "ggnn")
    for message in ("edgenet", "ggnn") for readout in ("set2set", "ggnn")
] + [
    ("GIN", chem_models.GIN, SMALL, "gin"),
    ("RSGCN", chem_models.RSGCN, SMALL, "rsgcn"),
    ("RSGCN-batchnorm", chem_models.RSGCN, dict(SMALL, use_batch_norm=True), "rsgcn"),
    ("SchNet", chem_models.SchNet, dict(SMALL, readout_hidden_dim=8, num_rbf=30), "schnet"),
    ("RelGCN", chem_models.RelGCN, dict(out_dim=4, hidden_channels=[8, 8], n_atom_types=N_ATOM_TYPES), "relgcn"),
    ("RelGCN-scale_adj", chem_models.RelGCN,
     dict(out_dim=4, hidden_channels=[8, 8], n_atom_types=N_ATOM_TYPES, scale_adj=True), "relgcn"),
    ("RelGAT", chem_models.RelGAT, dict(SMALL, n_heads=2), "relgat"),
    ("GNNFiLM", chem_models.GNNFiLM, SMALL, "gnnfilm"),
    ("WeaveNet", chem_models.WeaveNet,
     dict(weave_channels=[8, 8], hidden_dim=8, n_atom=20, n_atom_types=N_ATOM_TYPES), "weavenet"),
    ("MLP", chem_models.MLP, dict(out_dim=4, hidden_dim=8, n_layers=2), "ecfp"),
    ("MEGNet", MEGNet, dict(out_dim=4, n_update_layers=1), "megnet"),
    ("GGNN_GWM", chem_models.GGNN_GWM, SMALL, "ggnn_gwm"),
    ("NFP_GWM", chem_models.NFP_GWM, dict(SMALL, max_degree=4), "nfp_gwm"),
    ("GIN_GWM", chem_models.GIN_GWM, SMALL, "gin_gwm"),
    # GeneralReadout keeps the width, so GWM (and CWLE, GWLE) refuse out_dim != hidden_channels with it
    ("RSGCN_GWM", chem_models.RSGCN_GWM, dict(SMALL, out_dim=8), "rsgcn_gwm"),
]

# the CWLE and GWLE models, fed atom arrays, adjacencies and the WLE labels of apply_cwle_for_datasets(k=1)
N_WLE_TYPES = 16
WLE_SPECS = [
    ("{}_{}".format(base, kind), getattr(chem_models, "{}_{}".format(base, kind)),
     dict(SMALL, n_wle_types=N_WLE_TYPES, **extra), method)
    for kind in ("CWLE", "GWLE")
    for base, method, extra in (("GGNN", "ggnn", {}), ("RelGAT", "relgat", {}), ("RelGCN", "relgcn", {}),
                                ("GIN", "gin", {}), ("NFP", "nfp", {}),
                                ("RSGCN", "rsgcn", dict(out_dim=8)))  # GeneralReadout: as RSGCN_GWM
]
WLE_CALL = "apply_cwle_for_datasets((NumpyTupleDataset(atoms, adjacencies, zero labels),), k=1)"


def save_model_npz(path, link):
    """chainer.serializers.save_npz, with its zip timestamps fixed so that a re-run writes identical bytes."""
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as source, zipfile.ZipFile(path, "w") as archive:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = item.compress_type
            archive.writestr(info, source.read(item))


def object_array(items):
    """A 1-D object array of possibly ragged arrays (np.array would try to stack equal shapes)."""
    array = np.empty(len(items), dtype=object)
    array[:] = list(items)
    return array


def model_inputs(method, wle=False):
    """The MODEL_ROWS molecules through the method's preprocessor and converter: the model's input arrays.

    With wle, apply_cwle_for_datasets(k=1) first adds each molecule's WLE label array after its adjacency.
    """
    cls = preprocess_method_dict[method]
    preprocessor = cls(**preprocessor_kwargs(cls))
    examples = []
    for row in MODEL_ROWS:
        _, mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(MOLECULES[row]))
        features = preprocessor.get_input_features(mol)
        examples.append(features if isinstance(features, tuple) else (features,))
    if wle:
        dataset = NumpyTupleDataset(object_array([example[0] for example in examples]),
                                    object_array([example[1] for example in examples]),
                                    np.zeros((len(examples), 1), np.float32))
        (expanded,), _, _ = apply_cwle_for_datasets((dataset,), k=1)
        if findmaxidx((expanded,), "wle_label") > N_WLE_TYPES:
            raise ValueError("model_inputs: more WLE labels than N_WLE_TYPES={}".format(N_WLE_TYPES))
        examples = [expanded[i][:3] for i in range(len(expanded))]
    if method == "megnet":
        # megnet_converter takes a label last in each example; this placeholder is dropped again
        batch = megnet_converter([example + (np.zeros(1, np.float32),) for example in examples], device=-1)
        return list(batch[:-1])
    return list(converter_method_dict[method](examples, device=-1))


def forward_backward(link, xs, prefix, entries, train=False):
    """Forward on xs (test mode unless train), then backward of sum(y * gy); stores x, y, gy, grad and gx
    under prefix. An object-array input (one int array per graph) is stored item by item, as x/<k>/<i>."""
    inputs = [chainer.Variable(x) if x.dtype.kind == "f" else x for x in xs]
    with chainer.using_config("train", train):
        y = link(*inputs)
    gy = np.random.RandomState(0).standard_normal(y.shape).astype(np.float32)
    link.cleargrads()
    F.sum(y * gy).backward()
    for k, x in enumerate(xs):
        if x.dtype == object:
            for i, item in enumerate(x):
                entries["{}x/{}/{}".format(prefix, k, i)] = item
        else:
            entries["{}x/{}".format(prefix, k)] = x
    entries[prefix + "y"] = y.array
    entries[prefix + "gy"] = gy
    no_grad = []
    for path, param in sorted(link.namedparams()):
        if param.grad is not None:
            entries[prefix + "grad" + path] = param.grad
        elif param.array is not None:
            no_grad.append(path)
    for k, x in enumerate(inputs):
        if isinstance(x, chainer.Variable) and x.grad is not None:
            entries["{}gx/{}".format(prefix, k)] = x.grad
    # parameters still uninitialized after the forward are saved as None entries by save_npz
    entries[prefix + "none_params"] = text(sorted(path for path, p in link.namedparams() if p.array is None))
    entries[prefix + "no_grad_params"] = text(no_grad)


def write_model(name, constructor, config, method, wle=False):
    """name.model.npz (the model after one forward) and name.io.npz (its inputs, output and gradients)."""
    np.random.seed(0)
    model = constructor(**config)
    xs = model_inputs(method, wle)
    entries = {"class": text(constructor.__name__), "module": text(constructor.__module__),
               "config": text(json.dumps(config, sort_keys=True)),
               "preprocessor": text(method), "smiles": text([MOLECULES[row] for row in MODEL_ROWS])}
    if wle:
        entries["wle"] = text(WLE_CALL)
    forward_backward(model, xs, "", entries)
    save_model_npz(os.path.join(MODELS_OUT, name + ".model.npz"), model)
    save_npz(os.path.join("models", name + ".io.npz"), entries)


def write_models():
    """Every MODEL_SPECS and WLE_SPECS model, and set_up_predictor('ggnn', ...)'s GraphConvPredictor."""
    os.makedirs(MODELS_OUT, exist_ok=True)
    for name, cls, config, method in MODEL_SPECS:
        write_model(name, cls, config, method)
    for name, cls, config, method in WLE_SPECS:
        write_model(name, cls, config, method, wle=True)
    predictor_kwargs = dict(method="ggnn", n_unit=8, conv_layers=2, class_num=2, n_atom_types=N_ATOM_TYPES)
    with contextlib.redirect_stdout(sys.stderr):  # set_up_predictor prints; stdout carries the versions line
        write_model("predictor", set_up_predictor, predictor_kwargs, "ggnn")


# link name, link class, constructor kwargs, inputs: "h" hidden states (4, 6, 8) drawn from RandomState(1),
# "h0" a second draw, the MODEL_ROWS batch's "atoms", "adj" (nfp, (4, 6, 6)), "adj_typed" (ggnn, (4, 4, 6, 6)),
# "distance" (schnet, (4, 6, 6))
LINK_SPECS = [
    ("GeneralReadout", chem_links.GeneralReadout, dict(mode="sum"), ["h"]),
    ("GeneralReadout-summax", chem_links.GeneralReadout, dict(mode="summax"), ["h"]),
    ("GGNNReadout", chem_links.GGNNReadout, dict(out_dim=4, in_channels=None), ["h", "h0"]),
    ("NFPReadout", chem_links.NFPReadout, dict(out_dim=4, in_channels=8), ["h"]),
    ("MPNNReadout", chem_links.MPNNReadout, dict(out_dim=4, in_channels=8, n_layers=1, processing_steps=3), ["h"]),
    ("Set2Set", chem_links.Set2Set, dict(in_channels=8, n_layers=1), ["h"]),
    ("SchNetReadout", chem_links.SchNetReadout, dict(out_dim=4, in_channels=8, hidden_channels=8), ["h"]),
    ("GGNNUpdate", chem_links.GGNNUpdate, dict(in_channels=8, hidden_channels=8, n_edge_types=4),
     ["h", "adj_typed"]),
    ("MPNNUpdate", chem_links.MPNNUpdate, dict(in_channels=8, hidden_channels=8), ["h", "adj_typed"]),
    ("GINUpdate", chem_links.GINUpdate, dict(in_channels=8, hidden_channels=8), ["h", "adj"]),
    ("RSGCNUpdate", chem_links.RSGCNUpdate, dict(in_channels=8, out_channels=8), ["h", "adj"]),
    ("RelGCNUpdate", chem_links.RelGCNUpdate, dict(in_channels=8, out_channels=8), ["h", "adj_typed"]),
    ("RelGATUpdate", chem_links.RelGATUpdate, dict(in_channels=8, out_channels=8, n_heads=2), ["h", "adj_typed"]),
    ("SchNetUpdate", chem_links.SchNetUpdate, dict(hidden_channels=8, num_rbf=30), ["h", "distance"]),
    ("GraphLinear", chem_links.GraphLinear, dict(in_size=8, out_size=4), ["h"]),
    ("GraphMLP", chem_links.GraphMLP, dict(channels=[8, 4], in_channels=8), ["h"]),
    ("EmbedAtomID", chem_links.EmbedAtomID, dict(out_size=4, in_size=N_ATOM_TYPES), ["atoms"]),
    ("GraphBatchNormalization", chem_links.GraphBatchNormalization, dict(size=8), ["h"]),
]


def link_inputs():
    """The arrays LINK_SPECS names as inputs."""
    rng = np.random.RandomState(1)
    atoms, adj = model_inputs("nfp")
    return {"h": rng.standard_normal((len(MODEL_ROWS), atoms.shape[1], 8)).astype(np.float32),
            "h0": rng.standard_normal((len(MODEL_ROWS), atoms.shape[1], 8)).astype(np.float32),
            "atoms": atoms, "adj": adj, "adj_typed": model_inputs("ggnn")[1], "distance": model_inputs("schnet")[1]}


def store_link(name, cls, config, inputs, input_names, entries, train=False):
    """One link fixture under <name>/: class, config, input names, its x, y, gy, grad and gx, and its serialized
    state after the forward (<name>/model/...); with train, a train-mode forward's under <name>/train/."""
    np.random.seed(0)
    link = cls(**config)
    prefix = name + "/"
    entries[prefix + "class"] = text(cls.__name__)
    entries[prefix + "config"] = text(json.dumps(config, sort_keys=True))
    entries[prefix + "inputs"] = text(input_names)
    forward_backward(link, [inputs[key] for key in input_names], prefix, entries)
    serializer = chainer.serializers.DictionarySerializer()
    serializer.save(link)
    for key, value in serializer.target.items():
        # a copy: the serializer holds the link's own arrays, which a train-mode forward updates in place
        entries[prefix + "model/" + key] = value.copy() if isinstance(value, np.ndarray) else value
    if train:
        forward_backward(link, [inputs[key] for key in input_names], prefix + "train/", entries, train=True)


def write_links():
    """links.npz: per link, its serialized state after the forward (<name>/model/...) and its x, y, gy, grad."""
    inputs = link_inputs()
    entries = {}
    for name, cls, config, input_names in LINK_SPECS:
        store_link(name, cls, config, inputs, input_names, entries)
    save_npz(os.path.join("models", "links.npz"), entries)


class Identity(chainer.Link):
    """Returns its input: lets the evaluators score fixed predictions."""

    def forward(self, x):
        return x


EVALUATOR_BATCH_SIZE = 5  # 12 rows: the evaluators concatenate uneven batches


def evaluate(evaluator_class, y, t, kwargs):
    """The evaluator's report on predictions y against labels t, called outside a trainer."""
    iterator = chainer.iterators.SerialIterator(
        NumpyTupleDataset(y, t), EVALUATOR_BATCH_SIZE, repeat=False, shuffle=False)
    return evaluator_class(iterator, Identity(), **kwargs)()


def write_evaluators():
    """evaluators.npz: fixed predictions and labels, and each evaluator call's reported key and value."""
    rng = np.random.RandomState(0)
    n = 12
    entries = {
        "y_score": rng.uniform(size=(n, 1)).astype(np.float32),
        # -1 marks labels for ignore_labels
        "t_binary": np.array([0, 1, 1, 0, -1, 1, 0, 0, 1, -1, 1, 0], dtype=np.int32).reshape(n, 1),
        "y_regression": rng.normal(size=(n, 2)).astype(np.float32),
        "t_regression": rng.normal(size=(n, 2)).astype(np.float32),
    }
    entries["t_regression_nan"] = entries["t_regression"].copy()
    # NaN labels make the column mean NaN, so ignore_nan zeroes every deviation: upstream reports 0.0 here
    entries["t_regression_nan"][[2, 7], [0, 1]] = np.nan
    cases = {
        "roc_auc_ignore": (ROCAUCEvaluator, "y_score", "t_binary", dict(ignore_labels=-1)),
        "roc_auc_pos_labels": (ROCAUCEvaluator, "y_score", "t_binary", dict(pos_labels=[1, -1])),
        "prc_auc_ignore": (PRCAUCEvaluator, "y_score", "t_binary", dict(ignore_labels=-1)),
        "prc_auc_pos_labels": (PRCAUCEvaluator, "y_score", "t_binary", dict(pos_labels=[1, -1])),
        "r2_score": (R2ScoreEvaluator, "y_regression", "t_regression", {}),
        "r2_score_ignore_nan": (R2ScoreEvaluator, "y_regression", "t_regression_nan", dict(ignore_nan=True)),
    }
    for name, (evaluator_class, y_key, t_key, kwargs) in cases.items():
        observation = evaluate(evaluator_class, entries[y_key], entries[t_key], kwargs)
        (key, value), = observation.items()
        entries[name + "/key"] = text(key)
        entries[name + "/value"] = np.asarray(value)
        entries[name + "/call"] = text(json.dumps({
            "evaluator": evaluator_class.__name__, "kwargs": kwargs, "y": "<entry {}>".format(y_key),
            "t": "<entry {}>".format(t_key),
            "iterator": "SerialIterator(NumpyTupleDataset(y, t), {}, repeat=False, shuffle=False)".format(
                EVALUATOR_BATCH_SIZE),
            "target": "a Link returning its input", "called": "evaluator() (no trainer)"}))
    save_npz(os.path.join("models", "evaluators.npz"), entries)


SALIENCY_ROWS = MODEL_ROWS[:3]  # ethanol, pyridine, glycine zwitterion: 3, 6 and 5 heavy atoms
SALIENCY_BATCH_SIZE = 2  # two batches of different widths: compute pads them into one array


class SaliencyRegressor(chainer.Chain):
    """The GGNN model fixture with a fixed Linear(4, 1) head: one score per molecule."""

    def __init__(self):
        super(SaliencyRegressor, self).__init__()
        with self.init_scope():
            self.ggnn = chem_models.GGNN(**SMALL)
            self.head = chainer.links.Linear(
                SMALL["out_dim"], 1,
                initialW=np.random.RandomState(1).standard_normal((1, SMALL["out_dim"])).astype(np.float32),
                initial_bias=np.float32(0.25))

    def forward(self, atom_array, adj):
        return self.head(self.ggnn(atom_array, adj))


def saliency_entries():
    """The calculators on the GGNN embedding (target_extractor) and aggregate's three methods."""
    import logging

    from chainer_chemistry.dataset.converters import concat_mols
    from chainer_chemistry.link_hooks import VariableMonitorLinkHook
    from chainer_chemistry.saliency.calculator import (
        GaussianNoiseSampler, GradientCalculator, IntegratedGradientsCalculator, OcclusionCalculator)

    # the calculators warn at every batch that they sum the (batch, 1) output; that is the intent here
    logging.getLogger("chainer_chemistry.saliency.calculator").setLevel(logging.ERROR)
    model = SaliencyRegressor()
    chainer.serializers.load_npz(os.path.join(MODELS_OUT, "GGNN.model.npz"), model.ggnn)  # strict
    preprocessor = GGNNPreprocessor()
    data = []
    for row in SALIENCY_ROWS:
        _, mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(MOLECULES[row]))
        data.append(preprocessor.get_input_features(mol))
    entries = {"smiles": text([MOLECULES[row] for row in SALIENCY_ROWS]),
               "head/W": model.head.W.array, "head/b": model.head.b.array}
    for i, example in enumerate(data):
        per_example("data/{}".format(i), example, entries)
    with chainer.using_config("train", False):
        entries["y"] = model(*concat_mols(data)).array

    def hook():
        return VariableMonitorLinkHook(model.ggnn.embed, timing="post")

    cases = {
        "gradient": (GradientCalculator, {}, {}),
        "gradient_multiply_target": (GradientCalculator, dict(multiply_target=True), {}),
        "integrated_gradients": (IntegratedGradientsCalculator, dict(steps=5), {}),
        "occlusion": (OcclusionCalculator, dict(size=1, slide_axis=1), {}),
        # SmoothGrad: numpy.random.seed(0) just before compute fixes the Gaussian noise
        "smoothgrad": (GradientCalculator, {}, dict(M=2, noise_sampler="GaussianNoiseSampler()")),
    }
    for name, (cls, kwargs, compute_kwargs) in cases.items():
        calculator = cls(model, target_extractor=hook(), **kwargs)
        call = dict(compute_kwargs, batchsize=SALIENCY_BATCH_SIZE, converter="concat_mols", show_progress=False)
        if "noise_sampler" in compute_kwargs:
            compute_kwargs = dict(compute_kwargs, noise_sampler=GaussianNoiseSampler())
        np.random.seed(0)
        saliency = calculator.compute(data, batchsize=SALIENCY_BATCH_SIZE, converter=concat_mols,
                                      show_progress=False, **compute_kwargs)
        entries[name + "/saliency"] = saliency
        entries[name + "/call"] = text(json.dumps({
            "calculator": cls.__name__, "kwargs": kwargs, "target_extractor":
                "VariableMonitorLinkHook(model.ggnn.embed, timing='post')",
            "compute": call, "numpy.random.seed": 0}, sort_keys=True))
        for method in ("raw", "abs", "square"):
            for ch_axis in (None, 3):
                key = "{}/aggregate/{}/{}".format(name, method, ch_axis)
                entries[key] = calculator.aggregate(saliency, method=method, ch_axis=ch_axis)
    return entries


def utils_entries():
    """extend_node / extend_adj / permute_node / permute_adj / convert_sparse_with_edge_type on fixed arrays."""
    # extend.py imports Iterable from collections, gone since Python 3.10: give it the collections.abc one
    import collections
    import collections.abc
    collections.Iterable = collections.abc.Iterable
    from chainer_chemistry.utils.extend import extend_adj, extend_node
    from chainer_chemistry.utils.permutation import permute_adj, permute_node
    from chainer_chemistry.utils.sparse_utils import convert_sparse_with_edge_type

    rng = np.random.RandomState(2)
    node = rng.standard_normal((2, 3, 4)).astype(np.float32)
    atoms = rng.randint(1, 9, size=(2, 3)).astype(np.int32)
    adj = (rng.uniform(size=(2, 3, 3)) < 0.5).astype(np.float32)
    adj_typed = (rng.uniform(size=(2, 4, 3, 3)) < 0.5).astype(np.float32)
    permutation = np.array([2, 0, 1], np.int32)
    entries = {"node": node, "atoms": atoms, "adj": adj, "adj_typed": adj_typed, "permutation": permutation}
    calls = {
        "extend_node/default": (extend_node, "node", dict(out_size=6)),
        "extend_node/axis1_value": (extend_node, "node", dict(out_size=5, axis=1, value=-1)),
        "extend_node/atoms": (extend_node, "atoms", dict(out_size=5)),
        "extend_adj/default": (extend_adj, "adj", dict(out_size=5)),
        "extend_adj/typed": (extend_adj, "adj_typed", dict(out_size=4, value=2)),
        "extend_adj/axis2": (extend_adj, "adj_typed", dict(out_size=6, axis=[1])),
        "permute_node/default": (permute_node, "atoms", dict(permutation_index="<entry permutation>")),
        "permute_node/axis1": (permute_node, "node", dict(permutation_index="<entry permutation>", axis=1)),
        "permute_adj/default": (permute_adj, "adj", dict(permutation_index="<entry permutation>")),
        "permute_adj/typed": (permute_adj, "adj_typed", dict(permutation_index="<entry permutation>")),
        "permute_adj/axis": (permute_adj, "adj_typed", dict(permutation_index="<entry permutation>",
                                                           axis=[2, 3])),
    }
    for name, (function, argument, kwargs) in calls.items():
        resolved = {k: permutation if k == "permutation_index" else v for k, v in kwargs.items()}
        entries[name] = function(entries[argument], **resolved)
        entries[name + "/call"] = text(json.dumps({"function": function.__name__, "argument": argument,
                                                   "kwargs": kwargs}, sort_keys=True))
    # a batch of two 3-node graphs with 4 edges each; edge_type in [0, 3)
    sparse = {"data": rng.standard_normal((2, 4)).astype(np.float32),
              "row": np.array([[0, 1, 2, 0], [1, 2, 0, 2]], np.int32),
              "col": np.array([[1, 2, 0, 2], [0, 1, 2, 1]], np.int32),
              "edge_type": np.array([[1, 1, 0, 2], [0, 2, 2, 0]], np.int32)}
    coo = convert_sparse_with_edge_type(sparse["data"], sparse["row"], sparse["col"], num_nodes=6,
                                        edge_type=sparse["edge_type"], num_edge_type=3)
    for key, value in sparse.items():
        entries["sparse/" + key] = value
    entries["sparse/out/data"] = coo.data.array
    entries["sparse/out/row"] = coo.row
    entries["sparse/out/col"] = coo.col
    entries["sparse/out/shape"] = np.array(coo.shape)
    return entries


def write_saliency():
    """saliency.npz: the saliency entries, and the chainer_chemistry.utils ones under utils/."""
    entries = saliency_entries()
    entries.update({"utils/" + key: value for key, value in utils_entries().items()})
    save_npz("saliency.npz", entries)


# ---- crystals: models/CGCNN.* and models/cgcnn_links.npz ----

CRYSTAL_SIZES = (2, 3, 4)  # sites per crystal: unequal, so cgcnn_converter's atom_idx is an object array
CRYSTAL_NEIGHBORS = 3
CRYSTAL_ELEMENTS = 6  # one-hot site features, as CGCNN's atom_init.json rows are
BOND_CENTERS = np.linspace(0, 4, 10)  # GaussianDistance centers: 10 bond features per neighbor
CGCNN_CONFIG = dict(out_dim=4, n_update_layers=2, n_atom_features=8)


def crystal_batch():
    """Three small crystal graphs (site features, bond features, neighbor rows, a target) and their
    cgcnn_converter batch (atom_feat, nbr_feat, atom_idx, nbr_idx, target)."""
    from chainer_chemistry.dataset.converters import cgcnn_converter
    from chainer_chemistry.dataset.utils import GaussianDistance

    rng = np.random.RandomState(3)
    expansion = GaussianDistance(centers=BOND_CENTERS)
    examples = []
    for n in CRYSTAL_SIZES:
        sites = np.eye(CRYSTAL_ELEMENTS, dtype=np.float32)[rng.randint(0, CRYSTAL_ELEMENTS, n)]
        neighbors = rng.randint(0, n, (n, CRYSTAL_NEIGHBORS)).astype(np.int32)
        bonds = expansion.expand_from_distances(rng.uniform(1, 4, (n, CRYSTAL_NEIGHBORS)))
        examples.append((sites, bonds, neighbors, rng.standard_normal(1).astype(np.float32)))
    return examples, cgcnn_converter(examples, device=-1)


def write_cgcnn_model():
    """CGCNN.model.npz and CGCNN.io.npz: the model fixture on crystal_batch(), in test and in train mode."""
    from chainer_chemistry.models.cgcnn import CGCNN

    examples, batch = crystal_batch()
    xs = list(batch[:4])
    np.random.seed(0)
    model = CGCNN(**CGCNN_CONFIG)
    entries = {"class": text("CGCNN"), "module": text(CGCNN.__module__),
               "config": text(json.dumps(CGCNN_CONFIG, sort_keys=True)),
               "converter": text("cgcnn_converter(<the examples>, device=-1)"), "target": batch[4]}
    for i, example in enumerate(examples):
        per_example("example/{}".format(i), example, entries)
    forward_backward(model, xs, "", entries)
    save_model_npz(os.path.join(MODELS_OUT, "CGCNN.model.npz"), model)
    # after the save: a train-mode forward updates the batch normalizations' running averages
    forward_backward(model, xs, "train/", entries, train=True)
    save_npz(os.path.join("models", "CGCNN.io.npz"), entries)


def write_cgcnn_links():
    """cgcnn_links.npz: CGCNNUpdate (also in train mode: batch normalization) and CGCNNReadout, as links.npz."""
    from chainer_chemistry.links.readout.cgcnn_readout import CGCNNReadout
    from chainer_chemistry.links.update.cgcnn_update import CGCNNUpdate

    atom_feat, nbr_feat, atom_idx, nbr_idx, _ = crystal_batch()[1]
    inputs = {"sites": np.random.RandomState(4).standard_normal((len(atom_feat), 8)).astype(np.float32),
              "nbr_feat": nbr_feat, "nbr_idx": nbr_idx, "atom_idx": atom_idx}
    entries = {}
    store_link("CGCNNUpdate", CGCNNUpdate, dict(n_site_features=8), inputs, ["sites", "nbr_feat", "nbr_idx"],
               entries, train=True)
    store_link("CGCNNReadout", CGCNNReadout, dict(out_dim=4), inputs, ["sites", "atom_idx"], entries)
    save_npz(os.path.join("models", "cgcnn_links.npz"), entries)


csv_path = write_molecules_csv()
write_parsers(csv_path)
write_preprocessors(csv_path)
write_splitters()
write_wle(csv_path)
write_numpy_tuple_datasets(csv_path)
write_models()
write_links()
write_evaluators()
# last: RDKit's 3-D embedding state carries over between calls, so nothing new may run before the
# schnet/megnet preprocessors
write_saliency()
# crystals (no RDKit), added after everything else so that the earlier files stay as they were
write_cgcnn_model()
write_cgcnn_links()
print(json.dumps(VERSIONS, sort_keys=True))
'''

README = """# Chainer Chemistry 0.7.1 fixtures

Written by the real Chainer Chemistry with `python tools/make_chemistry_fixture.py` (see its docstring); never
edit these files by hand and never regenerate them from kusari's output. Versions used: {versions}.

- `molecules.csv`: 16 hand-written SMILES (`smiles,label_a,label_b`); row 6 (`C1CCC`) does not parse, row 7
  (tamoxifen, 28 heavy atoms) is above `max_atoms=20`; the labels are float32 draws from `RandomState(0)`.
- `parsers.npz`: `CSVFileParser(NFPPreprocessor(), labels=['label_a', 'label_b'], smiles_col='smiles')`
  `.parse(..., return_smiles=True, return_is_successful=True)`: `nfp/<i>/<k>` is the k-th array of dataset
  example i (atoms, adjacency, labels), `nfp/layout` the dtype and shape of each dataset column (ragged ones
  are object arrays), `labels`, `smiles` (canonical, as Chainer Chemistry returned them), `is_successful`;
  `ggnn/...`: the same for `SmilesParser(GGNNPreprocessor())` on the SMILES column; `calls`: the exact calls.
- `preprocessors.npz`: for each name in `methods` (the keys of `preprocess_method_dict`, default arguments with
  `add_Hs=False` where the constructor takes it, plus `nfp_max_atoms20`): `<method>/<i>/<k>` the k-th output of
  `get_input_features` for the i-th molecule that succeeded, `<method>/rows` its row in `molecules.csv`,
  `<method>/canonical_smiles`, `<method>/skipped_rows` and `<method>/skipped_reasons`, `<method>/kwargs`;
  sparse preprocessors add `<method>/graph/<i>/<attribute>` (their `SparseGraphData`, built by `create_dataset`
  with the csv labels), `<method>/graph_none_attributes` and `<method>/graph_class`. `skipped`: the
  preprocessors not run, and why. The `schnet` distances (`schnet/<i>/1`) and `megnet` pair features
  (`megnet/<i>/1`) come from RDKit's 3D embedding (`EmbedMolecule` without a seed): RDKit's generator is
  reproducible from a fresh process but its state carries over from call to call, so these match only for
  the same sequence of calls; compare them loosely (symmetry, bond lengths), everything else exactly.
- `splitters.npz`: `<splitter>/{{train,valid,test}}` indices of `train_valid_test_split` on a 40-row
  `NumpyTupleDataset(dataset_x, regression_labels)`, and `<splitter>/call` (JSON) with the exact arguments;
  the argument arrays are the entries `smiles`, `classification_labels` and `time_list`.
- `wle.npz`: `input/<s>/<j>/<k>`: three NFP datasets (train/valid/test); for each variant in `wle_k1`,
  `wle_cutoff1_k2`, `cwle_k1`, `cwle_k2`: the returned datasets `<variant>/<s>/<j>/<k>`, `expanded_labels`,
  `frequency_labels` / `frequency_counts` (the frequency dict in its order), `findmaxidx_atom_label`
  (and `findmaxidx_wle_label` for CWLE), and `<variant>/call`.
- `numpy_tuple_dataset.npz`: written by `NumpyTupleDataset.save` on the ragged NFP parse result: its atom and
  adjacency columns are object arrays, which NumPy stores with pickle. `numpy_tuple_dataset_padded.npz`: the
  same with `NFPPreprocessor(out_size=32)`, no object arrays.

## Models (`models/`)

Inputs: rows 0, 2, 3 and 11 of `molecules.csv` (ethanol, pyridine, glycine zwitterion, acetonitrile; at most six
heavy atoms, atomic numbers up to 8, so `n_atom_types=10`) through the fixture's preprocessor (default arguments,
`add_Hs=False`) and its converter (`concat_mols`, or `megnet_converter` for MEGNet). Unless the config says
otherwise: `out_dim=4, hidden_channels=8, n_update_layers=2, n_atom_types=10`.

- `<F>.model.npz`: `chainer.serializers.save_npz` of the model built after `numpy.random.seed(0)` and run
  once (so lazy parameters are initialized); load it with strict `load_npz`. Parameters that one forward
  never initializes are stored as Chainer's `None` entries (object arrays, so reading the file by hand needs
  `allow_pickle`): `GIN` `first_mlp/layers/0/W` (unused without `node_embedding`), `WeaveNet`
  `weave_module/1/{{atom_to_pair/linear_layers/0,pair_layer/layers/0,pair_to_pair/layers/0}}/W` (the last
  weave module computes atoms only), `GGNN-untied-concat` `update_layers/{{0,1}}/update_layer/W_r/W`.
- `<F>.io.npz`: `class` and `module` (the constructor; `set_up_predictor` for `predictor`), `config` (JSON
  keyword arguments), `preprocessor` (the `preprocess_method_dict` key), `smiles`, `x/<k>` (the k-th
  positional input, exactly as the converter returned it; an object-array input, one int array per graph,
  is stored item by item as `x/<k>/<i>`), `y` (output under `chainer.using_config('train',
  False)`), `gy` (`RandomState(0).standard_normal(y.shape)` as float32), `grad/<path>` (the gradient of
  `sum(y * gy)` for every parameter that got one, paths as `namedparams` gives them), `gx/<k>` (for the float
  inputs that upstream propagates to), `none_params` (the `None` entries above) and `no_grad_params`
  (initialized parameters that the forward does not use); the CWLE/GWLE fixtures add `wle`.
- Fixtures: `NFP` (`max_degree=4`), `GGNN`, `GGNN-untied-concat` (`weight_tying=False, concat_hidden=True`),
  `MPNN-<message_func>-<readout_func>` for `edgenet`/`ggnn` x `set2set`/`ggnn`, `GIN`, `RSGCN`,
  `RSGCN-batchnorm`, `SchNet` (`readout_hidden_dim=8, num_rbf=30`), `RelGCN` and `RelGCN-scale_adj`
  (`hidden_channels=[8, 8]`), `RelGAT` (`n_heads=2`), `GNNFiLM`, `WeaveNet` (`weave_channels=[8, 8],
  hidden_dim=8, n_atom=20`), `MLP` (`hidden_dim=8, n_layers=2` on the `ecfp` fingerprints), `MEGNet`
  (`out_dim=4, n_update_layers=1`; its widths are fixed upstream, hence the largest files), `GGNN_GWM`,
  `NFP_GWM`, `GIN_GWM`, `RSGCN_GWM`, the `_CWLE` and `_GWLE` variants of GGNN, RelGAT, RelGCN, GIN, NFP and
  RSGCN (`n_wle_types=16`; inputs `atom_array, adj, wle_array` from
  `apply_cwle_for_datasets(k=1)` on the four molecules), and `predictor`
  (`set_up_predictor('ggnn', n_unit=8, conv_layers=2, class_num=2, n_atom_types=10)`: GraphConvPredictor of
  GGNN and MLP), and `CGCNN` (see Crystals below). The plain WLE models are the base models on relabelled
  atoms (the relabelling is in `wle.npz`).
- `links.npz`: per link fixture `<L>` (`GeneralReadout`, `GeneralReadout-summax`, `GGNNReadout`,
  `NFPReadout`, `MPNNReadout`, `Set2Set`, `SchNetReadout`, `GGNNUpdate`, `MPNNUpdate`, `GINUpdate`,
  `RSGCNUpdate`, `RelGCNUpdate`, `RelGATUpdate`, `SchNetUpdate`, `GraphLinear`, `GraphMLP`, `EmbedAtomID`,
  `GraphBatchNormalization`): `<L>/class`, `<L>/config`, `<L>/inputs` (names: `h` and `h0` are
  `RandomState(1)` float32 draws of shape (4, 6, 8); `atoms`, `adj`, `adj_typed`, `distance` are the nfp,
  ggnn and schnet batches of the molecules above), `<L>/model/...` (the link's `DictionarySerializer` state:
  `load_npz(path, link, path='<L>/model/')`), and `x`, `y`, `gy`, `grad`, `gx`, `none_params`,
  `no_grad_params` as in the io files, under `<L>/`.
- `evaluators.npz`: `ROCAUCEvaluator`, `PRCAUCEvaluator` and `R2ScoreEvaluator` called (no trainer) on
  fixed predictions and labels (`y_score`, `t_binary` with -1 labels, `y_regression`, `t_regression`,
  `t_regression_nan`) served in batches of 5 by a link returning its input: `<case>/call` (JSON),
  `<case>/key` (the reported key) and `<case>/value`.

Upstream behaviours in the model fixtures: `GGNNUpdate` uses Chainer's stateful `L.GRU`, which keeps its
state across the update steps of one call (`reset_state` at the start of the model's call): with
`weight_tying=False` each GRU runs once from no state, so only `W` and `W_z` are used; `RSGCN` and `RelGAT`
do not propagate to the adjacency (no `gx/1`), while `RSGCNUpdate` alone does; MEGNet's index inputs
(`x/3` to `x/6`) are int64, every other integer input is int32 and every float input float32; with
`ignore_nan=True` and NaN labels, `R2ScoreEvaluator` reports 0.0 (the NaN label mean turns every deviation
into NaN, which is then zeroed); the evaluators report under `main/<metric>` when called outside a trainer.

Every npz written by the script itself holds a `versions` entry (JSON); none of them needs `allow_pickle`.
Every file has fixed zip timestamps, and the tool runs the peer with OpenBLAS's Haswell (AVX2) kernels and
NumPy's AVX-512 loops disabled (those round some float32 results differently in the last bits), so
re-running it on any CPU with AVX2 rewrites identical bytes.

Upstream behaviours recorded as they are (parity means reproducing them): parsed labels are float64 (pandas'
dtype, not cast); `relgcn_sparse` (`GGNNSparsePreprocessor.construct_sparse_data`) writes the source atom into
both rows of `edge_index`; `weavenet` pair features index atom pairs as `i * n_atoms + j` inside rows padded
to `max_atoms ** 2`; the `*_gwm` supernode features count the self-connections in the edge count; `megnet`
rejects atoms outside H, C, N, O, F.

## Crystals (`models/CGCNN.*`, `models/cgcnn_links.npz`)

Chainer Chemistry 0.7.1 has no crystal preprocessor (its `CGCNNPreprocessor.get_input_features` raises
`NotImplementedError`), so the inputs are three hand-made crystal graphs of 2, 3 and 4 sites drawn from
`RandomState(3)`: site features one-hot over 6 elements (float32 (n, 6)), 3 neighbors per site (`nbr_idx`
int32 (n, 3)), bond features `GaussianDistance(centers=numpy.linspace(0, 4, 10)).expand_from_distances` of
distances uniform in [1, 4) (float32 (n, 3, 10)) and a float32 (1,) target, joined by
`cgcnn_converter(examples, device=-1)`.

- `CGCNN.model.npz` / `CGCNN.io.npz`: `CGCNN(out_dim=4, n_update_layers=2, n_atom_features=8)` as the other
  model fixtures; `example/<i>/<k>` are the examples, `x/0` to `x/3` the converter's `atom_feat`,
  `nbr_feat`, `atom_idx` (a ragged object array upstream, so `x/2/<i>`: each crystal's int64 rows) and
  `nbr_idx`, `target` its fifth output. `train/...` holds the same entries for a train-mode forward (the
  batch normalizations use the batch statistics), run after the model was saved.
- `cgcnn_links.npz`: `CGCNNUpdate` (`n_site_features=8`, inputs `sites`, `nbr_feat`, `nbr_idx`, also in
  train mode under `CGCNNUpdate/train/`) and `CGCNNReadout` (`out_dim=4`, inputs `sites`, `atom_idx`), laid out
  as `links.npz`; `sites` is a `RandomState(4)` float32 draw of shape (9, 8).

## Saliency and utils

- `saliency.npz`: the model is `GGNN(out_dim=4, hidden_channels=8, n_update_layers=2, n_atom_types=10)` with
  the weights of `models/GGNN.model.npz` (strict `load_npz` into `model.ggnn`) followed by
  `Linear(4, 1)` with `head/W` (`RandomState(1)` float32 draws) and `head/b` (0.25): `forward(atom_array,
  adj) = head(ggnn(atom_array, adj))`. `data/<i>/<k>`: the `GGNNPreprocessor` features of rows 0, 2 and 3
  (`smiles`); `y`: the model's test-mode output on their `concat_mols` batch. For each case `<c>` in
  `gradient`, `gradient_multiply_target` (`multiply_target=True`), `integrated_gradients` (`steps=5`, no
  noise), `occlusion` (`size=1, slide_axis=1`: one atom at a time) and `smoothgrad` (`M=2`,
  `GaussianNoiseSampler()` after `numpy.random.seed(0)`): `<c>/call` (JSON: the calculator, its arguments
  and `compute`'s), `<c>/saliency` (`compute` with `target_extractor=VariableMonitorLinkHook(model.ggnn.embed,
  timing='post')`, `batchsize=2`, `converter=concat_mols`, `numpy.random.seed(0)` first: shape
  `(M, 3, 6, 8)`, or `(M, 3, 6, 1)` for occlusion) and `<c>/aggregate/<method>/<ch_axis>` for `method` in
  `raw`, `abs`, `square` and `ch_axis` in `None`, `3`.
- `saliency.npz`, under `utils/`: the inputs `node` (float32 (2, 3, 4)), `atoms` (int32 (2, 3)), `adj` (float32 (2, 3, 3)),
  `adj_typed` (float32 (2, 4, 3, 3)) and `permutation` (`[2, 0, 1]`), drawn from `RandomState(2)`; for each
  case `<f>/<variant>` the result of `chainer_chemistry.utils.<f>` and `<f>/<variant>/call` (JSON: the
  function, the input entry and the keyword arguments, `<entry permutation>` standing for that entry);
  `sparse/{{data,row,col,edge_type}}` and `sparse/out/{{data,row,col,shape}}`: `convert_sparse_with_edge_type(...,
  num_nodes=6, num_edge_type=3)`.

Upstream behaviours there: with a (batch, 1) score the calculators take the gradient of its sum (each
example's own gradient, since examples are independent); `compute` zero-pads batches of different widths
into one array, so the first batch (ethanol padded to pyridine's 6 atoms) has non-zero saliency on its
padding atoms (GGNN reads them out) while the last (glycine, 5 atoms) is padded with exact zeros;
`chainer_chemistry.utils.extend` imports `Iterable` from `collections`, which Python 3.10 removed, so the
script puts `collections.abc.Iterable` there before importing it.
"""


def _venv_python() -> str:
    """The Chainer Chemistry 0.7.1 interpreter: the benchmarks' ``chainer-chemistry`` venv, built on first use."""
    sys.path.insert(0, str(ROOT))
    from bench.environments import ensure

    return ensure("chainer-chemistry")


# the AVX-512 kernels of the peer's NumPy that its CPU supports, to be disabled (see _peer_env)
_AVX512_QUERY = ("from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__; "
                 "print(' '.join(f for f in __cpu_dispatch__ "
                 "if f.startswith('AVX512') and __cpu_features__[f]))")


def _peer_env(python: str) -> dict:
    """The environment the peer script runs in.

    The hash seed fixes set and dict orders that could leak into fixture entries. OpenBLAS and
    NumPy choose their float kernels by CPU, and their AVX-512 kernels round some float32 results
    differently in the last bits; the fixtures were written with the AVX2 ones, so OpenBLAS is
    pinned to its Haswell kernels and NumPy's AVX-512 loops are disabled (a CPU without AVX2
    cannot rewrite these bytes).
    """
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    avx512 = subprocess.run([str(python), "-c", _AVX512_QUERY], check=True, env=env,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    env.update(PYTHONHASHSEED="0", OPENBLAS_CORETYPE="Haswell")
    if avx512:
        env["NPY_DISABLE_CPU_FEATURES"] = avx512
    return env


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0]) if argv else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    python = _venv_python()
    result = subprocess.run([str(python), "-c", PEER_SCRIPT, str(out)], check=True,
                            env=_peer_env(python), stdout=subprocess.PIPE, text=True)
    versions = json.loads(result.stdout.strip().splitlines()[-1])
    shown = ", ".join(f"{name} {version}" for name, version in sorted(versions.items()))
    (out / "README.md").write_text(README.format(versions=shown))
    print("wrote", out, "with", shown)


if __name__ == "__main__":
    main()
