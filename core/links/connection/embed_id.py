"""EmbedID: a lookup table from integer IDs to learned vectors."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class EmbedID(Link):
    """Embedding: int IDs of any shape S -> vectors of shape S + (out_size,).

    W has shape (in_size, out_size), default initializer Normal(1.0); IDs equal to
    ``ignore_label`` map to zero vectors.
    """

    ignore_label = None

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """An EmbedID holding a copy of ``W`` (in_size, out_size) (an array or a Variable)."""
        W = getattr(W, "array", W)
        return cls(*W.shape, initialW=W, ignore_label=ignore_label)

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW), (in_size, out_size))

    def forward(self, x):
        """x: int array of shape S -> Variable of shape S + (out_size,)."""
        return F.embed_id(x, self.W, ignore_label=self.ignore_label)
