"""The upper bounds of the command line's numbers, each declared once beside its option with
its unit and the reason for it (issue 44, item 2).

An option's lower bound is typer's ``min=``; its upper bound is the callback
:func:`at_most` gives, so that an absurd count (``--vocab-size 99999999999999999999``)
is one line naming the option, the bound, its unit and why, before any work — never a
traceback from deep inside (``islice``, an allocation of 29 TiB).  ``--workers`` and
``--jobs`` above this machine's cores are not an error: :func:`capped_to_cores` warns and
uses the cores.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import typer

__all__ = ["MAX_BAG_SIZE", "MAX_COUNT", "MAX_DIM", "MAX_DRAWS", "MAX_TRIALS", "MAX_VOCAB_WORDS",
           "MAX_WORDS", "at_most", "bag_size", "capped_to_cores", "dimension", "draws",
           "vocabulary_words"]

#: ``emprivacy.math.MAX_BAG_SIZE`` and ``MAX_DIM`` (the guarantees' own bounds), written out:
#: ``--help`` must not import the numerical stack (tests/test_cli_limits.py checks they agree).
MAX_BAG_SIZE = 10_000_000
MAX_DIM = 100_000
#: The most words an embeddings vocabulary may keep: the largest public embeddings hold a
#: few million (word2vec GoogleNews 3M, fastText crawl 2M).
MAX_VOCAB_WORDS = 10_000_000
#: The most secret words, listed words or words drawn: no vocabulary holds more.
MAX_WORDS = MAX_VOCAB_WORDS
#: The most releases drawn per word: 10 million already takes hours per word.
MAX_DRAWS = 10_000_000
#: The most seeded repetitions of ``evaluate``: each repeats the whole experiment.
MAX_TRIALS = 10_000
#: The most of anything else counted (runs per word, words listed).
MAX_COUNT = 10_000_000


def at_most(high: int, unit: str, why: str) -> Callable[[Any], Any]:
    """A typer callback that refuses a value above ``high`` in one line: ``at most
    {high} {unit} ({why}); got {value}`` (typer adds the option's name).

    >>> at_most(10, "words", "why not")(3)
    3
    >>> try:
    ...     at_most(10, "words", "why not")(11)
    ... except typer.BadParameter as exc:
    ...     print(exc)
    at most 10 words (why not); got 11
    """

    def check(value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool) and value > high:
            raise typer.BadParameter(f"at most {high:,} {unit} ({why}); got {value}")
        return value

    return check


#: ``--vocab-size``.
vocabulary_words = at_most(MAX_VOCAB_WORDS, "words",
                           "the largest public embeddings hold a few million")
#: A bag's size ``-N``: ``emprivacy guarantee``'s bound too.
bag_size = at_most(MAX_BAG_SIZE, "words", "far beyond any document: the whole Brown corpus "
                   "is about a million words")
#: An embedding's dimension ``-n``.
dimension = at_most(MAX_DIM, "dimensions", "embeddings have hundreds to a few thousand")
#: Releases drawn per word (``--draws``, ``--distinguish-draws``, ``--epsilon-hat-draws``).
draws = at_most(MAX_DRAWS, "draws", "ten million already takes hours per word")


def capped_to_cores(value: int | None, option: str, warn: Callable[[str], None]
                    ) -> int | None:
    """``value`` of ``--workers`` or ``--jobs``, or this machine's cores where it asks for
    more (one warning line says so): more processes than cores only compete for them.

    >>> said: list[str] = []
    >>> capped_to_cores(10**20, "--workers", said.append) == (os.cpu_count() or 1), len(said)
    (True, 1)
    >>> capped_to_cores(1, "--workers", said.append), len(said)
    (1, 1)
    """
    cores = os.cpu_count() or 1
    if value is None or value <= cores:
        return value
    warn(f"emprivacy: warning: {option} {value} is more than this machine's {cores} cores; "
         f"using {cores}")
    return cores
