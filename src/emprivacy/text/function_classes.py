"""The grammatical class of each function word that text mode keeps (the style option,
issue 41): the package data file ``function-classes-en.txt``, one ``word class`` a line.

Under ``style_epsilon`` (:mod:`emprivacy.obfuscation.style`) a kept function word is released
through the run's mechanism restricted to the words of its class: determiners stay
determiners, prepositions prepositions.  Every word of
:data:`~emprivacy.text.word_lists.KEPT_FUNCTION_WORDS` has exactly one class (a word of
several readings, such as ``that``, the class of the section it is listed under in
``kept-function-words-en.txt``).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from types import MappingProxyType

__all__ = ["FUNCTION_CLASSES", "FUNCTION_CLASS_NAMES", "STYLE_CLOSE", "STYLE_OPEN",
           "class_members"]

#: Around a style slot's function word in a text template's layout
#: (:mod:`emprivacy.preparation.template`, filled by :mod:`emprivacy.obfuscation.style`):
#: private-use characters, which the tokeniser never leaves as layout of a text.
STYLE_OPEN, STYLE_CLOSE = "\ue000", "\ue001"

#: The classes, in the order of the data file.
FUNCTION_CLASS_NAMES: tuple[str, ...] = ("determiner", "pronoun", "preposition", "conjunction",
                                         "be", "have", "do", "modal", "adverb")


def _read_classes(name: str) -> Mapping[str, str]:
    """The ``word class`` lines of a data file of the package (``#`` comments)."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    classes: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.partition("#")[0].split()
        if not fields:
            continue
        if len(fields) != 2 or fields[1] not in FUNCTION_CLASS_NAMES or fields[0] in classes:
            raise ValueError(f"{name}, line {number}: expected 'word class' with a class of "
                             f"{FUNCTION_CLASS_NAMES} and each word once; got {line!r}")
        classes[fields[0]] = fields[1]
    return MappingProxyType(classes)


#: Each kept function word (lower case) and its grammatical class.
FUNCTION_CLASSES: Mapping[str, str] = _read_classes("function-classes-en.txt")


def class_members(name: str) -> tuple[str, ...]:
    """The words of a class, sorted.

    >>> class_members("be")
    ('are', 'be', 'been', 'being', 'is', 'was', 'were')
    """
    if name not in FUNCTION_CLASS_NAMES:
        raise ValueError(f"name must be one of {FUNCTION_CLASS_NAMES}; got {name!r}")
    return tuple(sorted(w for w, c in FUNCTION_CLASSES.items() if c == name))
