"""The evaluators against Chainer Chemistry 0.7.1: each case of evaluators.npz, key and value exactly.

tools/make_chemistry_fixture.py called each evaluator (no trainer) on fixed predictions and labels
served in batches of 5 by a link returning its input (see tests/chem/fixtures/README.md).
"""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.training import extensions

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "models" / "evaluators.npz"


def _cases():
    if not FIXTURE.exists():
        return [pytest.param(None, id="evaluators-missing")]
    with numpy.load(FIXTURE) as z:
        return [pytest.param(k[:-len("/call")], id=k[:-len("/call")])
                for k in z.files if k.endswith("/call")]


def _entry(z, reference: str) -> numpy.ndarray:
    assert reference.startswith("<entry ") and reference.endswith(">"), reference
    return z[reference[len("<entry "):-1]]


@pytest.mark.parametrize("case", _cases())
def test_evaluator_matches_chainer_chemistry(case, run_evaluator):
    if case is None:
        pytest.skip(f"Chainer Chemistry fixture {FIXTURE} is missing")
    with numpy.load(FIXTURE) as z:
        call = json.loads(str(z[f"{case}/call"]))
        y, t = _entry(z, call["y"]), _entry(z, call["t"])
        key, value = str(z[f"{case}/key"]), z[f"{case}/value"]
    assert call["called"] == "evaluator() (no trainer)"
    assert call["iterator"].startswith("SerialIterator(NumpyTupleDataset(y, t), 5,")
    observation = run_evaluator(getattr(extensions, call["evaluator"]), y, t, batch_size=5,
                                **call["kwargs"])
    assert list(observation) == [key]
    got = numpy.asarray(observation[key])
    assert got.dtype == value.dtype
    assert got.shape == value.shape
    numpy.testing.assert_array_equal(got, value)
