import numpy
import pytest

from kusari.chem.links.array.shape_transformer_to_2d import ShapeTransformerTo2D


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_round_trip_and_feature_columns(axis):
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    st = ShapeTransformerTo2D(axis=axis)
    h = st.transform(x).array
    n_feat = x.shape[axis]
    assert h.shape == (24 // n_feat, n_feat)
    # column j holds exactly the entries whose index on ``axis`` is j
    for j in range(n_feat):
        assert sorted(h[:, j].tolist()) == sorted(numpy.take(x, j, axis=axis).ravel().tolist())
    numpy.testing.assert_array_equal(st.inverse_transform(h).array, x)


def test_inverse_errors():
    st = ShapeTransformerTo2D()
    with pytest.raises(AttributeError, match="call transform first"):
        st.inverse_transform(numpy.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"x must be 2-d, got x.shape=\(2,\)"):
        st.inverse_transform(numpy.zeros(2))
