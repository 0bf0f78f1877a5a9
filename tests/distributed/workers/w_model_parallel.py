"""Worker: differentiable communication, MultiNodeChainList and MultiNodeBatchNormalization against
one-process equivalents (run by test_model_parallel)."""
import numpy as np

import kusari
import kusari.distributed as chainermn
import kusari.functions as F
import kusari.links as L
from kusari import optimizers

from _common import MLP, toy_dataset

comm = chainermn.create_communicator("naive")
r, n = comm.rank, comm.size
assert n == 2
D = chainermn.functions


def close(a, b, what, tol=1e-6):
    a, b = np.asarray(getattr(a, "array", a)), np.asarray(getattr(b, "array", b))
    assert a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol), f"{what}: {a} != {b}"


# --- 1. MultiNodeChainList: l1 on rank 0, l2 on rank 1, the loss on rank 0 == one process
class Stage0(kusari.Chain):
    def __init__(self, full):
        super().__init__()
        with self.init_scope():
            self.l1 = full.l1.copy("copy")

    def forward(self, x):
        return F.relu(self.l1(x))


class Identity(kusari.Chain):
    def forward(self, y):
        return y


class Stage1(kusari.Chain):
    def __init__(self, full):
        super().__init__()
        with self.init_scope():
            self.l2 = full.l2.copy("copy")

    def forward(self, h):
        return self.l2(h)


full = MLP()
if r == 0:
    part = chainermn.MultiNodeChainList(comm)
    part.add_link(Stage0(full), rank_in=None, rank_out=1)
    part.add_link(Identity(), rank_in=1, rank_out=None)
    model = L.Classifier(part)
else:
    model = chainermn.MultiNodeChainList(comm)
    model.add_link(Stage1(full), rank_in=0, rank_out=0)
optimizer = optimizers.MomentumSGD(lr=0.1).setup(model)
reference = L.Classifier(MLP())
ref_opt = optimizers.MomentumSGD(lr=0.1).setup(reference)
data = toy_dataset()
for step in range(8):
    x, t = kusari.dataset.concat_examples(data[step * 8:(step + 1) * 8])
    if r == 0:
        optimizer.update(model, x, t)
    else:
        optimizer.update(model)
    ref_opt.update(reference, x, t)
if r == 0:
    close(model.predictor[0].l1.W, reference.predictor.l1.W, "l1.W")
    close(model.predictor[0].l1.b, reference.predictor.l1.b, "l1.b")
else:
    close(model[0].l2.W, reference.predictor.l2.W, "l2.W")
    close(model[0].l2.b, reference.predictor.l2.b, "l2.b")

# --- 2. send/recv/pseudo_connect: rank 0's x feeds its own loss and rank 1's
x = kusari.Variable(np.arange(3.0))
if r == 0:
    delegate = D.send(x * 2, comm, 1)
    own = F.sum(x * x)
    D.pseudo_connect(delegate, own).backward()
    close(x.grad, 2 * x.array + 2 * 3.0, "send grad")   # d/dx [x.x] + 2 * d/d(2x) [3 * sum(2x)]
else:
    y = D.recv(comm, 0)
    F.sum(3.0 * y).backward()

# --- 3. collectives: each rank backpropagates sum_k c[r, k] * sum(output k); the grads are the adjoints
c = np.array([[1.0, 2.0], [3.0, 5.0]])
x = kusari.Variable(np.full((2,), float(r + 1)))
ys = D.allgather(comm, x)
close(ys[1 - r], np.full(2, 2.0 - r), "allgather forward")
sum(c[r, k] * F.sum(ys[k]) for k in range(n)).backward()
close(x.grad, np.full(2, c[:, r].sum()), "allgather grad")

x = kusari.Variable(np.full((2,), float(r + 1)))
ys = D.alltoall(comm, (x * 1.0, x * 10.0))
close(ys[1 - r], np.full(2, (2.0 - r) * (10.0 if r == 1 else 1.0)), "alltoall forward")
sum(c[r, k] * F.sum(ys[k]) for k in range(n)).backward()
close(x.grad, np.full(2, c[0, r] + 10 * c[1, r]), "alltoall grad")

