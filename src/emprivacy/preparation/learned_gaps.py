"""The words the learned detector finds where every other decision left a gap (issue 40).

The ``learned`` detector (:mod:`~emprivacy.entities.learned`) is asked last: after the
detectors' spans were decided, widened, joined and spread by every rule of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, a word that is still released
at the general ε, that text mode does not keep as a function word (``will``, ``may`` need the
rules' evidence), that is no calendar word, title, role or form key and is rarer than
:data:`FILL_ZIPF` in the text's language, and that the learned detector takes, becomes what
its type's policy says: a slot of the person or place sub-vocabulary (drawn independently
where no list holds it), or a placeholder, consecutive words of one type one placeholder.
So the model adds protection and never changes a rule's decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from emprivacy.entities.capitalised import CALENDAR_WORDS
from emprivacy.entities.labels import SPEAKER_ROLES
from emprivacy.entities.policy import placeholder
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot, Kept, Placeholder
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["FILL_ZIPF", "learned_gaps"]

#: Words at least this common (Zipf, in the text's language) are left to the rules' evidence:
#: the model took ``national``, ``oh``, ``hope``, ``plan``, ``de`` where they were words
#: (``National Insurance``, ``i think she oh no``, ``plan a b``); rarer common words need
#: the detector's stricter threshold (:data:`~emprivacy.entities.learned.COMMON_THRESHOLD`).
FILL_ZIPF = 5.0

#: Calendar words and the weekdays' abbreviations (``Fri``, ``Wed``), which a form's dates
#: hold; the months' (``Sept``) are the language's :attr:`~emprivacy.text.language.Language.months`.
_CALENDAR = CALENDAR_WORDS | frozenset("mon tue tues wed thu thur thurs fri sat sun".split())


def _may_fill(marking: EntityMarking, word: str) -> bool:
    """Whether the learned detector may decide ``word`` (normalised): no calendar word (the
    language's months too), no title, role or form key, and rarer than :data:`FILL_ZIPF` in
    the text's language."""
    from emprivacy.entities.name_words import zipf_in

    language = get_language(marking.lang)
    return (word not in _CALENDAR and word not in language.months
            and not marking.label_word(word) and word not in SPEAKER_ROLES
            and word not in language.titles
            and (marking.english_zipf(word) if language.code == "en"
                 else zipf_in(word, language.wordfreq_code)) < FILL_ZIPF)


def learned_gaps(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 text: str, tokens: Sequence[Token], words: Sequence[str],
                 rows: Sequence[int], verbatim: Sequence[bool], *, first_span: int,
                 slot: Callable[[str, str, str, int], EntitySlot],
                 covered: Sequence[bool] | None = None) -> None:
    """Fill ``decisions`` (in place) where the learned detector found a word and nothing
    else decided it; ``first_span`` numbers the placeholders' spans after the piece's own,
    ``slot(type, kind, word, row)`` makes a slot as the other decisions do.  ``covered``:
    the tokens another detector's span covers, which ``counted`` holds as released at the
    general ε (:data:`~emprivacy.preparation.decisions.GENERAL`) until one is filled."""
    gaps = marking.gaps(text)
    if not gaps:
        return
    at = 0
    span = first_span
    last: tuple[int, Placeholder] | None = None  # the last placeholder: (token, decision)
    for i, tok in enumerate(tokens):
        while at < len(gaps) and gaps[at].end <= tok.start:
            at += 1
        if at == len(gaps) or gaps[at].start > tok.start or tok.end > gaps[at].end:
            continue
        if decisions[i] is not None or tok.kind != "word" or verbatim[i] \
                or not _may_fill(marking, words[i]):
            continue
        kind, resolved = marking.resolve(gaps[at].type, rows[i], words[i])
        if kind == "word" or resolved is None:
            continue
        if kind == "placeholder":
            if last is not None and last[0] == i - 1 and last[1].type == resolved \
                    and not text[tokens[i - 1].end:tok.start].strip(" \t"):
                hidden = last[1]  # "red lion": one placeholder
            else:
                hidden = Placeholder(span, placeholder(resolved), resolved, tok.start)
                span += 1
            last = (i, hidden)
            decision: Decision = hidden
        elif kind == "keep":
            decision = Kept(resolved)
        else:
            decision = slot(resolved, kind, words[i], rows[i])
        decisions[i] = decision
        counted[resolved] += 1
        if covered is not None and covered[i]:  # no longer released at the general ε
            counted[GENERAL] -= 1
