"""OnceTrigger: fires exactly once (optionally once more after a resume)."""


class OnceTrigger:
    """Fires on its first call only; with ``call_on_resume=True`` also on the first call after a resume.

    ``finished`` is True once it has fired, so the Trainer skips the extension's ``initialize``.
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self) -> bool:
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer) -> bool:
        fire = not self.finished
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        self._flag_first = bool(serializer("_flag_first", self._flag_first))
