"""GeneralReadout, GGNNReadout, NFPReadout, SchNetReadout, Set2Set and MPNNReadout."""
import numpy
import pytest
from kusari.chem.links import (
    GeneralReadout,
    GGNNReadout,
    MPNNReadout,
    NFPReadout,
    SchNetReadout,
    Set2Set,
)

RNG = numpy.random.RandomState(0)
H = RNG.randn(2, 5, 3).astype(numpy.float32)
REAL = numpy.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], numpy.float32)


@pytest.mark.parametrize("mode, expected", [
    ("sum", H.sum(axis=1)), ("max", H.max(axis=1)),
    ("summax", numpy.concatenate([H.sum(axis=1), H.max(axis=1)], axis=1))])
def test_general_readout(mode, expected):
    numpy.testing.assert_allclose(GeneralReadout(mode)(H).array, expected, rtol=1e-6)


def test_general_readout_rejects_unknown_mode():
    with pytest.raises(ValueError, match="GeneralReadout: mode"):
        GeneralReadout("mean")


def test_ggnn_readout_gates_and_masks_padding_nodes():
    readout = GGNNReadout(out_dim=4, in_channels=6)
    h0 = RNG.randn(2, 5, 3).astype(numpy.float32)
    hh = numpy.concatenate([H, h0], axis=2)
    i = hh @ readout.i_layer.W.array.T + readout.i_layer.b.array
    j = hh @ readout.j_layer.W.array.T + readout.j_layer.b.array
    g = (1 / (1 + numpy.exp(-i))) * j * REAL[:, :, None]
    y = readout(H, h0, REAL)
    assert y.shape == (2, 4) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, g.sum(axis=1), rtol=1e-5, atol=1e-6)


def test_nfp_readout_sums_one_softmax_per_real_atom():
    y = NFPReadout(out_dim=4, in_channels=3)(H, REAL).array
    numpy.testing.assert_allclose(y.sum(axis=1), REAL.sum(axis=1), rtol=1e-5)


def test_schnet_readout_shape():
    y = SchNetReadout(out_dim=2, hidden_channels=4)(H)
    assert y.shape == (2, 2) and y.dtype == numpy.float32


def test_set2set_steps_keep_state_until_reset():
    s2s = Set2Set(in_channels=3)
    first = s2s(H).array
    second = s2s(H).array
    assert first.shape == (2, 6) and first.dtype == numpy.float32
    assert not numpy.allclose(first, second)
    s2s.reset_state()
    numpy.testing.assert_allclose(s2s(H).array, first, rtol=1e-6)
    with pytest.raises(ValueError, match="Set2Set: h has 4 channels"):
        s2s(numpy.zeros((2, 5, 4), numpy.float32))


def test_mpnn_readout_is_deterministic_per_call():
    readout = MPNNReadout(out_dim=2, in_channels=3, processing_steps=2)
    y1, y2 = readout(H).array, readout(H).array
    assert y1.shape == (2, 2)
    numpy.testing.assert_array_equal(y1, y2)
    with pytest.raises(ValueError, match="processing_steps"):
        MPNNReadout(out_dim=2, in_channels=3, processing_steps=0)


def test_set2set_a_refused_step_leaves_its_state():
    """A batch of another size is refused before the LSTM state moves; the next good step gives
    what it would have given without the refused one."""
    h = numpy.random.RandomState(0).randn(2, 4, 3).astype(numpy.float32)
    faulty, twin = Set2Set(in_channels=3), Set2Set(in_channels=3)
    twin.copyparams(faulty)
    faulty(h), twin(h)
    with pytest.raises(ValueError, match=r"Set2Set: h holds 5 graphs but the state \(from the last call\) 2"):
        faulty(numpy.zeros((5, 4, 3), numpy.float32))
    numpy.testing.assert_array_equal(faulty(h).array, twin(h).array)
    numpy.testing.assert_array_equal(faulty.hx.array, twin.hx.array)
    faulty.reset_state()
    assert faulty(numpy.zeros((5, 4, 3), numpy.float32)).shape == (5, 6)
