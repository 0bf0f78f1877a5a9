"""LeNet5: LeCun et al.'s 1998 convolutional network in its modern ReLU / max-pooling form."""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import serializers
from kusari.model_zoo import pretrained


class LeNet5(kusari.Chain):
    """conv5x5(6, pad 2) - pool - conv5x5(16) - pool - fc120 - fc84 - fc(n_class), ReLU between.

    The layer sizes are LeNet-5's (C1 6@28x28, C3 16@10x10, C5 120, F6 84); unlike the paper it
    uses ReLU instead of scaled tanh, 2x2 max pooling instead of trainable subsampling, full C3
    connectivity, a 28x28 input padded by 2 instead of 32x32 images, and a linear output
    trained with softmax cross-entropy instead of RBF units.

    Input ``(N, 1, 28, 28)``, output logits ``(N, n_class)``.

    Parameters
    ----------
    n_class : int
        number of classes; None means 10 or the pretrained entry's.
    pretrained_model
        None, a zoo key (``'lenet5-mnist'``) or a path to an NPZ of this model.
    """

    def __init__(self, n_class=None, pretrained_model=None):
        super().__init__()
        args, path = pretrained.resolve("LeNet5", pretrained_model, {"n_class": n_class},
                                        {"n_class": 10})
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 6, 5, pad=2)
            self.conv2 = L.Convolution2D(6, 16, 5)
            self.fc3 = L.Linear(16 * 5 * 5, 120)
            self.fc4 = L.Linear(120, 84)
            self.fc5 = L.Linear(84, args["n_class"])
        if path is not None:
            serializers.load_npz(path, self)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        h = F.relu(self.fc3(h))
        h = F.relu(self.fc4(h))
        return self.fc5(h)
