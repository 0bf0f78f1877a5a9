"""Multi-tensor fused GPU updates of Adam and MomentumSGD: one kernel launch for all the parameters.

Per-parameter updates cost Adam about ten CuPy launches per parameter (a ResNet-50 has 161
parameters); the fused kernels read a table of device pointers and update every element of every
parameter in one grid-stride loop, finding each element's tensor by a binary search over the
tensors' start offsets. The arithmetic is :class:`~kusari.optimizers.adam.AdamRule`'s and
:class:`~kusari.optimizers.momentum_sgd.MomentumSGDRule`'s, step for step.

A parameter takes the fused path when its rule is exactly the optimizer's rule class with no hooks,
no pending loss scale, its arrays contiguous float32/float64 CuPy arrays (float16 parameters go
through their rule and its float32 master copy) and (Adam) neither ``amsgrad`` nor ``adabound``;
every other parameter is updated by its rule.
"""
from __future__ import annotations

import numpy

from kusari import backend
from kusari._cuda_kernels import Raw, block_count

_FIND_TENSOR = """
    int lo = 0, hi = n_tensors;                      // offsets[lo] <= i < offsets[lo + 1]
    while (hi - lo > 1) {{
      const int mid = (lo + hi) / 2;
      if (offsets[mid] <= i) lo = mid; else hi = mid;
    }}
    const long long j = i - offsets[lo];
"""
_ADAM = """
extern "C" __global__ void kusari_fused_adam_{T}(const unsigned long long* ptrs, const long long* offsets,
    int n_tensors, long long total, {T} beta1, {T} beta2, {T} eps, {T} alpha_t, {T} weight_decay, {T} eta) {{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {{
""" + _FIND_TENSOR + """
    {T}* p = reinterpret_cast<{T}*>(ptrs[4 * lo]);
    const {T}* g = reinterpret_cast<const {T}*>(ptrs[4 * lo + 1]);
    {T}* m = reinterpret_cast<{T}*>(ptrs[4 * lo + 2]);
    {T}* v = reinterpret_cast<{T}*>(ptrs[4 * lo + 3]);
    const {T} gj = g[j];
    const {T} mj = m[j] + (gj - m[j]) * (({T})1 - beta1);
    const {T} vj = v[j] + (gj * gj - v[j]) * (({T})1 - beta2);
    m[j] = mj;
    v[j] = vj;
    {T} step = alpha_t / (sqrt(vj) + eps) * mj;
    if (weight_decay != ({T})0) step += weight_decay * p[j];
    p[j] -= step * eta;
  }}
}}
"""
_MOMENTUM_SGD = """
extern "C" __global__ void kusari_fused_momentum_sgd_{T}(const unsigned long long* ptrs,
    const long long* offsets, int n_tensors, long long total, {T} lr, {T} momentum) {{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {{
""" + _FIND_TENSOR + """
    {T}* p = reinterpret_cast<{T}*>(ptrs[3 * lo]);
    const {T}* g = reinterpret_cast<const {T}*>(ptrs[3 * lo + 1]);
    {T}* v = reinterpret_cast<{T}*>(ptrs[3 * lo + 2]);
    const {T} vj = v[j] * momentum - lr * g[j];
    v[j] = vj;
    p[j] += vj;
  }}
}}
"""
_TYPES = (("float32", "float"), ("float64", "double"))
adam_kernels = {d: Raw(f"kusari_fused_adam_{t}", _ADAM.format(T=t)) for d, t in _TYPES}
momentum_sgd_kernels = {d: Raw(f"kusari_fused_momentum_sgd_{t}", _MOMENTUM_SGD.format(T=t))
                        for d, t in _TYPES}
_BLOCK = 256


def _eligible(rule, rule_class, param) -> bool:
    data = param.array
    return (type(rule) is rule_class and rule.enabled and not rule._hooks and param._loss_scale is None
            and param._grad_var is not None and backend.is_gpu_array(data) and data.dtype.name in adam_kernels
            and data.flags.c_contiguous
            and param.grad.flags.c_contiguous and param.grad.dtype == data.dtype)


def _launch(kernels, groups, arrays_of, scalars_of):
    """One launch per group of (dtype, step, hyperparameters): the pointer table, offsets, then the kernel."""
    if not groups:
        return
    import cupy
    for (dtype, _), members in groups.items():
        ptrs = numpy.array([a.data.ptr for p, r in members for a in arrays_of(p, r)], numpy.uint64)
        offsets = numpy.cumsum([0] + [p.array.size for p, _ in members], dtype=numpy.int64)
        total = int(offsets[-1])
        if total == 0:
            continue
        t = numpy.dtype(dtype).type
        kernels[dtype]((block_count(total, _BLOCK),), (_BLOCK,),
                       (cupy.asarray(ptrs), cupy.asarray(offsets), numpy.int32(len(members)),
                        numpy.int64(total)) + tuple(t(s) for s in scalars_of(members[0][1])))


def _split(optimizer, params, accept, key):
    """The eligible parameters grouped by ``key(rule)``, their rules stepped; returns (groups, rest)."""
    groups, rest = {}, []
    if backend._cupy() is None:   # no GPU array can exist: the CPU step pays no per-parameter check
        return groups, params
    rule_class = optimizer._rule_class
    for param in params:
        rule = param.update_rule
        if rule is None:
            rule = param.update_rule = optimizer.create_update_rule()
        if not (_eligible(rule, rule_class, param) and accept(rule)):
            rest.append(param)
            continue
        rule.t += 1
        if rule._state is None:
            rule.ensure_state(param)
        groups.setdefault((param.array.dtype.name, key(rule)), []).append((param, rule))
    return groups, rest


def adam_update(optimizer, params) -> list:
    """Update the eligible ``params`` of an Adam optimizer in fused launches; returns the others."""
    def accept(rule):
        hp = rule.hyperparam
        # an eps that underflows in float32 goes to the rule, whose error names the parameter
        return not hp.amsgrad and not hp.adabound and (hp.eps == 0 or numpy.float32(hp.eps) != 0)

    def key(rule):
        hp = rule.hyperparam
        return rule.t, hp.alpha, hp.beta1, hp.beta2, hp.eps, hp.weight_decay_rate, hp.eta

    groups, rest = _split(optimizer, params, accept, key)
    _launch(adam_kernels, groups,
            lambda p, r: (p.array, p.grad, r.state["m"], r.state["v"]),
            lambda r: (r.hyperparam.beta1, r.hyperparam.beta2, r.hyperparam.eps, r.alpha_t,
                       r.hyperparam.weight_decay_rate, r.hyperparam.eta))
    return rest


def momentum_sgd_update(optimizer, params) -> list:
    """Update the eligible ``params`` of a MomentumSGD optimizer in fused launches; returns the others."""
    groups, rest = _split(optimizer, params, lambda rule: True,
                          lambda rule: (rule.hyperparam.lr, rule.hyperparam.momentum))
    _launch(momentum_sgd_kernels, groups, lambda p, r: (p.array, p.grad, r.state["v"]),
            lambda r: (r.hyperparam.lr, r.hyperparam.momentum))
    return rest
