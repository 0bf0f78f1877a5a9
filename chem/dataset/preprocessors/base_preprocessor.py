"""BasePreprocessor: the root of the preprocessors, which turn raw data into model input features."""


class BasePreprocessor:
    """Base class of the preprocessors; :class:`MolPreprocessor` is the one the parsers use."""

    def process(self, filepath):
        """Preprocess the whole file ``filepath`` (for preprocessors that read files themselves)."""
        raise NotImplementedError(f"{type(self).__name__}.process is not implemented")
