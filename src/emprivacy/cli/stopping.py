"""What a stopped command was doing: an interrupt found inside another exception
(:func:`~emprivacy.exceptions.interrupt_inside`, where a corpus run reads it too)."""

from __future__ import annotations

from emprivacy.exceptions import interrupt_inside

__all__ = ["interrupt_inside"]
