"""RelGATUpdate against a loop-by-loop NumPy reference of the attention, in both softmax modes."""
import numpy
import pytest
from kusari.chem.links import RelGATUpdate

RNG = numpy.random.RandomState(0)
MB, N, CH, E, HEADS, OUT = 2, 4, 3, 4, 2, 5
H = RNG.randn(MB, N, CH).astype(numpy.float32)
ADJ = (RNG.rand(MB, E, N, N) > 0.6).astype(numpy.float32)


def reference(link, h, adj):
    """Direct reading of Busbridge et al.: logits on concatenated pairs, masked softmax."""
    w_msg, b_msg = link.message_layer.W.array, link.message_layer.b.array
    w_att, b_att = link.attention_layer.W.array[0], link.attention_layer.b.array[0]
    m = (h @ w_msg.T + b_msg).reshape(MB, N, E, HEADS, OUT)
    logits = numpy.empty((MB, E, HEADS, N, N), numpy.float64)
    for b in range(MB):
        for e in range(E):
            for k in range(HEADS):
                for i in range(N):
                    for j in range(N):
                        x = w_att @ numpy.concatenate([m[b, j, e, k], m[b, i, e, k]]) + b_att
                        x = x if x > 0 else 0.2 * x
                        logits[b, e, k, i, j] = x if adj[b, e, i, j] else -10000.0
    if link.softmax_mode == "across":
        z = logits.transpose(0, 2, 3, 1, 4).reshape(MB, HEADS, N, E * N)
        z = numpy.exp(z - z.max(axis=3, keepdims=True))
        alpha = (z / z.sum(axis=3, keepdims=True)).reshape(MB, HEADS, N, E, N)
        alpha = alpha.transpose(0, 3, 1, 2, 4)
    else:
        z = numpy.exp(logits - logits.max(axis=4, keepdims=True))
        alpha = z / z.sum(axis=4, keepdims=True)
    out = numpy.einsum("behij,bjehc->bhic", alpha, m)  # (mb, head, node, out)
    if link.concat_heads:
        return out.transpose(0, 2, 1, 3).reshape(MB, N, HEADS * OUT)
    return out.mean(axis=1)


@pytest.mark.parametrize("softmax_mode", ["across", "within"])
@pytest.mark.parametrize("concat_heads", [False, True])
def test_matches_reference(softmax_mode, concat_heads):
    link = RelGATUpdate(CH, OUT, n_heads=HEADS, n_edge_types=E, softmax_mode=softmax_mode,
                        concat_heads=concat_heads)
    y = link(H, ADJ)
    assert y.dtype == numpy.float32
    assert y.shape == (MB, N, HEADS * OUT if concat_heads else OUT)
    numpy.testing.assert_allclose(y.array, reference(link, H, ADJ), rtol=1e-4, atol=1e-5)


def test_errors_name_the_link():
    with pytest.raises(ValueError, match="RelGATUpdate: softmax_mode"):
        RelGATUpdate(CH, OUT, softmax_mode="sideways")
    with pytest.raises(ValueError, match=r"RelGATUpdate: adj must have shape .*\(2, 4, 4, 4\)"):
        RelGATUpdate(CH, OUT, n_edge_types=E)(H, ADJ[:, 0])
