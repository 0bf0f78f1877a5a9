"""BaseParser and BaseFileParser: the parsers read molecules and run a preprocessor over them."""


class BaseParser:
    """Base class of the parsers."""


class BaseFileParser(BaseParser):
    """Base class of the parsers that feed each molecule of a source to ``preprocessor``.

    Parameters
    ----------
    preprocessor : BasePreprocessor
        Turns each molecule into features.
    """

    def __init__(self, preprocessor):
        self.preprocessor = preprocessor

    def parse(self, filepath):
        """Parse ``filepath``; subclasses define it."""
        raise NotImplementedError(f"{type(self).__name__}.parse is not implemented")
