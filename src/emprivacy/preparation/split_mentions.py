"""A name's word written or heard as two or three words in the same piece (``anse rouge``
beside ``anse-rouge``, captions' ``en se rouge``, ``heart stone`` beside ``hearthstone``,
``spin dole street`` beside ``spindle``): the words are that name, one slot, one surrogate.

A pass over the decisions of :func:`~emprivacy.preparation.entity_slots.entity_decisions` in
text mode, once every other rule has decided (issue 40 and 42, stage 46, from the
forty-seventh English and forty-sixth French sets' unseen halves, read once they had been
measured: their captions split a place's or a person's one word, and the slot of the whole
word left its pieces at the general ε).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from emprivacy.preparation.corrections import plain_form, skeleton
from emprivacy.preparation.decisions import INITIAL, Decision, Dropped, EntitySlot
from emprivacy.text.tokens import Token

__all__ = ["SPLIT_LETTERS", "SPLIT_LETTERS_ALIKE", "SPLIT_SOUND_ALIKE", "split_mentions"]

#: The fewest letters of a name's word that its pieces may stand for (``anserouge``): shorter
#: words run together too easily (``mason`` and ``ma son``).
SPLIT_LETTERS = 6
#: In captions, how alike the pieces' consonants (:func:`~emprivacy.preparation.corrections.
#: skeleton`) and the word's are, at least (``en se rouge`` and ``anse-rouge``: 1.0;
#: ``saint elle zéa`` and ``saint-elzéar``: 0.91) …
SPLIT_SOUND_ALIKE = 0.85
#: … and their letters (0.89 and 0.87; ``spin dole`` and ``spindle``: 0.93).
SPLIT_LETTERS_ALIKE = 0.8
#: The most words a name's word is split into.
_MOST_PIECES = 3
#: In captions, the most tokens after the words heard wrong where the word said right is.
_NEAR = 8
#: The most letters more or fewer the pieces may have than the word, in captions …
_MORE_LETTERS = 2
#: … and how many fewer each of them has at least (``priyanka bye`` is no ``priyanka``
#: heard wrong, ``hedges law`` no ``hedges``).
_SHORTER = 2


def split_mentions(decisions: list[Decision], counted: Counter[str], text: str,
                   tokens: Sequence[Token], *, captions: bool,
                   function_words: frozenset[str], listed: Callable[[str], bool]) -> None:
    """Give two or three words one space apart the slot of a word of a name (a person's,
    a place's or an organisation's slot of one token, :data:`SPLIT_LETTERS` letters or more,
    no initial) that they stand for:

    * in any text, a hyphened word they spell, run together, each capitalised (in captions,
      in lower case too: ``christ vainqueur`` beside ``christ-vainqueur``)
      (:func:`~emprivacy.preparation.corrections.plain_form`: no case, accents, hyphens or
      apostrophes: ``Anse Rouge`` and ``Anse-Rouge``; not ``une belle vue`` beside ``rue
      Belle-Vue``, a ``good fellow`` beside ``Mrs Good-Fellow``: the stage's review; nor
      ``fair weather`` beside a ``Fairweather``, ``this well`` beside a user name
      ``thiswell``);
    * in ``captions`` (:func:`~emprivacy.preparation.heard_names.only_captions`: not a chat
      with time stamps), lower-case
      words that the word, said right in lower case at most :data:`_NEAR` tokens on, follows
      (``heart stone housing hearthstone``, ``spin dole street primary spindle``; not
      ``sortie du four`` of a form with times of day before its ``DUFOUR``), where they
      spell it or sound like it: the first consonant the same, the consonants at least
      :data:`SPLIT_SOUND_ALIKE` alike, the letters :data:`SPLIT_LETTERS_ALIKE`, as many give
      or take two, each of them two letters shorter at least (``priyanka bye``, ``hedges
      law`` are the name and a word).

    The last word is neither one of the language's ``function_words`` nor elided (``du pont
    c'`` of ``du pont c'est``), nor are all of them function words, nor is the first of two
    (``le maire`` beside ``lemaire``: a word and its article); each is undecided or a
    slot; words that hold a listed given name (``listed``: another person, or a word)
    must spell the word (``ok sana oksana``; not ``the penny drop`` beside the user name
    ``pennydrops``).  As a correction's, the words but the last
    are :class:`~emprivacy.preparation.decisions.Dropped` (with the spaces after them), the
    last the name's slot.

    >>> from collections import Counter
    >>> from emprivacy.preparation.decisions import EntitySlot
    >>> from emprivacy.text.tokens import tokenize
    >>> text = "[0:01:02] quai de l'en se rouge l'anse-rouge"
    >>> tokens = list(tokenize(text, lang="fr"))
    >>> place = EntitySlot(("LOCATION", "anse-rouge"), -1, None, independent=True)
    >>> decisions = [place if t.text == "anse-rouge" else None for t in tokens]
    >>> split_mentions(decisions, Counter(), text, tokens, captions=True,
    ...                function_words=frozenset({"de", "en", "se", "l'"}), listed=lambda w: False)
    >>> [type(d).__name__ for d in decisions[-5:-2]], decisions[-3] is place
    (['Dropped', 'Dropped', 'EntitySlot'], True)
    """
    # the words a run may stand for: token → (its plain form, its sound, its slot)
    named: dict[int, tuple[str, str, EntitySlot]] = {}
    for k, (tok, decision) in enumerate(zip(tokens, decisions, strict=True)):
        if (isinstance(decision, EntitySlot) and tok.kind == "word"
                and not decision.key[1].startswith(INITIAL) and len(tok.text) >= SPLIT_LETTERS
                and (form := plain_form(tok.text)).isalpha()):
            named[k] = (form, skeleton(form) if captions else "", decision)
    hyphened = {form: slot for k, (form, _, slot) in reversed(named.items())
                if "-" in tokens[k].text}
    if not (hyphened or (captions and named)):
        return
    starts = {form[:3] for form in hyphened}
    spoken = [k for k in named if tokens[k].text.islower()] if captions else []
    at = 0  # the first of spoken after the run
    i = 0
    while i < len(tokens):
        found = None
        if tokens[i].kind == "word":
            while at < len(spoken) and spoken[at] <= i:
                at += 1
            near = [k for k in spoken[at:at + _NEAR] if k - i <= _NEAR]
            if near or plain_form(tokens[i].text)[:3] in starts:
                found = _pieces_at(decisions, text, tokens, i, hyphened, near, named,
                                   function_words, listed, captions)
        if found is None:
            i += 1
            continue
        run, slot = found
        kind = slot.key[0]
        for r in run:
            own = decisions[r]
            if isinstance(own, EntitySlot):
                counted[own.key[0]] -= 1
            decisions[r] = Dropped(kind)
        decisions[run[-1]] = slot
        counted[kind] += 1
        i = run[-1] + 1


def _pieces_at(decisions: Sequence[Decision], text: str, tokens: Sequence[Token], i: int,
               hyphened: dict[str, EntitySlot], near: list[int],
               named: dict[int, tuple[str, str, EntitySlot]],
               function_words: frozenset[str], listed: Callable[[str], bool],
               captions: bool) -> tuple[list[int], EntitySlot] | None:
    """The longest run of words from token ``i`` that spells one of the ``hyphened`` words,
    or stands for the word of one of the ``near`` tokens after it (``named``: its form, sound
    and slot), with that word's slot; ``None`` where none does."""
    run: list[int] = []
    for k in range(i, min(i + _MOST_PIECES, len(tokens))):
        tok = tokens[k]
        own = decisions[k]
        if tok.kind != "word" or not tok.text[:1].isalpha() or (run and text[
                tokens[run[-1]].end:tok.start] != " ") or not (
                own is None or isinstance(own, EntitySlot)):
            break
        run.append(k)
    listed_at = [listed(tokens[k].text.lower()) for k in run]
    for size in range(len(run), 1, -1):
        pieces = run[:size]
        said = [tokens[k].text for k in pieces]
        lowered = [w.lower() for w in said]
        if lowered[-1] in function_words or lowered[-1][-1] in "'’" or all(
                w in function_words for w in lowered) or (
                size == 2 and lowered[0] in function_words):
            continue  # "du pont c'" of "du pont c'est … dupont"; "le maire" beside "lemaire"
        joined = plain_form("".join(said))
        lower = all(w.islower() for w in said)
        slot = hyphened.get(joined) if captions or not any(
            w.islower() for w in said) else None
        if slot is None and lower and near:
            longest = max(len(plain_form(w)) for w in said)  # no word is the name by itself
            slot = _sounds_like(joined, longest, [named[k] for k in near if k > pieces[-1]],
                                spelled=any(listed_at[:size]))
        if slot is not None and not all(decisions[k] is slot for k in pieces):
            return pieces, slot
    return None


def _sounds_like(joined: str, longest: int, named: list[tuple[str, str, EntitySlot]], *,
                 spelled: bool) -> EntitySlot | None:
    """The slot of the word of ``named`` (form, sound, slot) that ``joined`` (words heard,
    run together; the longest of them ``longest`` letters) spells or sounds most like, as
    :func:`split_mentions` says; ``None`` where none does; with ``spelled`` (a listed given
    name among the words), only one it spells."""
    heard = skeleton(joined)
    best: EntitySlot | None = None
    best_ratio = 0.0
    for form, sound, slot in named:
        if abs(len(form) - len(joined)) > _MORE_LETTERS or longest > len(form) - _SHORTER:
            continue
        if form == joined:
            return slot
        if spelled or not heard or not sound or heard[0] != sound[0]:
            continue
        ratio = SequenceMatcher(None, heard, sound).ratio()
        if ratio >= SPLIT_SOUND_ALIKE and ratio > best_ratio and SequenceMatcher(
                None, joined, form).ratio() >= SPLIT_LETTERS_ALIKE:
            best, best_ratio = slot, ratio
    return best
