"""Keyword-argument parsing helpers (Chainer's ``utils.argument``)."""


def check_unexpected_kwargs(kwargs: dict, **unexpected) -> None:
    """Raise ValueError with the given message for each keyword that must no longer be used."""
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs: dict, *name_and_values, **unexpected):
    """Pop each (name, default) pair from ``kwargs``; raise TypeError on anything left over."""
    values = [kwargs.pop(name, default) for name, default in name_and_values]
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        raise TypeError(f"got unexpected keyword argument(s) {', '.join(sorted(kwargs))}")
    return tuple(values)


def assert_kwargs_empty(kwargs: dict) -> None:
    if kwargs:
        raise TypeError(f"got unexpected keyword argument(s) {', '.join(sorted(kwargs))}")
