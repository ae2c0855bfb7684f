"""The options of a run over a column (:class:`RunOptions`:
:func:`~emprivacy.tables.batch.privatize_texts` and the table integrations), checked
before any work, and the mechanism they build, once per process (:func:`process_mechanism`:
the ``datasets`` mapper, each Spark task).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings, load_embeddings
from emprivacy.math.randomness import run_key_from_seed
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import DEFAULT_VOCAB_SIZE, ObfuscationConfig
from emprivacy.tables.privatizer import TextPrivatizer, row_fields

__all__ = ["DEFAULT_BATCH_ROWS", "OPTIONS", "RunOptions", "file_state", "process_mechanism"]

#: Rows privatised at a time (one call of the obfuscator; it decodes the noisy vectors of
#: about ``batch_words`` words per call of the decoder).
DEFAULT_BATCH_ROWS = 8192


#: What :meth:`RunOptions.parse` takes besides ``epsilon``, ``mechanism``, ``mode`` and
#: ``seed`` (the ``**options`` of the table integrations).
OPTIONS = ("params", "oov", "size", "perturb_stopwords", "embeddings", "vocab_size",
           "batch_rows", "entities", "entity_epsilon", "entity_policy", "count_changed",
           "entity_key", "entity_names", "lang", "style_epsilon")

def _check_mapping(params: object) -> dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping of parameter names to values; got "
                        f"{type(params).__name__}")
    return dict(params)


@dataclass(frozen=True)
class RunOptions:
    """The options of a run (:func:`~emprivacy.tables.batch.privatize_texts`, the table
    integrations), checked before any work: :meth:`privatizer` then loads the embeddings
    and builds the run.

    Use :meth:`parse`.  ``mechanism`` is a registered name
    (:data:`emprivacy.mechanisms.registry.MECHANISMS`, built with ``epsilon``, ``params``
    and ``embeddings``) or a built :class:`~emprivacy.mechanisms.WordMechanism` (which
    holds its own ε and embeddings: ``epsilon``, ``params`` and ``embeddings`` must then
    not be given).
    """

    config: ObfuscationConfig
    mechanism: str | WordMechanism
    epsilon: float | None
    params: dict[str, Any]
    embeddings: Embeddings | str | os.PathLike[str] | None
    vocab_size: int | None
    seed: int | None
    batch_rows: int

    @classmethod
    def parse(cls, *, epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
              params: Mapping[str, Any] | None = None, mode: str = "text",
              oov: str | None = None, size: int | None = None,
              perturb_stopwords: bool = False,
              embeddings: Embeddings | str | os.PathLike[str] | None = None,
              vocab_size: int | None = DEFAULT_VOCAB_SIZE, seed: int | None = None,
              batch_rows: int = DEFAULT_BATCH_ROWS, entities: str = "none",
              entity_epsilon: float = 1.0, entity_policy: Any = (),
              count_changed: bool = False, entity_key: bytes | None = None,
              entity_names: Any = None, lang: str = "en",
              style_epsilon: float | None = None) -> RunOptions:
        """Check the options (cheap checks only: nothing is loaded)."""
        from emprivacy.mechanisms.registry import check_params

        config = ObfuscationConfig(mode=mode, oov=oov, size=size,  # type: ignore[arg-type]
                                   perturb_stopwords=perturb_stopwords, entities=entities,
                                   entity_epsilon=entity_epsilon, entity_policy=entity_policy,
                                   count_changed=count_changed, entity_key=entity_key,
                                   entity_names=entity_names, lang=lang,
                                   style_epsilon=style_epsilon)
        chosen = _check_mapping(params)
        if isinstance(mechanism, WordMechanism):
            given = [name for name, value in (("epsilon", epsilon), ("params", params),
                                               ("embeddings", embeddings))
                     if value is not None]
            if given:
                raise ValueError("a built mechanism holds its own epsilon and embeddings; do "
                                 f"not give {given[0]} too")
        elif isinstance(mechanism, str):
            if epsilon is None:
                raise TypeError("epsilon is required: the per-word privacy parameter, a "
                                "finite number > 0")
            check_params(mechanism, chosen)
        else:
            raise TypeError("mechanism must be a mechanism's name (e.g. 'madlib') or a "
                            f"WordMechanism; got {type(mechanism).__name__}")
        if seed is not None:
            run_key_from_seed(seed)  # the seed's own message, now
        return cls(config, mechanism, epsilon, chosen, embeddings, vocab_size, seed,
                   check_positive_int(batch_rows, "batch_rows"))

    @classmethod
    def of(cls, *, epsilon: float | None, mechanism: str | WordMechanism, mode: str,
           seed: int | None, options: Mapping[str, Any]) -> RunOptions:
        """:meth:`parse` with the ``**options`` of a table integration (:data:`OPTIONS`);
        an unknown one raises :class:`TypeError` listing them."""
        for key in options:
            if key not in OPTIONS:
                raise TypeError(f"unexpected keyword argument {key!r}; the options are "
                                + ", ".join(repr(k) for k in OPTIONS))
        return cls.parse(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                         **options)

    @property
    def fields(self) -> dict[str, str]:
        """The per-row metadata of the run (:func:`~emprivacy.tables.privatizer.row_fields`)."""
        return row_fields(self.config)

    def privatizer(self) -> TextPrivatizer:
        """Load the embeddings (unless given loaded), build the mechanism and the run."""
        from emprivacy.mechanisms.registry import make_mechanism

        mech: WordMechanism
        if isinstance(self.mechanism, WordMechanism):
            mech = self.mechanism
        else:
            emb = (self.embeddings if isinstance(self.embeddings, Embeddings)
                   else load_embeddings(self.embeddings, vocab_size=self.vocab_size,
                                        lang=self.config.lang))
            mech = make_mechanism(self.mechanism, emb, epsilon=self.epsilon,  # type: ignore[arg-type]
                                  **self.params)
        return TextPrivatizer(mech, self.config, seed=self.seed)


# -- the mechanism, once per process -------------------------------------------------------
_MECHANISMS: dict[tuple[Any, ...], WordMechanism] = {}
_MECHANISMS_LOCK = threading.Lock()


def file_state(path: str | None) -> tuple[int, ...]:
    """What says that an embeddings file changed (then it is loaded again)."""
    if path is None:
        return ()
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def process_mechanism(run: RunOptions) -> WordMechanism:
    """The mechanism of ``run`` (its name, ε, parameters, embeddings file and vocabulary
    size) for this process: built on first use, then reused by every run of the same
    settings (the ``datasets`` mapper, each Spark task); only the most recently used one
    is kept (bounded memory), and an embeddings file that changed is loaded again.

    The embeddings are loaded by :func:`emprivacy.load_embeddings`: the built-in ones once
    per process, a file through the memory-mapped cache.
    """
    from emprivacy.mechanisms.registry import make_mechanism

    path = None if run.embeddings is None else os.fspath(run.embeddings)  # type: ignore[arg-type]
    key = (run.mechanism, run.epsilon, repr(sorted(run.params.items())), path, run.vocab_size,
           file_state(path), run.config.lang)
    with _MECHANISMS_LOCK:
        mech = _MECHANISMS.get(key)
        if mech is None:
            _MECHANISMS.clear()
            emb = load_embeddings(path, vocab_size=run.vocab_size, lang=run.config.lang)
            mech = _MECHANISMS[key] = make_mechanism(
                run.mechanism, emb, epsilon=run.epsilon,  # type: ignore[arg-type]
                **run.params)
        return mech
