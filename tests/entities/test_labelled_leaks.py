"""Names released verbatim from the shapes of text people release (issue 40), on the
hand-labelled development texts (tests/entities/labelled/dev: lower-case chat, a deposition
with ALL-CAPS speaker labels, forms, a clinical note, e-mails, minutes, a sloppy ticket).

Text mode at ε = 10 with ``--entities auto`` (ε_e = 1) on fixed seeds (seed 0; seeds 0–4
for the share of other content words changed, whose noise at ε = 10 is about ±2.7 points on
one seed): the figures of docs/ENTITIES.md cannot regress.  The held-out texts
(labelled/holdout, labelled/holdout2) are not read here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from emprivacy.evaluation.entity_leaks import leak_tally, unmark

DEV = Path(__file__).parent / "labelled" / "dev"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def released(ner_embeddings):
    """(name, text, spans, release with auto, release with none) of every dev text."""
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    emb = ner_embeddings
    mech = EarthMoversPrivacy(emb, epsilon=10.0)
    docs = []
    for path in sorted(DEV.glob("*.txt")):
        text, spans = unmark(path.read_text(encoding="utf-8"))
        docs.append((path.stem, text, spans))
    out = {}
    for entities in ("auto", "none"):
        for seed in SEEDS:
            obf = Obfuscator(mech, ObfuscationConfig(mode="text", entities=entities,
                                                     entity_epsilon=1.0),
                             seed=seed, on_warning=lambda m: None)
            out[entities, seed] = [r["text"] for r in
                                   obf.obfuscate([Document(n, t) for n, t, _ in docs])]

    def known(word: str) -> bool:
        return bool(emb.rows([word])[0] >= 0)

    return [(name, text, spans, out["auto", 0][k], out["none", 0][k], known,
             [out["auto", s][k] for s in SEEDS], [out["none", s][k] for s in SEEDS])
            for k, (name, text, spans) in enumerate(docs)]


SEEDS = (0, 1, 2, 3, 4)


def test_the_set_is_the_one_described(released):
    """≥ 6 genres, ≥ 250 person-name tokens, a lower-case chat, ALL-CAPS labels."""
    names = [name for name, *_ in released]
    assert len(names) >= 6 and any("chat-lower" in n for n in names)
    assert any("caps" in n for n in names)
    total = sum(leak_tally(t, s, t, in_vocabulary=k)["per"] for _, t, s, _, _, k, *_ in released)
    assert total >= 250


def test_person_names_verbatim(released):
    """≤ 2 % of person-name tokens verbatim overall and ≤ 5 % in every text (61 % without
    entity protection; the lower-case chat was 66 % with it before issue 40)."""
    total: Counter[str] = Counter()
    for name, text, spans, auto, _, known, *_ in released:
        tally = leak_tally(text, spans, auto, in_vocabulary=known)
        assert tally["per_kept"] <= 0.05 * tally["per"], (name, tally["per_kept"], tally["per"])
        total.update(tally)
    assert total["per_kept"] <= 0.02 * total["per"], (total["per_kept"], total["per"])


def test_dates_and_identifiers_leave_no_letters(released):
    """Month words of dates and the letters of identifiers: none verbatim (a date was
    ``March [NUM], [NUM]``, an identifier ``KD-[NUM]``)."""
    total: Counter[str] = Counter()
    for _, text, spans, auto, _, known, *_ in released:
        total.update(leak_tally(text, spans, auto, in_vocabulary=known))
    assert total["month"] > 0 and total["idletters"] > 0
    assert total["month_kept"] == 0 and total["idletters_kept"] == 0


def test_the_rest_of_the_text_is_not_sacrificed(released):
    """The share of other content words changed, over seeds 0–4, stays within 6 points of
    no protection (the issue's target is 5 on the benchmark's 3 seeds and the full
    vocabulary; docs/ENTITIES.md has the figures)."""
    share = {}
    for which, index in (("auto", 6), ("none", 7)):
        total: Counter[str] = Counter()
        for row in released:
            for release in row[index]:
                total.update(leak_tally(row[1], row[2], release, in_vocabulary=row[5]))
        share[which] = 1 - total["content_kept"] / total["content"]
    assert abs(share["auto"] - share["none"]) <= 0.06, share


def test_the_alignment_keeps_a_word_on_its_own_line():
    """A word whose neighbours all changed is not matched with the same word lines away:
    ``Le`` of a lawyer's name with the ``le`` of a date four lines down (French held out 8,
    its tuning half: a leak the text did not have, in every seed)."""
    from emprivacy.evaluation.entity_leaks import verbatim_tokens

    text = ("Maître Pierre-Yves Le Bihan\nAvocat\n5 rue de la Charité\n69002 Lyon\n\n"
            "Lyon, le 14 mars 2024")
    out = ("Maître Matthew Brach Nana\nLin\n[NUM] victoria Versailles\n[NUM] Orlando\n\n"
           "Orlando, le [DATE]")
    same = verbatim_tokens(text, out, lang="fr")
    from emprivacy.text.tokens import tokenize

    tokens = [t.text for t in tokenize(text, lang="fr")]
    assert not same[tokens.index("Le")], list(zip(tokens, same, strict=True))
    assert same[tokens.index("le")], list(zip(tokens, same, strict=True))  # the date's


def test_the_alignment_is_a_longest_common_subsequence():
    """difflib's blocks took the earliest equal word first: ``Feb`` of a date released as
    ``[DATE]`` was matched with the ``Feb`` that ``until Nov`` became at the line's end, and
    ``checked``, ``in``, ``until`` between went unmatched (a month leak the release did not
    have: the twenty-fourth English set's tracker).  And a placeholder written against a word
    (``ce[NUM]`` of ``ce1``) is a word of its own: ``ce`` is still found."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from emprivacy.evaluation.entity_leaks import _lcs, verbatim_tokens
    from emprivacy.text.tokens import tokenize

    text = "2022-02-11\tY\t11 Feb 2025\tTAL\tUS checked 11.02.2025; in Deal until Nov"
    out = "[DATE]\tY\t[DATE]\t[ORG] checked [DATE]; in Dano until Feb"
    tokens = [t.text for t in tokenize(text)]
    same = dict(zip(tokens, verbatim_tokens(text, out), strict=True))
    assert not same["Feb"] and same["checked"] and same["in"] and same["until"], same
    fr = verbatim_tokens("maman en ce1. je peux", "maman en ce[NUM]. je peux", lang="fr")
    assert all(s for t, s in zip(tokenize("maman en ce1. je peux", lang="fr"), fr, strict=True)
               if t.text != "1"), fr

    def length(a: list[str], b: list[str]) -> int:  # the textbook table
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                table[i][j] = (table[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1]
                               else max(table[i - 1][j], table[i][j - 1]))
        return table[-1][-1]

    words = st.lists(st.sampled_from("abcde"), min_size=1, max_size=14)

    @settings(max_examples=300, deadline=None)
    @given(words, words)
    def check(a: list[str], b: list[str]) -> None:
        found = _lcs(a, b)
        assert len(found) == length(a, b) and found == sorted(set(found))
        rest = iter(b)  # the words found are a subsequence of b, in order
        assert all(any(w == x for x in rest) for w in (a[i] for i in found))

    check()


def test_rare_names_words_are_a_subset_of_the_names_words():
    """``locorg_rare`` counts the names' words of places and organisations that ``rare``
    takes, among the names' words (never a function word or a possessive), verbatim or not;
    without ``rare`` there is no such count."""
    text, spans = unmark("to {{LOC|the Green}} by {{ORG|Ystrad Rovers}} of {{LOC|Tonyrefail}}")
    release = "to the Green by [ORG] Rovers of Tonyrefail"
    rare = {"ystrad", "tonyrefail", "the"}.__contains__
    c = leak_tally(text, spans, release, in_vocabulary=lambda w: True, rare=rare)
    assert (c["locorg_names"], c["locorg_names_kept"]) == (4, 3)
    assert (c["locorg_rare"], c["locorg_rare_kept"]) == (2, 1)  # not "the": a function word
    assert "locorg_rare" not in leak_tally(text, spans, release, in_vocabulary=lambda w: True)
