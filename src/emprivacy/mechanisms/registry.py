"""The mechanisms by name: what ``--mechanism NAME --param k=v`` chooses from.

:data:`MECHANISMS` maps each registered mechanism's :attr:`~WordMechanism.name` to
its class; :func:`make_mechanism` builds one by name with its own keyword
parameters (checked against the class's signature); :func:`mechanism_parameters`
lists a mechanism's parameters (name, default, one-line help) and
:func:`parse_params` turns ``k=v`` strings into them.  A new mechanism is
registered with :func:`register` (one line: add it to ``_BUILT_IN`` below, or call
``register(MyMechanism)``).

>>> sorted(MECHANISMS)
['madlib', 'mahalanobis', 'santext', 'tem', 'vickrey']
>>> [p.name for p in mechanism_parameters("mahalanobis")]
['lam', 'decoder', 'rank_resample']
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from emprivacy._validation import check_choice
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.mechanisms.madlib import EarthMoversPrivacy
from emprivacy.mechanisms.mahalanobis import MahalanobisPrivacy
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential
from emprivacy.mechanisms.vickrey import VickreyPrivacy

__all__ = [
    "MECHANISMS",
    "MechanismParameter",
    "check_params",
    "make_mechanism",
    "mechanism_parameters",
    "parse_params",
    "register",
    "takes_decoder",
]

#: Registered mechanisms by name, in registration order.
MECHANISMS: dict[str, type[WordMechanism]] = {}

#: Parameters every mechanism takes (given separately to :func:`make_mechanism`).
_COMMON = ("embeddings", "epsilon", "rng")


def register(cls: type[WordMechanism]) -> type[WordMechanism]:
    """Add a mechanism class to :data:`MECHANISMS` under its ``name``; returns it.

    Usable as a class decorator.  Registering the same class twice is harmless;
    another class under a taken name is an error.
    """
    if not (isinstance(cls, type) and issubclass(cls, WordMechanism)):
        raise TypeError(f"a mechanism must be a subclass of WordMechanism; got {cls!r}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} must have a non-empty str class attribute 'name'")
    known = MECHANISMS.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"mechanism name {name!r} is taken by {known.__name__}; "
                         f"got {cls.__name__}")
    MECHANISMS[name] = cls
    return cls


_BUILT_IN: tuple[type[WordMechanism], ...] = (
    EarthMoversPrivacy,
    MahalanobisPrivacy,
    VickreyPrivacy,
    TruncatedExponential,
    SanText,
)
for _cls in _BUILT_IN:
    register(_cls)


def _mechanism_class(name: Any) -> type[WordMechanism]:
    check_choice(name, "mechanism", tuple(MECHANISMS))
    return MECHANISMS[name]


#: How a parameter's type reads in a message ("block_cols must be an integer; got 'x'").
_KIND_WORDS = {"int": "an integer", "float": "a number", "bool": "true or false",
               "str": "a string"}


@dataclass(frozen=True)
class MechanismParameter:
    """One parameter of a mechanism, for help texts and ``--param k=v`` parsing.

    Attributes
    ----------
    name : str
        The keyword.
    default : Any
        Its default value.
    annotation : str
        Its type, as written in the signature (e.g. ``"float | None"``).
    help : str
        One line: the first sentence of its description in the class docstring.
    """

    name: str
    default: Any
    annotation: str
    help: str

    def parse(self, text: str) -> Any:
        """The value of a command-line string, by the parameter's type.

        ``None`` (or ``none``) for optional parameters; numbers for ``float``/``int``;
        ``true``/``false`` for ``bool``; otherwise the string itself.  Only the type is
        checked here; :func:`parse_params` then checks the values
        (:meth:`~emprivacy.mechanisms.WordMechanism.check_parameters`).

        >>> MechanismParameter("t", 0.75, "float", "").parse("0.5")
        0.5
        >>> MechanismParameter("c", None, "float | None", "").parse("none") is None
        True
        """
        kinds = {part.strip() for part in self.annotation.split("|")}
        if "None" in kinds and text.strip().lower() in ("none", "null", ""):
            return None
        try:
            if "bool" in kinds:
                lowered = text.strip().lower()
                if lowered in ("true", "1", "yes", "on"):
                    return True
                if lowered in ("false", "0", "no", "off"):
                    return False
                raise ValueError(text)
            if "int" in kinds:
                return int(text)
            if "float" in kinds:
                return float(text)
        except ValueError:
            kind = " or ".join(_KIND_WORDS.get(k, k) for k in sorted(kinds - {"None"}))
            raise ValueError(f"{self.name} must be {kind}; got {text!r}") from None
        return text


def _docstring_help(cls: type) -> dict[str, str]:
    """First sentence of each parameter's description in the numpydoc ``Parameters`` section."""
    doc = inspect.getdoc(cls) or ""
    match = re.search(r"^Parameters\n-+\n(.*?)(?:\n\n[A-Z][A-Za-z ]*\n-+\n|\Z)", doc,
                      flags=re.S | re.M)
    if not match:
        return {}
    described: dict[str, list[str]] = {}
    names: list[str] = []
    for line in match.group(1).splitlines():
        if line and not line[0].isspace():
            names = [n.strip() for n in line.split(":")[0].split(",")]
            for n in names:
                described.setdefault(n, [])
        elif line.strip():
            for n in names:
                described[n].append(line.strip())
        else:
            names = []  # a blank line ends the first paragraph
    out = {}
    for n, lines in described.items():
        text = " ".join(lines)
        end = re.search(r"\.(\s|$)", text)
        out[n] = text[:end.start() + 1] if end else text
    return out


