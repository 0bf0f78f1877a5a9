"""Write the Chainer Chemistry 0.7.1 data-side fixtures used by the tests under tests/chem/.

Run ``python tools/make_chemistry_fixture.py`` (with the repository's ``.venv`` Python). It creates (once) a
Python 3.11 virtual environment under ``kusari_home()/chainer-chemistry-0.7.1-venv`` holding NumPy 1.23.5,
Chainer 7.8.1, RDKit 2026.3.6 and Chainer Chemistry 0.7.1 (installed with ``--no-deps``: its own list is
unpinned and names the obsolete ``typing`` backport, so its real dependencies are pinned by hand below),
then runs a script in it that writes, from a fixed hand-written list of 16 SMILES and two float32 label columns drawn
from a fixed seed:

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
- ``README.md``: what each file holds, the versions used and this command.

into ``tests/chem/fixtures/`` (or the directory given as the first argument). Every npz written by the
script (not by Chainer Chemistry) stores a ``versions`` JSON entry and fixed zip timestamps, so a re-run
rewrites identical bytes.
"""
import json
import os
import pathlib
import subprocess
import sys

from kusari.utils import kusari_home

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "chem" / "fixtures"
VENV_NAME = "chainer-chemistry-0.7.1-venv"

# Chainer Chemistry 0.7.1's setup.py dependencies, pinned to the newest releases that still work with
# NumPy 1.23.5 on Python 3.11 ('typing' is in the standard library and is left out)
PEER_DEPENDENCIES = [
    "numpy==1.23.5", "joblib==1.6.0", "pandas==2.0.3", "scikit-learn==1.3.2", "scipy==1.11.4",
    "tqdm==4.70.1", "matplotlib==3.8.4", "rdkit==2026.3.6",
]

PEER_SCRIPT = r'''
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
import chainer_chemistry
import pandas
import rdkit
from rdkit import Chem, RDLogger
from chainer_chemistry.dataset.parsers import CSVFileParser, SmilesParser
from chainer_chemistry.dataset.preprocessors import (
    GGNNPreprocessor, MolFeatureExtractionError, NFPPreprocessor, preprocess_method_dict)
from chainer_chemistry.dataset.preprocessors.wle import (
    apply_cwle_for_datasets, apply_wle_for_datasets, findmaxidx)
from chainer_chemistry.dataset.splitters import (
    DeepChemScaffoldSplitter, RandomSplitter, ScaffoldSplitter, StratifiedSplitter, TimeSplitter)
from chainer_chemistry.datasets import NumpyTupleDataset

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


csv_path = write_molecules_csv()
write_parsers(csv_path)
write_preprocessors(csv_path)
write_splitters()
write_wle(csv_path)
write_numpy_tuple_datasets(csv_path)
print(json.dumps(VERSIONS, sort_keys=True))
'''

README = """# Chainer Chemistry 0.7.1 fixtures (data side)

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

Every npz written by the script itself holds a `versions` entry (JSON); none of them needs `allow_pickle`.

Upstream behaviours recorded as they are (parity means reproducing them): parsed labels are float64 (pandas'
dtype, not cast); `relgcn_sparse` (`GGNNSparsePreprocessor.construct_sparse_data`) writes the source atom into
both rows of `edge_index`; `weavenet` pair features index atom pairs as `i * n_atoms + j` inside rows padded
to `max_atoms ** 2`; the `*_gwm` supernode features count the self-connections in the edge count; `megnet`
rejects atoms outside H, C, N, O, F.
"""


def _venv_python() -> pathlib.Path:
    """The peer venv's Python, built on first use; pip re-runs until the build finishes once."""
    env_dir = pathlib.Path(kusari_home()) / VENV_NAME
    python = env_dir / "bin" / "python"
    done = env_dir / ".complete"
    if not done.exists():
        if not python.exists():
            subprocess.run(["python3.11", "-m", "venv", str(env_dir)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q"]
        subprocess.run(pip + ["setuptools<70", "wheel", "numpy==1.23.5"], check=True)
        subprocess.run(pip + ["--no-build-isolation", "chainer==7.8.1"], check=True)
        subprocess.run(pip + PEER_DEPENDENCIES, check=True)
        subprocess.run(pip + ["--no-deps", "chainer-chemistry==0.7.1"], check=True)
        done.touch()
    return python


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0]) if argv else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    # the peer's hash seed fixes set and dict orders that could leak into fixture entries
    env = dict(os.environ, PYTHONHASHSEED="0")
    result = subprocess.run([str(_venv_python()), "-c", PEER_SCRIPT, str(out)], check=True, env=env,
                            stdout=subprocess.PIPE, text=True)
    versions = json.loads(result.stdout.strip().splitlines()[-1])
    shown = ", ".join(f"{name} {version}" for name, version in sorted(versions.items()))
    (out / "README.md").write_text(README.format(versions=shown))
    print("wrote", out, "with", shown)


if __name__ == "__main__":
    main()
