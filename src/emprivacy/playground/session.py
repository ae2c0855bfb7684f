"""The playground's one process: the embeddings loaded once, a release per ε, one at a time.

:class:`Playground` holds the built-in embeddings (loaded once, when the server starts) and
answers the page's requests: for each ε of a :class:`~.settings.PageSettings`, the release
of :func:`emprivacy.privatize_texts` with the page's seed — the library's own release, the
same bytes ``emprivacy obfuscate`` writes for the command the page shows
(:mod:`.command`) — with every word's fate (:mod:`.fates`), each slot's guarantee to its
nearest words (ε·d, Thm. 2 of the paper, the per-word guarantee of text mode: §3, Eq. (2)),
and the run's summary.  Nothing is written anywhere: the text lives in the request and the
answer only.
"""

from __future__ import annotations

import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emprivacy.playground.fates import Segment, release_segments
from emprivacy.playground.marks import recovery_at
from emprivacy.playground.settings import PageSettings

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.embeddings import Embeddings
    from emprivacy.mechanisms import WordMechanism

__all__ = ["NEIGHBOURS", "Playground", "Release"]

#: How many nearest words a slot's guarantee names.
NEIGHBOURS = 3
#: Mechanisms built and kept (by name and ε): their entity sub-vocabularies are built once.
_KEPT_MECHANISMS = 16


@dataclass(frozen=True, slots=True)
class Release:
    """One ε's release, as the page shows it.

    Attributes
    ----------
    epsilon : float
    text : str
        The released text, exactly as :func:`emprivacy.privatize_texts` wrote it.
    segments : list of Segment or None
        The release cut into labelled pieces (``None``: shown without labels).
    neighbours : dict
        Each slot's original word → its nearest other words and their distances d.
    summary : dict
        ``words_perturbed``, ``words_changed``, ``verbatim_names``, ``epsilon_total``,
        ``recovery`` (the cached audit's figure), ``guarantee`` (the record's statement).
    """

    epsilon: float
    text: str
    segments: list[Segment] | None
    neighbours: dict[str, list[tuple[str, float]]]
    summary: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Whether the mechanism's d is the Euclidean distance (the neighbours' ε·d apply).
    euclidean: bool = True


