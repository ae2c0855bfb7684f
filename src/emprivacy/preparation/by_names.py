"""By-names after a person's name, in text mode: ``Jones the Milk``, ``Dai the Bus``,
``Donald the Post`` — the Welsh and Highland way of telling apart people of one name by a
trade or a trait.  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions` (issue 40, stage 43: the Welsh
set's tuning half released the by-names' words as written beside the names' surrogates).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from emprivacy.entities.capitalised import CALENDAR_WORDS
from emprivacy.entities.designator_words import ROLE_WORDS
from emprivacy.entities.labels import FORM_KEYS, HONORIFICS, NAME_FIELDS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.preparation.decisions import Decision, Dropped, EntitySlot
from emprivacy.preparation.particles import person_decision_at
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

__all__ = ["TRADE_BY_NAMES", "by_names"]


def by_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
             text: str, tokens: Sequence[Token], words: Sequence[str],
             titles: frozenset[str] = frozenset()) -> None:
    """A by-name after a person's name, in English: ``Jones the Milk``, ``Dai the Bus``,
    ``Donald the Post`` (Welsh and Highland by-names: issue 40, stage 43).

    Where a capitalised person's slot is followed, one space apart, by ``the`` in lower case
    and one word in Title case that no pass has taken, the word becomes a ``PERSON`` slot
    drawn independently of it (ε = 0) and ``the`` goes with it (dropped: ``Jones the Milk``
    reads as a name of two words).  Not where a capitalised word follows that word (``Holly
    Cutting the Jolly Boatman``: an inn), nor where a capitalised word that is no name comes
    right before the person's name (a headline in Title case, ``Police Thank John Smith the
    Hero``, or a sentence's first word but a function word, ``Ask John Smith the Question``;
    not ``As Jones the Milk recited``); not a title, an honorific, a role or a form's key
    (``Mr Hopper the Secretary``, ``the Treasurer``), a weekday or a month (``John Smith the
    Monday before``), a kind of place or organisation, or a function word."""
    if get_language(marking.lang).code != "en":
        return
    function_words = get_language(marking.lang).kept_function_words
    _trade_by_names(decisions, counted, text, tokens, words)
    for i in range(1, len(tokens) - 1):
        j = i + 1
        if not (tokens[i].text == "the" and decisions[i] is None and decisions[j] is None
                and person_decision_at(decisions, i - 1)
                and tokens[i - 1].text[:1].isupper() and tokens[j].kind == "word"
                and len(tokens[j].text) > 1 and tokens[j].text[:1].isupper()
                and tokens[j].text[1:].islower()
                and text[tokens[i - 1].end:tokens[i].start] == " "
                and text[tokens[i].end:tokens[j].start] == " "):
            continue
        w = words[j]
        if (w in function_words or w in titles or w in NAME_TITLES or w in HONORIFICS
                or w in ROLE_WORDS or w in NAME_FIELDS or w in FORM_KEYS
                or w in CALENDAR_WORDS or marking.designator(w)):
            continue
        after = tokens[j + 1] if j + 1 < len(tokens) else None
        if after is not None and after.kind == "word" and after.text[:1].isupper() \
                and text[tokens[j].end:after.start] == " ":
            continue  # "Holly Cutting the Jolly Boatman": a name of two words, no by-name
        if _after_capitalised_word(decisions, tokens, text, i - 1, function_words):
            continue
        decisions[i] = Dropped("PERSON")
        decisions[j] = EntitySlot(("PERSON", w), -1, None, independent=True)
        counted["PERSON"] += 1


def _after_capitalised_word(decisions: list[Decision], tokens: Sequence[Token], text: str,
                            k: int, function_words: frozenset[str]) -> bool:
    """Whether the person's name ending at token ``k`` comes right after a capitalised word
    that is no person's and no function word (``Thank`` of ``Police Thank John Smith``,
    ``Ask John Smith``; not ``As``): a headline or a sentence's first word, where Title case
    says nothing."""
    while k > 0 and person_decision_at(decisions, k - 1) \
            and text[tokens[k - 1].end:tokens[k].start] == " ":
        k -= 1
    if k == 0 or tokens[k - 1].kind != "word":
        return False
    before = tokens[k - 1].text
    return (text[tokens[k - 1].end:tokens[k].start] == " " and before[:1].isupper()
            and before.lower() not in function_words)  # not "As Jones the Milk recited"


def _trade_by_names(decisions: list[Decision], counted: Counter[str], text: str,
                    tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A by-name in lower case (a chat, automatic captions): a person's slot in lower case,
    ``the`` and a trade's word (:data:`TRADE_BY_NAMES`: ``dai the post``, ``jones the
    milk``, ``price the meat``; with ``shop`` after it, ``evans the chip shop``).  Case says
    nothing here, so only the trades that by-names are made of count; the word (and
    ``shop``) become the person's slots, ``the`` goes with them.  Privacy first: ``told dai
    the bus was late`` loses ``bus`` too (issue 40, stage 43, from its captions written after
    the stage: such by-names were a third of what they left verbatim)."""
    for i in range(1, len(tokens) - 1):
        j = i + 1
        if not (tokens[i].text == "the" and decisions[i] is None and decisions[j] is None
                and person_decision_at(decisions, i - 1) and tokens[i - 1].text.islower()
                and tokens[j].text.islower() and words[j] in TRADE_BY_NAMES
                and text[tokens[i - 1].end:tokens[i].start] == " "
                and text[tokens[i].end:tokens[j].start] == " "):
            continue
        decisions[i] = Dropped("PERSON")
        taken = [j]
        k = j + 1
        if (k < len(tokens) and decisions[k] is None and words[k] == "shop"
                and text[tokens[j].end:tokens[k].start] == " "):
            taken.append(k)
        for m in taken:
            decisions[m] = EntitySlot(("PERSON", words[m]), -1, None, independent=True)
            counted["PERSON"] += 1


#: The trades and things that by-names are made of (``Jones the Milk``, ``Dai the Post``,
#: ``Evans the Death``: the undertaker), read in lower case after a person's name.
TRADE_BY_NAMES: frozenset[str] = frozenset(
    "milk post bus bread meat chip chips fish coal oil bank chapel garage taxi pop "
    "insurance death steam butcher baker cobbler farm dairy coach".split())  # not "pub",
# "sweets": "bought mark the sweets", "show jan the pub" (over the earlier sets)

