import numpy
import pytest

import kusari.functions as F
from kusari import testing

K = 3
DELTA_V, DELTA_D = 0.3, 1.0
WEIGHTS = (1.0, 0.5, 0.01)


def _norm(v, norm):
    return numpy.abs(v).sum() if norm == 1 else numpy.sqrt((v ** 2).sum())


@testing.parameterize(*testing.product({
    "norm": [1, 2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDiscriminativeLoss(testing.FunctionTestCase):
    def generate_inputs(self):
        emb = numpy.random.uniform(-1, 1, (2, K, 4, 5)).astype(self.dtype)
        # Instance 3 is absent: its mean is 0 and it still enters the push and regularization terms.
        labels = numpy.random.randint(0, K, (2, 4, 5)).astype(numpy.int32)
        return emb, labels

    def forward(self, inputs, device):
        emb, labels = inputs
        return F.discriminative_margin_based_clustering_loss(
            emb, labels, DELTA_V, DELTA_D, K, norm=self.norm,
            alpha=WEIGHTS[0], beta=WEIGHTS[1], gamma=WEIGHTS[2])

    def forward_expected(self, inputs):
        emb, labels = inputs
        emb = emb.astype(numpy.float64)
        n_batch = emb.shape[0]
        means = numpy.zeros((K, n_batch, K))
        l_var = 0.0
        for c in range(K):
            pulled, n_pixels = 0.0, 0
            for b in range(n_batch):
                pixels = emb[b][:, labels[b] == c + 1].T
                if len(pixels):
                    means[c, b] = pixels.mean(axis=0)
                for p in pixels:
                    pulled += max(_norm(means[c, b] - p, self.norm) - DELTA_V, 0) ** 2
                n_pixels += len(pixels)
            l_var += pulled / max(n_pixels, 1)
        l_var /= K
        pairs = [(a, c) for a in range(K) for c in range(a + 1, K)]
        l_dist = sum(max(2 * DELTA_D - _norm(means[a, b] - means[c, b], self.norm), 0) ** 2
                     for a, c in pairs for b in range(n_batch)) / (len(pairs) * n_batch)
        l_reg = sum(_norm(means[c], self.norm) for c in range(K)) / (K * n_batch)
        return tuple(numpy.asarray(w * v).astype(self.dtype)
                     for w, v in zip(WEIGHTS, (l_var, l_dist, l_reg)))


def test_embedding_dim_mismatch_rejected():
    with pytest.raises(ValueError, match=r"discriminative_margin_based_clustering_loss: max_embedding_dim=4 must be positive and equal embeddings.shape\[1\]=3"):
        F.discriminative_margin_based_clustering_loss(
            numpy.zeros((1, 3, 2, 2), numpy.float32), numpy.zeros((1, 2, 2), numpy.int32), 0.5, 1.5, 4)


def test_label_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"discriminative_margin_based_clustering_loss: labels.shape=\(1, 2, 3\) does not match \(batch, height, width\)=\(1, 2, 2\)"):
        F.discriminative_margin_based_clustering_loss(
            numpy.zeros((1, 3, 2, 2), numpy.float32), numpy.zeros((1, 2, 3), numpy.int32), 0.5, 1.5, 3)


def test_bad_norm_rejected():
    with pytest.raises(ValueError, match="discriminative_margin_based_clustering_loss: norm must be 1 or 2, got 3"):
        F.discriminative_margin_based_clustering_loss(
            numpy.zeros((1, 3, 2, 2), numpy.float32), numpy.zeros((1, 2, 2), numpy.int32), 0.5, 1.5, 3, norm=3)


def test_embeddings_must_be_4d():
    with pytest.raises(ValueError, match="discriminative_margin_based_clustering_loss: embeddings must be 4-dimensional, got 3"):
        F.discriminative_margin_based_clustering_loss(
            numpy.zeros((3, 2, 2), numpy.float32), numpy.zeros((1, 2, 2), numpy.int32), 0.5, 1.5, 3)