class Playground:
    """The embeddings, loaded once, and the releases of the page (one at a time).

    Parameters
    ----------
    embeddings : Embeddings, optional
        Default: the built-in GloVe 6B 50d, 100,000 words (what the page's commands use).
    """

    def __init__(self, embeddings: Embeddings | None = None) -> None:
        import numpy as np

        from emprivacy.decoding import ExactDecoder
        from emprivacy.embeddings import load_embeddings

        self.embeddings = load_embeddings() if embeddings is None else embeddings
        #: Held while a release runs: the page runs one heavy job at a time.
        self.busy = threading.Lock()
        self._mechanisms: OrderedDict[tuple[str, float], WordMechanism] = OrderedDict()
        # made once, before the server is up: the exact nearest-word decoder every ε's
        # madlib, mahalanobis and vickrey share (the same decisions as their own), the
        # vectors for the neighbours, and the release path's modules
        self._decoder = ExactDecoder(self.embeddings)
        self._vectors = np.asarray(self.embeddings.vectors, dtype=np.float32)
        self._norms = np.einsum("ij,ij->i", self._vectors, self._vectors)
        import emprivacy.tables  # noqa: F401

    def mechanism(self, name: str, epsilon: float) -> WordMechanism:
        """The mechanism ``name`` at ``epsilon`` with its default parameters (kept)."""
        from emprivacy.mechanisms import make_mechanism, takes_decoder

        key = (name, epsilon)
        if key not in self._mechanisms:
            params: dict[str, Any] = {"decoder": self._decoder} if takes_decoder(name) else {}
            self._mechanisms[key] = make_mechanism(name, self.embeddings, epsilon=epsilon,
                                                   **params)
            while len(self._mechanisms) > _KEPT_MECHANISMS:
                self._mechanisms.popitem(last=False)
        self._mechanisms.move_to_end(key)
        return self._mechanisms[key]

    def releases(self, settings: PageSettings) -> list[Release]:
        """The release of ``settings.text`` at each of ``settings.epsilons``."""
        return [self.release(settings, eps) for eps in settings.epsilons]

    def release(self, settings: PageSettings, epsilon: float) -> Release:
        """The release of ``settings.text`` at ``epsilon``, labelled."""
        from emprivacy.exceptions import PrivacyLeakWarning
        from emprivacy.tables import privatize_texts

        mech = self.mechanism(settings.mechanism, epsilon)
        entity = _entity_options(settings)
        with warnings.catch_warnings():  # entities kept: the page says so beside the word
            warnings.simplefilter("ignore", PrivacyLeakWarning)
            rows = privatize_texts([settings.text], mechanism=mech, seed=settings.seed,
                                   perturb_stopwords=settings.perturb_stopwords,
                                   count_changed=True, **entity)
            row = next(rows)
            template = self._template(mech, settings, entity)
        text = row.release if isinstance(row.release, str) else ""
        meta = dict(row.metadata or {})
        segments = release_segments(template, text, self.embeddings.words,
                                    function_words=_function_words())
        originals = sorted({s.original for s in segments or [] if s.fate in ("changed", "kept")
                            and s.original is not None})
        names = [s for s in segments or [] if s.fate == "entity"]
        summary = {
            "words_perturbed": int(meta.get("n_words", 0)),
            "words_changed": int(meta.get("words_changed", 0)),
            "verbatim_names": sum(s.text.lower() == (s.original or "").lower() for s in names)
            + int(meta.get("entities_kept", 0)),
            "epsilon_total": float(meta.get("epsilon_total", 0.0)),
            "recovery": recovery_at(settings.mechanism, epsilon).text,
            "guarantee": str(meta.get("guarantee", "")),
        }
        from emprivacy.preparation import EUCLIDEAN_GUARANTEE

        return Release(epsilon, text, segments, self.neighbours(originals), summary,
                       {**rows.metadata, **meta},
                       euclidean=mech.guarantee_metric() == EUCLIDEAN_GUARANTEE)

    def _template(self, mech: WordMechanism, settings: PageSettings,
                  entity: dict[str, Any]) -> Any:
        """The text's template as the release prepared it (the same settings)."""
        from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
        from emprivacy.preparation import prepare_text

        config = ObfuscationConfig(mode="text", perturb_stopwords=settings.perturb_stopwords,
                                   **entity)
        obf = Obfuscator(mech, config, seed=settings.seed, on_warning=lambda msg: None)
        marking = None if obf.entities is None else obf.entities.marking
        return prepare_text(settings.text, self.embeddings, oov=str(config.oov),
                            perturb_stopwords=settings.perturb_stopwords, entities=marking)

    def neighbours(self, words: list[str]) -> dict[str, list[tuple[str, float]]]:
        """Each word's :data:`NEIGHBOURS` nearest other vocabulary words and the Euclidean
        distance d to each (its guarantee against each is ε·d: Thm. 2).

        Candidates by one float32 product, then their distances again in float64, exactly.
        """
        import numpy as np

        if not words:
            return {}
        emb = self.embeddings
        rows = emb.indices(words)
        d2 = self._norms[rows, None] + self._norms[None, :] - 2.0 * (self._vectors[rows]
                                                                      @ self._vectors.T)
        d2[np.arange(len(rows)), rows] = np.inf  # the word itself: d = 0, no neighbour
        wide = min(NEIGHBOURS + 8, d2.shape[1] - 1)
        near = np.argpartition(d2, wide, axis=1)[:, :wide]
        out: dict[str, list[tuple[str, float]]] = {}
        for k, word in enumerate(words):
            cand = near[k][near[k] != rows[k]]
            diff = (self._vectors[cand].astype(np.float64)
                    - self._vectors[rows[k]].astype(np.float64))
            dist = np.sqrt(np.einsum("ij,ij->i", diff, diff))
            order = np.lexsort((cand, dist))[:NEIGHBOURS]
            out[word] = [(emb.words[int(cand[j])], float(dist[j])) for j in order]
        return out


def _entity_options(settings: PageSettings) -> dict[str, Any]:
    """The entity keywords of :func:`~emprivacy.privatize_texts` (none without entities)."""
    if not settings.entities_on:
        return {}
    return {"entities": settings.entities, "entity_epsilon": settings.entity_epsilon,
            "entity_policy": list(settings.entity_policy)}


def _function_words() -> frozenset[str]:
    from emprivacy.text import KEPT_FUNCTION_WORDS, STOPWORDS

    return frozenset(KEPT_FUNCTION_WORDS) | STOPWORDS