x = kusari.Variable(np.arange(4.0))
y = D.bcast(comm, x if r == 0 else None)
close(y, np.arange(4.0), "bcast forward")
F.sum(y * (r + 1.0)).backward()
if r == 0:
    close(x.grad, np.full(4, 3.0), "bcast grad")

x = kusari.Variable(np.full((3,), float(r)))
out = D.gather(comm, x)
if r == 0:
    close(out[1], np.ones(3), "gather forward")
    (F.sum(out[0]) * 2.0 + F.sum(out[1]) * 7.0).backward()
else:
    out.backward()
close(x.grad, np.full(3, [2.0, 7.0][r]), "gather grad")

xs = [kusari.Variable(np.full((2,), 10.0 * k)) for k in range(n)]
y = D.scatter(comm, xs if r == 0 else None)
close(y, np.full(2, 10.0 * r), "scatter forward")
F.sum(y * (r + 4.0)).backward()
if r == 0:
    close(xs[0].grad, np.full(2, 4.0), "scatter grad 0")
    close(xs[1].grad, np.full(2, 5.0), "scatter grad 1")

# --- 4. MultiNodeBatchNormalization == BatchNormalization on the concatenated batch
rng = np.random.RandomState(0)
X = rng.randn(8, 3, 2, 2) * 3 + 1
W = rng.randn(8, 3, 2, 2)
gamma0, beta0 = rng.rand(3) + 0.5, rng.randn(3)
mine = slice(r * 3, 8) if r == 1 else slice(0, 3)   # unequal halves: 3 and 5 examples
bn = L.BatchNormalization(3, dtype=np.float64)
mnbn = chainermn.links.MultiNodeBatchNormalization(3, comm, dtype=np.float64)
for link in (bn, mnbn):
    link.gamma.array[...] = gamma0
    link.beta.array[...] = beta0
xg = kusari.Variable(X.copy())
y_whole = bn(xg)
F.sum(y_whole * W).backward()
xl = kusari.Variable(X[mine].copy())
yl = mnbn(xl)
F.sum(yl * W[mine]).backward()
close(yl, y_whole.array[mine], "mnbn forward", 1e-10)
close(xl.grad, xg.grad[mine], "mnbn x grad", 1e-10)
close(comm.allreduce(mnbn.gamma.grad), bn.gamma.grad, "mnbn gamma grad", 1e-10)
close(comm.allreduce(mnbn.beta.grad), bn.beta.grad, "mnbn beta grad", 1e-10)
close(mnbn.avg_mean, bn.avg_mean, "mnbn running mean", 1e-10)
close(mnbn.avg_var, bn.avg_var, "mnbn running var", 1e-10)
with kusari.using_config("train", False):
    close(mnbn(X[mine]), bn(X[mine]), "mnbn inference", 1e-10)

net = kusari.Sequential(L.Convolution2D(3, 4, 1), L.BatchNormalization(4), F.relu)
net[1].gamma.array[...] = 2.0
converted = chainermn.links.create_mnbn_model(net, comm)
assert type(converted[1]) is chainermn.links.MultiNodeBatchNormalization and type(net[1]) is L.BatchNormalization
assert (converted[1].gamma.array == 2.0).all() and converted[1].gamma is not net[1].gamma


class WithBN(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.bn = L.BatchNormalization(4)
            self.body = kusari.Sequential(L.BatchNormalization(4))


chain = chainermn.links.create_mnbn_model(WithBN(), comm)
assert type(chain.bn) is type(chain.body[0]) is chainermn.links.MultiNodeBatchNormalization
assert [name for name, _ in chain.namedparams()] == ["/bn/gamma", "/bn/beta", "/body/0/gamma", "/body/0/beta"]
print("w_model_parallel.py ok", flush=True)
