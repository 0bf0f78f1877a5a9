"""get_qm9 on a tiny archive in QM9's format (written here), served from a loopback HTTP server."""
import importlib.util
import io
import pathlib
import tarfile

import numpy
import pytest

pytest.importorskip("rdkit")
pandas = pytest.importorskip("pandas")

from kusari.chem.dataset.preprocessors import GGNNPreprocessor
from kusari.chem.datasets.qm9 import get_qm9, get_qm9_filepath, get_qm9_label_names

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures",
    pathlib.Path(__file__).parents[2] / "core" / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
dataset_root = _fixtures.dataset_root
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet

# (file name, atoms, 15 properties, SMILES pair) in QM9's XYZ layout: atom count; 'gdb N' and the
# properties, tab-separated; one line per atom; harmonic frequencies; the two SMILES; the InChIs
MOLECULES = [
    ("dsgdb9nsd_000003.xyz", ["O", "H", "H"],
     [799.58812, 437.90386, 282.94545, 1.8511, 6.31, -0.2928, 0.0687, 0.3615, 19.0002, 0.021375,
      -76.404702, -76.401867, -76.400922, -76.422349, 6.002], ("O", "O")),
    ("dsgdb9nsd_000001.xyz", ["C", "H", "H", "H", "H"],
     [157.7118, 157.70997, 157.70699, 0.0, 13.21, -0.3877, 0.1171, 0.5048, 35.3641, 0.044749,
      -40.47893, -40.476062, -40.475117, -40.498597, 6.469], ("C", "C")),
    ("dsgdb9nsd_000002.xyz", ["N", "H", "H", "H"],
     [293.60975, 293.54111, 191.39397, 1.6256, 9.46, -0.257, 0.0829, 0.3399, 26.1563, 0.034358,
      -56.525887, -56.523026, -56.522082, -56.544961, 6.316], ("N", "N")),
]


def _xyz(index, atoms, properties, smiles) -> bytes:
    lines = [str(len(atoms)), "\t".join([f"gdb {index}"] + [repr(p) for p in properties]) + "\t"]
    # a Mathematica-style exponent, as the real files have in coordinates
    lines += [f"{a}\t-1.2*^-6\t0.5\t{0.1 * i:.4f}\t-0.1" for i, a in enumerate(atoms)]
    lines += ["1341.307\t1341.3284\t3162.0", "\t".join(smiles), "InChI=1S/x\tInChI=1S/x"]
    return ("\n".join(lines) + "\n").encode("ascii")


@pytest.fixture
def served(tmp_path, dataset_root, http_server, monkeypatch):
    folder = tmp_path / "served"
    folder.mkdir()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:bz2") as tar:
        for i, (name, atoms, properties, smiles) in enumerate(MOLECULES):
            data = _xyz(i + 1, atoms, properties, smiles)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (folder / "dsgdb9nsd.xyz.tar.bz2").write_bytes(buffer.getvalue())
    server = http_server(folder)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    return server


def _in_file_name_order():
    return sorted(MOLECULES, key=lambda m: m[0])


def test_get_qm9_reads_every_property_in_file_name_order(served):
    dataset, smiles = get_qm9(return_smiles=True)
    assert "/dsgdb9nsd.xyz.tar.bz2" in served.hits
    atoms, labels = dataset.get_datasets()
    assert labels.dtype == numpy.float32 and labels.shape == (3, 15)
    numpy.testing.assert_array_equal(labels, numpy.array([m[2] for m in _in_file_name_order()],
                                                         dtype=numpy.float32))
    assert list(smiles) == ["C", "N", "O"]
    assert [list(a) for a in atoms] == [[6], [7], [8]]
    table = pandas.read_csv(get_qm9_filepath(), index_col=0)
    assert list(table.columns) == ["SMILES1", "SMILES2"] + get_qm9_label_names()


def test_labels_and_preprocessor_are_chosen(served):
    dataset = get_qm9(GGNNPreprocessor(), labels="U0", target_index=[0, 2])
    _, adjacency, labels = dataset.get_datasets()
    assert labels.shape == (2, 1)  # rows 0 and 2 of the table: methane and water
    numpy.testing.assert_array_equal(labels[:, 0], numpy.array([-40.47893, -76.404702], dtype=numpy.float32))
    assert adjacency[1].shape == (4, 1, 1)  # GGNN's (bond types, atoms, atoms) of water's lone O


def test_the_table_is_built_once_and_rebuilt_when_corrupt(served):
    get_qm9()
    hits = len(served.hits)
    path = get_qm9_filepath()
    get_qm9_filepath()
    assert len(served.hits) == hits  # nothing fetched again
    with open(path, "w") as f:
        f.write("not,a,qm9,table\n")
    with pytest.warns(UserWarning, match="rebuilding"):
        get_qm9_filepath()
    assert list(pandas.read_csv(path, index_col=0).columns) == ["SMILES1", "SMILES2"] + get_qm9_label_names()


def test_a_malformed_xyz_file_is_named(tmp_path, dataset_root, http_server, monkeypatch):
    folder = tmp_path / "served"
    folder.mkdir()
    with tarfile.open(folder / "dsgdb9nsd.xyz.tar.bz2", "w:bz2") as tar:
        data = b"3\ngdb 1\t1.0\t2.0\n"
        info = tarfile.TarInfo("dsgdb9nsd_000001.xyz")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", http_server(folder).url)
    with pytest.raises(ValueError, match=r"dsgdb9nsd_000001\.xyz"):
        get_qm9_filepath()
