"""BaseVisualizer: the interface of the saliency visualizers."""


class BaseVisualizer:
    """A saliency visualizer; subclasses implement :meth:`visualize`."""

    def visualize(self, *args, **kwargs):
        """Draw a saliency array (to a file or the screen)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement visualize")
