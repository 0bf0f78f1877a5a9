"""NodeClassifier: a Classifier over the nodes of one graph, with train and validation masks."""
from kusari import reporter
from kusari.chem.models.prediction.classifier import Classifier


class NodeClassifier(Classifier):
    """``NodeClassifier(predictor)(data, train_mask, valid_mask)`` -> the loss on the train nodes.

    Reports ``loss(train)``, ``loss(valid)`` and each metric as ``<name>(train)`` and
    ``<name>(valid)``; the labels are ``data.y``.
    """

    def forward(self, data, train_mask, valid_mask, *args, **kwargs):
        """One graph's node predictions scored on the masked nodes.

        Parameters
        ----------
        data
            Graph data with node labels ``y``, shape (n_nodes,); what the predictor reads.
        train_mask, valid_mask : bool arrays, shape (n_nodes,)

        Returns
        -------
        kusari.Variable
            The loss on the train nodes, shape ().
        """
        self.metrics = None
        self.y = self.predictor(data)
        if self.y.ndim == 3:  # padded graphs come as a batch of one
            if self.y.shape[0] != 1:
                raise ValueError(f"NodeClassifier: a padded prediction must hold one graph, got "
                                 f"shape {self.y.shape}")
            self.y = self.y[0]
        self.train_loss = self.lossfun(self.y[train_mask], data.y[train_mask])
        self.valid_loss = self.lossfun(self.y[valid_mask], data.y[valid_mask])
        reporter.report({"loss(train)": self._convert_to_scalar(self.train_loss),
                         "loss(valid)": self._convert_to_scalar(self.valid_loss)}, self)
        if self.compute_metrics:
            self.train_metrics = self._masked_metrics(data.y, train_mask, "train")
            self.valid_metrics = self._masked_metrics(data.y, valid_mask, "valid")
            reporter.report(self.train_metrics, self)
            reporter.report(self.valid_metrics, self)
        return self.train_loss

    def _masked_metrics(self, t, mask, split: str) -> dict:
        return {f"{name}({split})": self._convert_to_scalar(fun(self.y[mask], t[mask]))
                for name, fun in self.metrics_fun.items()}
