"""GGNN with the padding mask updates only the real nodes: a padded batch gives each molecule's output
and gradients as the molecule alone (the rows ops' own tests: tests/chem/functions/array)."""
import numpy
import pytest

import kusari
from kusari.chem.models import GGNN


def _molecule(rng, n_atoms, n_edge_types=4):
    atoms = rng.randint(1, 10, n_atoms).astype(numpy.int32)
    adj = numpy.zeros((n_edge_types, n_atoms, n_atoms), numpy.float32)
    for i in range(1, n_atoms):          # a chain with random bond types
        adj[rng.randint(n_edge_types), i - 1, i] = adj[rng.randint(n_edge_types), i, i - 1] = 1
    return atoms, adj


def _padded(molecules, size):
    atoms = numpy.zeros((len(molecules), size), numpy.int32)
    adj = numpy.zeros((len(molecules), 4, size, size), numpy.float32)
    real = numpy.zeros((len(molecules), size), numpy.float32)
    for k, (a, e) in enumerate(molecules):
        n = len(a)
        atoms[k, :n], adj[k, :, :n, :n], real[k, :n] = a, e, 1
    return atoms, adj, real


@pytest.mark.parametrize("weight_tying", [True, False])
def test_masked_batch_equals_each_molecule_alone(weight_tying):
    rng = numpy.random.RandomState(3)
    molecules = [_molecule(rng, n) for n in (3, 6, 4)]
    numpy.random.seed(0)
    model = GGNN(out_dim=5, hidden_channels=6, n_update_layers=3, weight_tying=weight_tying)
    atoms, adj, real = _padded(molecules, 8)

    model.cleargrads()
    y = model(atoms, adj, real)
    assert model.update_layers[-1].update_layer.h.shape[0] == 3 + 6 + 4   # the GRU saw real nodes only
    kusari.functions.sum(y * y).backward()
    # without weight tying the first step's GRU has no state, so its U and W_r get no gradient
    batch_grads = {name: p.grad.copy() for name, p in model.namedparams() if p.grad is not None}

    alone, alone_grads = [], {name: 0 for name in batch_grads}
    for a, e in molecules:
        model.cleargrads()
        y1 = model(a[None], e[None], numpy.ones((1, len(a)), numpy.float32))
        kusari.functions.sum(y1 * y1).backward()
        alone.append(y1.array[0])
        for name, p in model.namedparams():
            if name in batch_grads:
                alone_grads[name] = alone_grads[name] + p.grad
    numpy.testing.assert_allclose(y.array, numpy.stack(alone), rtol=1e-5, atol=1e-6)
    for name, g in batch_grads.items():
        numpy.testing.assert_allclose(g, alone_grads[name], rtol=1e-4, atol=1e-5, err_msg=name)


def test_mask_of_another_shape_is_refused():
    rng = numpy.random.RandomState(4)
    atoms, adj, real = _padded([_molecule(rng, 3), _molecule(rng, 5)], 6)
    numpy.random.seed(0)
    model = GGNN(out_dim=2, hidden_channels=4, n_update_layers=2)
    with pytest.raises(ValueError, match=r"is_real_node must have shape \(minibatch, node\) = \(2, 6\), got \(2, 5\)"):
        model(atoms, adj, real[:, :5])
