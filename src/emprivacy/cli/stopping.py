"""What a stopped command was doing: an interrupt found inside another exception."""

from __future__ import annotations

__all__ = ["interrupt_inside"]


def interrupt_inside(exc: BaseException) -> bool:
    """Whether a :class:`KeyboardInterrupt` is what caused ``exc``, through its chain of
    causes (Python wraps an exception raised while a class is made, as in a dataclass of a
    module imported lazily, in a :class:`RuntimeError`).

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as inner:
    ...         raise RuntimeError("Error calling __set_name__") from inner
    ... except RuntimeError as outer:
    ...     interrupt_inside(outer), interrupt_inside(ValueError("x"))
    (True, False)
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