def mechanism_parameters(name: str) -> tuple[MechanismParameter, ...]:
    """The mechanism's own parameters (besides embeddings, epsilon and rng), in order.

    Read from the class's signature (keyword, default, type) and its numpydoc
    docstring (the first sentence of each description, as one-line help).

    >>> [(p.name, p.default) for p in mechanism_parameters("vickrey")][:3]
    [('t', 0.75), ('noise', 'euclidean'), ('lam', 0.2)]
    """
    cls = _mechanism_class(name)
    helps = _docstring_help(cls)
    params = []
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == "self" or p.name in _COMMON or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = (p.annotation if isinstance(p.annotation, str)
                      else inspect.formatannotation(p.annotation))
        params.append(MechanismParameter(
            p.name, None if p.default is p.empty else p.default,
            "" if p.annotation is p.empty else annotation, helps.get(p.name, "")))
    return tuple(params)


def check_params(name: str, params: Iterable[str]) -> None:
    """Raise ``ValueError`` naming the first of ``params`` that ``name`` does not take."""
    allowed = [p.name for p in mechanism_parameters(name)]
    for key in params:
        if key in _COMMON:
            raise ValueError(f"{key} is not a parameter of mechanism {name!r}: give it "
                             "to make_mechanism directly")
        if key not in allowed:
            listed = ", ".join(repr(a) for a in sorted(allowed)) or "none"
            raise ValueError(f"unknown parameter {key!r} for mechanism {name!r}; its "
                             f"parameters are {listed}")


def takes_decoder(name: str) -> bool:
    """Whether the mechanism decodes to the nearest word (takes a ``decoder``)."""
    return any(p.name == "decoder" for p in mechanism_parameters(name))


def parse_params(name: str, pairs: Iterable[str]) -> dict[str, Any]:
    """``["k=v", ...]`` (command-line ``--param`` values) as keyword parameters of a mechanism.

    Every value is checked here, as the mechanism would check it (a ``ValueError`` in
    its words), so that a command fails before any work.

    >>> parse_params("vickrey", ["t=0.5", "noise=mahalanobis"])
    {'t': 0.5, 'noise': 'mahalanobis'}
    """
    by_name = {p.name: p for p in mechanism_parameters(name)}
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = str(pair).partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"a mechanism parameter must be given as NAME=VALUE; got {pair!r}")
        check_params(name, [key])
        if key in out:
            raise ValueError(f"parameter {key!r} of mechanism {name!r} is given twice")
        out[key] = by_name[key].parse(value)
    _mechanism_class(name).check_parameters(out)  # every value, before any work
    return out


def make_mechanism(name: str, embeddings: Embeddings, *, epsilon: float,
                   rng: RandomState = None, **params: Any) -> WordMechanism:
    """A registered mechanism by name: ``MECHANISMS[name](embeddings, epsilon=…, rng=…, **params)``.

    Parameters
    ----------
    name : str
        One of :data:`MECHANISMS` (``"madlib"``, ``"mahalanobis"``, ``"vickrey"``, …).
    embeddings : Embeddings
        ``Vec`` and the output vocabulary.
    epsilon : float
        Per-word ε of the mechanism's guarantee ``ε·d`` (d its metric).
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.
    **params
        The mechanism's own keyword parameters (:func:`mechanism_parameters`).

    Raises
    ------
    ValueError
        For an unknown mechanism or parameter (the message lists the valid ones), and
        for bad values (the mechanism's own messages, before any work:
        :meth:`~emprivacy.mechanisms.WordMechanism.check_parameters`).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> make_mechanism("vickrey", emb, epsilon=1.0, t=0.5)  # doctest: +ELLIPSIS
    VickreyPrivacy(embeddings=..., epsilon=1.0, t=0.5, noise='euclidean', decoder='exact')
    >>> make_mechanism("laplace", emb, epsilon=1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: mechanism must be one of 'madlib', 'mahalanobis', 'vickrey'...; got 'laplace'
    """
    cls = _mechanism_class(name)
    check_params(name, params)
    cls.check_parameters(params)
    return cls(embeddings, epsilon=epsilon, rng=rng, **params)
