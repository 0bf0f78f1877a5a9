"""BinaryHierarchicalSoftmax: -log P(word | x) as a product of sigmoids along a binary tree (Morin & Bengio, 2005)."""
import heapq
import numbers

import numpy

from kusari import backend, initializers, utils
from kusari import functions as F
from kusari.link import Link
from kusari.variable import Parameter

_NAME = "BinaryHierarchicalSoftmax"


def _parse_tree(tree):
    """Paths of the leaves of ``tree`` and the children of its internal nodes.

    Internal nodes are numbered in preorder (Chainer's numbering, so trained weights carry over).
    Returns ``(paths, children)``: ``paths[word]`` is a list of (node, code) from the root, code +1
    towards the left child and -1 towards the right; ``children[node]`` is (left, right), each an
    internal node id or ``-(word + 1)`` for a leaf.
    """
    paths, children = {}, []
    stack = [(tree, [], None)]  # (subtree, path to it, (parent, side) to fill in), preorder
    while stack:
        node, path, slot = stack.pop()
        if isinstance(node, tuple):
            if len(node) != 2:
                raise ValueError(f"{_NAME}: every internal node of the tree must be a pair, got {node!r}")
            ref = len(children)
            children.append([None, None])
            stack.append((node[1], path + [(ref, -1.0)], (ref, 1)))
            stack.append((node[0], path + [(ref, 1.0)], (ref, 0)))
        else:
            if isinstance(node, bool) or not isinstance(node, numbers.Integral) or node < 0:
                raise ValueError(f"{_NAME}: tree leaves must be non-negative int word ids, got {node!r}")
            if node in paths:
                raise ValueError(f"{_NAME}: word {node} appears twice in the tree")
            paths[int(node)] = path
            ref = -(int(node) + 1)
        if slot is not None:
            children[slot[0]][slot[1]] = ref
    return paths, children


class BinaryHierarchicalSoftmax(Link):
    """Hierarchical softmax over a binary tree whose leaves are the words of a vocabulary.

    A word's probability is the product, over the internal nodes ``e`` on its path from the root,
    of ``sigmoid(code * W[e] . x)``, with code +1 where the path turns left and -1 where it turns
    right; the probabilities of all words sum to one. A path has O(log V) nodes on a balanced or
    Huffman tree (:meth:`create_huffman_tree`), against V classes for a softmax.

    Parameters
    ----------
    in_size : int
        Length of the input vectors.
    tree : nested pairs
        The binary tree as tuples, e.g. ``((0, 1), 2)``; leaves are word ids.
    dtype : float dtype of W (default ``config.dtype``)

    Attributes
    ----------
    W : Parameter of shape (number of internal nodes, in_size), initialized from U(-1, 1).
    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        paths, children = _parse_tree(tree)
        self.tree = tree
        self.in_size = int(in_size)
        self.n_vocab = max(paths) + 1
        depth = max((len(p) for p in paths.values()), default=0)
        # Per word: the internal nodes of its path and their codes, padded with code 0.
        self._paths = numpy.zeros((self.n_vocab, max(depth, 1)), numpy.int32)
        self._codes = numpy.zeros((self.n_vocab, max(depth, 1)), numpy.float64)
        self._in_tree = numpy.zeros(self.n_vocab, bool)
        for word, path in paths.items():
            self._in_tree[word] = True
            for j, (node, code) in enumerate(path):
                self._paths[word, j] = node
                self._codes[word, j] = code
        self._children = numpy.array(children, numpy.int32).reshape(len(children), 2)
        with self.init_scope():
            self.W = Parameter(initializers.Uniform(1, dtype), (len(children), self.in_size))

    @staticmethod
    def create_huffman_tree(word_counts):
        """A Huffman tree of ``word_counts`` (dict word id -> count): frequent words get short paths.

        Repeatedly joins the two least frequent subtrees; ties go to the one whose earliest word
        came first in ``word_counts``, as in Chainer, so the same counts give the same tree.
        """
        if len(word_counts) == 0:
            raise ValueError(f"{_NAME}.create_huffman_tree: word_counts is empty")
        heap = [(count, order, word) for order, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            count_a, order_a, a = heapq.heappop(heap)
            count_b, order_b, b = heapq.heappop(heap)
            heapq.heappush(heap, (count_a + count_b, min(order_a, order_b), (a, b)))
        return heap[0][2]

    def _check(self, x, t):
        """Validate ``x`` and ``t``; returns the word ids as an int64 array on the host."""
        utils.check_float(_NAME, "x", x)
        if x.ndim != 2 or x.shape[1] != self.in_size:
            raise ValueError(f"{_NAME}: x must have shape (N, {self.in_size}), got x.shape={tuple(x.shape)}")
        if x.dtype != self.W.dtype:
            raise TypeError(f"{_NAME}: x.dtype={x.dtype} must equal W.dtype={self.W.dtype}")
        if t.dtype.kind not in "iu" or t.shape != x.shape[:1]:
            raise ValueError(f"{_NAME}: t must be int word ids of shape ({x.shape[0]},), got "
                             f"t.shape={tuple(t.shape)}, t.dtype={t.dtype}")
        words = backend.to_cpu(t).astype(numpy.int64)
        bad = (words < 0) | (words >= self.n_vocab)
        bad[~bad] = ~self._in_tree[words[~bad]]
        if bad.any():
            unknown = sorted(set(words[bad].tolist()))
            raise ValueError(f"{_NAME}: t holds words that are not leaves of the tree: {unknown[:10]}")
        return words

    def forward(self, x, t):
        """x: (N, in_size), t: (N,) int word ids -> scalar: the sum over the batch of -log P(t | x).

        The word ids are read on the host to look up their paths (one copy from a GPU per call).
        """
        x_array = getattr(x, "array", x)
        t = getattr(t, "array", t)
        words = self._check(x_array, t)
        if len(self._children) == 0:  # a one-word tree: P(word | x) = 1
            return F.sum(x) * x_array.dtype.type(0)
        device = backend.get_device_from_array(x_array)
        codes = self._codes[words]
        paths = device.send(self._paths[words])
        mask = device.send((codes != 0).astype(x_array.dtype))
        codes = device.send(codes.astype(x_array.dtype))
        wx = F.sum(F.embed_id(paths, self.W) * F.expand_dims(x, 1), axis=2)  # (N, depth)
        return F.sum(F.softplus(-(codes * wx)) * mask)

    def sample(self, x):
        """Draw one word per row of ``x`` (N, in_size) from P(word | x); returns (N,) int32 word ids."""
        x = getattr(x, "array", x)
        utils.check_float(_NAME, "x", x)
        xp = backend.get_array_module(x)
        if len(self._children) == 0:  # a one-word tree
            return xp.full(x.shape[0], self.n_vocab - 1, numpy.int32)
        children = xp.asarray(self._children)
        node = xp.zeros(x.shape[0], numpy.int32)
        word = xp.full(x.shape[0], -1, numpy.int32)
        active = xp.ones(x.shape[0], bool)
        while bool(active.any()):
            score = (self.W.array[node] * x).sum(axis=1)
            p_left = 1 / (1 + xp.exp(-score))
            nxt = xp.where(xp.random.uniform(size=x.shape[0]) < p_left, children[node, 0], children[node, 1])
            reached = active & (nxt < 0)
            word = xp.where(reached, -nxt - 1, word)
            active &= ~reached
            node = xp.where(active, nxt, 0)
        return word.astype(numpy.int32)
