"""Text mode's entity words: what each token of a piece becomes under an
:class:`~emprivacy.entities.marking.EntityMarking`.

The template (:mod:`emprivacy.preparation.template`) asks :func:`entity_decisions` for the
tokens of each piece; a token no span covers (or a capitalised word in no public list) gets
``None`` and is handled as it always was.  Otherwise:

* ``Placeholder``: the span becomes one placeholder (``[PERSON]``, ``[PHONE]``, …); the
  tokens that follow it in the same span, and the layout between them, are left out;
* ``Kept``: the word as written (policy ``keep``: outside the guarantee);
* ``EntitySlot``: a slot of the restricted mechanism, keyed by its type and its
  normalised word (every mention of one key in a document gets one surrogate), from its
  vocabulary row — or, for a word outside its type's sub-vocabulary under
  ``oov="subword"``, from its vector (``point``).

Function words of text mode's allow-list inside a privatised span stay as they are (layout),
a word in lower case there is an ordinary word (``says`` of a span ``Thompson says``);
numbers, URLs, e-mail addresses, paths and symbols stay placeholders of their own kind
unless a placeholder span covers them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import partial

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.initials import COMMON_ZIPF
from emprivacy.entities.kinds import name_article
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.modal_names import MODAL_NAMES
from emprivacy.entities.name_words import french_family_names, zipf_in
from emprivacy.entities.names import ordinary_in_capitals
from emprivacy.entities.naming import CHAT_CLITICS, ORDINARY_ZIPF, ordinary_mention
from emprivacy.entities.ordinary_capitals import ordinary_in_capitals_of
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan, SpanIndex
from emprivacy.entities.text_shape import DETERMINERS, caseless_line
from emprivacy.preparation.by_names import by_names
from emprivacy.preparation.corrections import attempted_names
from emprivacy.preparation.covering import covering_index
from emprivacy.preparation.decisions import (
    GENERAL,
    Decision,
    DocumentPeople,
    Dropped,
    EntitySlot,
    Kept,
    Placeholder,
    take_initial,
)
from emprivacy.preparation.family_names import family_names_beside_given, split_family_names
from emprivacy.preparation.given_names import (
    given_after_commas,
    given_before_names,
    roll_names,
    signed_off,
    spoken_rolls,
)
from emprivacy.preparation.greetings import greeted_names
from emprivacy.preparation.heard_names import fillers_released, heard_in_language, only_captions
from emprivacy.preparation.initials_after import initials_after_names
from emprivacy.preparation.known_words import known_name_words
from emprivacy.preparation.learned_gaps import learned_gaps
from emprivacy.preparation.name_contexts import handle_piece, named_or_placed
from emprivacy.preparation.name_heads import kinds_around_names
from emprivacy.preparation.name_lists import comma_cells, lines_of_names
from emprivacy.preparation.name_parts import (
    capital_initials,
    handle_initials,
    initials_everywhere,
    initials_in_names,
    join_initials,
    login_names,
    surnames_before_brackets,
    surnames_before_commas,
    transcript_marker,
)
from emprivacy.preparation.organisations import one_placeholder_per_run, organisation_runs
from emprivacy.preparation.paging import paged_names
from emprivacy.preparation.particles import (
    NAME_PARTICLES,
    breton_articles,
    elided_particles,
    lower_case_particles,
    lower_letters_before_capitals,
)
from emprivacy.preparation.place_joins import joining_words, place_joins
from emprivacy.preparation.split_mentions import split_mentions
from emprivacy.preparation.titles import kin_word, title_outside_name, words_beside_given
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import LOWERCASE_ONLY

__all__ = ["entity_decisions"]

def entity_decisions(marking: EntityMarking, text: str, tokens: Sequence[Token],
                     words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                     embeddings: Embeddings, oov: str, initials: bool = False,
                     titles: frozenset[str] = frozenset(),
                     linking: frozenset[str] = frozenset(), lone_initials: bool = False,
                     document: DocumentPeople | None = None
                     ) -> tuple[list[Decision], Counter[str]]:
    """What each token of a piece becomes, and the entity words counted by type.

    ``words``, ``rows`` and ``verbatim`` are, per token, its normalised word (``""`` for
    other kinds), its vocabulary row (``-1``: none) and whether text mode keeps it as a
    function word.  The counter holds, per type, the words (and placeholders) that the
    marking protected, and under :data:`GENERAL` the words a detector proposed that are
    released at the general ε (a capitalised ordinary word: ``Objection``, ``Court``).

    Nothing detected as a name is demoted to the general ε (issue 40): a person or place
    word outside its type's sub-vocabulary gets a surrogate drawn independently of it
    (:attr:`EntitySlot.independent`, a slot that costs ε = 0), so that ``[PERSON]`` beside
    a surrogate tells the reader nothing about whose name is on a list; a capitalised
    word that is name-like (:meth:`EntityMarking.name_like`) is a ``PERSON`` even when no
    list holds it.  One decision per word form in a piece: a form privatised as a person
    at one mention is privatised at every mention of it that is not already a slot or a
    placeholder (``Bishop`` typed ``ORG`` after ``Tom Bishop``), whatever type a model gave
    that mention; so are initials at every mention once typed a person or an organisation
    (:func:`~.name_parts.initials_everywhere`).  With ``initials`` (text mode), an initial
    before a person's slot or placeholder is part of the name
    (:func:`~.name_parts.join_initials`) unless it is one of the
    language's ``titles`` (French ``M.``, monsieur), and so are a speaker's attempts at the
    name right before it (``raj rajinder``: :func:`~.corrections.attempted_names`); with
    ``lone_initials`` too (French), an initial anywhere in a person's span, a signature of
    initials alone included (:func:`~.name_parts.initials_in_names`).  The ``linking`` words
    of the language (French ``de``, ``des``, ``l'``; text mode) between a place's slots, and
    the ``'s`` of ``Robin's Stone``, are :class:`Dropped` (:mod:`~.place_joins`).  The words
    a public address pages are a person's (:func:`~.paging.paged_names`).  ``document``:
    the document's people in the pieces before, read and added to (a name's form privatised
    as a person in one piece is in every later one: :class:`DocumentPeople`).  Last, in
    both branches, every word of a name the user knows is protected (:mod:`~.known_words`).
    """
    spans = marking.detect([text])[0]
    decisions: list[Decision] = [None] * len(tokens)
    counted: Counter[str] = Counter()
    if not spans:  # no detector found anything: a signature's or a spelled word's letters
        if initials:  # still are a name's (thanks, j. / c h l o e)
            join_initials(decisions, counted, text, tokens, titles,
                          function_words=get_language(marking.lang).kept_function_words)
        learned_gaps(marking, decisions, counted, text, tokens, words, rows, verbatim,
                     first_span=0, slot=lambda t, k, w, r: _slot(t, k, w, r, {}))
        comma_cells(marking, decisions, counted, text, tokens, words, rows)
        given_before_names(marking, decisions, counted, text, tokens, words, titles)
        if document is not None and document.slots:  # the document's people named before
            _one_decision_per_form(marking, decisions, counted, text, tokens, words, verbatim,
                                   document)
        split_family_names(marking, decisions, counted, text, tokens, words)
        if initials:
            heard_in_language(marking, decisions, counted, text, tokens)
        words_beside_given(marking, decisions, counted, text, tokens, words)  # every name known
        greeted_names(marking, decisions, counted, text, tokens, words, rows,
                      slot=partial(_slot, points={}))  # a voicemail's "carys its will"
        known_name_words(marking, decisions, counted, text, tokens, words, rows,
                         slot=partial(_slot, points={}))  # a filter may have dropped its span
        return decisions, counted
    points = _points(spans, tokens, words, rows, embeddings=embeddings, oov=oov)
    slot = partial(_slot, points=points)  # a slot of this piece (its subword vectors)
    covering_of = covering_index(tokens, spans)
    people = SpanIndex(s for s in spans if s.type == "PERSON")
    for i, tok in enumerate(tokens):
        covering = covering_of[i]
        if not covering:
            continue
        entity_type, span = marking.span_type(spans, covering)
        is_word = tok.kind == "word"
        kind, resolved = marking.resolve(entity_type, rows[i] if is_word else -1,
                                         words[i] if is_word else None)
        if entity_type == PROPER_NOUN and is_word and (ordinary_in_capitals(
                i, tokens, words, text, marking.english_zipf, marking.listed_given)
                or ordinary_in_capitals_of(marking.lang, words, i, text, tok.start)):
            kind, resolved = "word", None  # "A FARMER" in capitals, "LE MAIRE"
        elif kind == "word" and is_word and (marking.name_like(words[i]) or (
                entity_type == PROPER_NOUN and not marking.designator(words[i])
                and words[i] not in titles and (  # not Pharmacy of "Adeyemi Pharmacy"
                    (marking.given_or_unlisted(words[i])  # a person's word after it
                     and not people.free(tok.end, spans[span].end))
                    or _after_title(text, spans[span], titles, tok)))
                or _initials_before(text, tokens, i)):
            # a name on no list, a word before a person's name in one capitalised run
            # (CONOR of "BRENNAN, CONOR PATRICK"; not PRESCRIBED of "DR LEE PRESCRIBED"), or
            # right after the title that leads a run (DIMITRI of "M. DIMITRI VASSILIOU"), the
            # initials of the words after them (KW of "KW Kieran Walsh SCA": a staff list)
            kind, resolved = marking.resolve("PERSON", rows[i])
        if is_word and (kind == "placeholder" or (
                resolved == "PERSON" and kin_word(marking, words[i]))) and title_outside_name(
                marking, text, spans[span], tok, words[i], titles, people):
            # "SGT" of "SGT OKAFOR", "Dr" of "Register Office of Dr Chen", "REF" before an
            # ID, "Dad" of "Dad Tom Brook": a title, family word or form's key is no name's
            counted[GENERAL] += 1
            continue
        if kind == "placeholder":
            decisions[i] = Placeholder(span, placeholder(str(resolved)), str(resolved),
                                       spans[span].start)
            counted[str(resolved)] += 1
        elif kind == "word":  # a capitalised ordinary word: released at the general ε
            if is_word and not verbatim[i]:
                counted[GENERAL] += 1
        elif not is_word or (verbatim[i] and not _name_function_word(marking, words[i])
                             and not (resolved == "PERSON"  # "of" of "@earl_of_oxlade"
                                      and handle_piece(text, tok, display=True))
                             and not _particle(text, tok, resolved, spans[span], tokens, i)
                             and not _place_article(marking, text, tok, resolved, spans[span],
                                                    tokens, i)):
            continue  # numbers, locators, symbols; function words
        elif initials and resolved == "PERSON" and kind in ("slot", "unlisted") \
                and capital_initials(tok.text) and words[i] not in titles \
                and not (len(tok.text) == 3 and marking.label_word(words[i])) \
                and not transcript_marker(text, tok):  # "A. Bakare said no."
            # "JM", "J.M." of a person's span (initials of a name the text spells out:
            # initials_of_names): no ordinary word, whatever lists hold
            if len(tok.text) == 1:
                take_initial(decisions, counted, i, tok)
            else:
                decisions[i] = _slot(str(resolved), kind, words[i], rows[i], points)
                counted[str(resolved)] += 1
        elif kind != "keep" and not (resolved == "LOCATION" and marking.designator(words[i])) \
                and (((tok.text.islower() or resolved == "PERSON")
                      and not marking.listed_or_rare(words[i])
                      and not named_or_placed(text, tok, english=marking.english)
                      and not marking.toponym(tok.text)  # notre-dame-de-la-mer
                      and not (resolved == "PERSON" and len(tok.text) > 1
                               and handle_piece(text, tok, display=True))  # a letter:
                      and not (i and words[i - 1] in titles  # "monsieur constant"
                               and len(tok.text) > 1  # an initial: join_initials below
                               and words[i] not in NAME_PARTICLES  # lower_case_particles
                               and text[tokens[i - 1].end:tok.start] in (" ", ". ")))
                     or marking.label_word(words[i]) or words[i] in titles  # "st anselms"
                     or (tok.text.islower() and words[i] in CHAT_CLITICS)):  # "ill mark"
            # "says" of "Thompson says"; a title or a form's key in any span ("MR" of
            # "MR. HALE" typed a place, "DOB", "Client"; the language's titles, French "Me"
            # of "Me Claire Dubois", Maître): no name
            counted[GENERAL] += 1
            continue
        elif kind == "keep":
            decisions[i] = Kept(str(resolved))
            counted[str(resolved)] += 1
        else:
            decisions[i] = _slot(str(resolved), kind, words[i], rows[i], points)
            counted[str(resolved)] += 1
    _one_decision_per_form(marking, decisions, counted, text, tokens, words, verbatim, document)
    initials_everywhere(marking, decisions, counted, text, tokens, words, verbatim)
    organisation_runs(marking, decisions, counted, spans, covering_of, tokens, words,
                      verbatim, text=text)
    one_placeholder_per_run(decisions, text, tokens)
    lower_case_particles(marking, decisions, counted, text, tokens, words, titles)
    given_before_names(marking, decisions, counted, text, tokens, words, titles)
    surnames_before_commas(decisions, counted, text, tokens, words, marking)
    given_after_commas(marking, decisions, counted, text, tokens, words)
    surnames_before_brackets(decisions, counted, text, tokens, words, marking)
    login_names(marking, decisions, counted, text, tokens, words)
    roll_names(marking, decisions, counted, text, tokens, words)
    spoken_rolls(marking, decisions, counted, text, tokens, words)
    signed_off(marking, decisions, counted, text, tokens, words)
    covered = [bool(c) for c in covering_of]
    family_names_beside_given(marking, decisions, counted, text, tokens, words, covered, titles,
                              document)
    elided_particles(marking, decisions, text, tokens, words, titles, counted=counted)
    by_names(marking, decisions, counted, text, tokens, words, titles)
    paged_names(decisions, counted, text, tokens)
    if initials:
        language = get_language(marking.lang)
        join_initials(decisions, counted, text, tokens, titles,
                      function_words=language.kept_function_words)
        attempted_names(decisions, counted, text, tokens,
                        function_words=language.kept_function_words,
                        ordinary=lambda w: zipf_in(w, language.wordfreq_code) >= COMMON_ZIPF,
                        listed=marking.listed_given)
        if lone_initials:
            personal = [any(spans[j].type == "PERSON" for j in c) for c in covering_of]
            initials_in_names(decisions, counted, text, tokens, personal, titles)
    lines_of_names(marking, decisions, counted, text, tokens, words, rows, verbatim)
    place_joins(marking, decisions, spans, covering_of, text, tokens, words, linking,
                joining=joining_words(get_language(marking.lang).code))
    learned_gaps(marking, decisions, counted, text, tokens, words, rows, verbatim,
                 first_span=len(spans), slot=slot, covered=covered)
    comma_cells(marking, decisions, counted, text, tokens, words, rows, covered=covered)
    kinds_around_names(marking, decisions, counted, text, tokens, words, rows, verbatim,
                       slot=slot, covered=covered)
    # again, for the family names the passes since decided (a learned gap's "désiré"), and
    given_before_names(marking, decisions, counted, text, tokens, words, titles)
    _one_decision_per_form(marking, decisions, counted, text, tokens, words, verbatim, document,
                           late=True)  # for the names later passes made ("Priyanka" of a list)
    split_family_names(marking, decisions, counted, text, tokens, words)  # normand le blanc
    if initials:  # the letter of a user name whose surname a late pass decided
        handle_initials(decisions, counted, text, tokens)
        initials_after_names(decisions, counted, text, tokens, titles=titles)  # théo g.
        heard_in_language(marking, decisions, counted, text, tokens)  # every name known
        split_mentions(decisions, counted, text, tokens, captions=only_captions(text, tokens),
                       function_words=language.kept_function_words, listed=marking.given_name)
    words_beside_given(marking, decisions, counted, text, tokens, words)  # Margaret Lord, big pat
    greeted_names(marking, decisions, counted, text, tokens, words, rows, slot=slot)  # carys its
    lower_letters_before_capitals(decisions, counted, text, tokens)  # c Wood
    breton_articles(marking, decisions, text, tokens)  # once every name is known
    fillers_released(decisions, counted, tokens, words)  # "and um gerry": no Um
    known_name_words(marking, decisions, counted, text, tokens, words, rows, slot=slot,
                     covered=covered)
    return decisions, counted


def _after_title(text: str, span: EntitySpan, titles: frozenset[str], tok: Token) -> bool:
    """Whether ``span`` starts with one of the language's ``titles`` and ``tok``, no title,
    is the word right after it (``DIMITRI`` of ``M. DIMITRI VASSILIOU``; not ``PRESCRIBED`` of
    ``DR LEE PRESCRIBED``)."""
    if tok.start - span.start > 16:  # a title, its full stop and spaces: a bounded look
        return False
    head = text[span.start:tok.start].replace(".", " ").split()
    return len(head) == 1 and head[0].lower() in titles


def _initials_before(text: str, tokens: Sequence[Token], i: int) -> bool:
    """Whether token ``i``, two or three capitals, spells the first letters of the words
    right after it, one space apart (``KW Kieran Walsh``): a list's initials (issue 40)."""
    letters = tokens[i].text
    if not (2 <= len(letters) <= 3 and capital_initials(letters)) \
            or i + len(letters) >= len(tokens):
        return False
    after = tokens[i + 1:i + 1 + len(letters)]
    return all(t.kind == "word" and t.text[:1] == c and t.text[1:2].islower()
               and text[p.end:t.start] == " "
               for c, t, p in zip(letters, after, tokens[i:], strict=False))


def _slot(entity_type: str, kind: str, word: str, row: int,
          points: dict[str, np.ndarray]) -> EntitySlot:
    """The slot of a word of a privatised type: from its row (``kind == "slot"``), from its
    vector under ``oov="subword"``, else drawn independently of it."""
    if kind == "slot":
        return EntitySlot((entity_type, word), row)
    point = points.get(word)
    if point is not None:
        return EntitySlot((entity_type, word), -1, point)
    return EntitySlot((entity_type, word), -1, None, independent=True)


def _particle(text: str, tok: Token, resolved: str | None, span: EntitySpan,
              tokens: Sequence[Token], i: int) -> bool:
    """A function word in Title case inside a person's span, before more of it: the
    particle of a family name (``Le`` of ``Marie Le Goff``, ``De`` of ``Robert De Niro``),
    part of the name, where it was kept verbatim as a function word; or a person's span of
    that word alone before a capitalised word, one space between (``Le`` of ``Maître
    Pierre-Yves Le Bihan``, which a model typed apart; issue 42, French held out 8)."""
    if not (resolved == "PERSON" and len(tok.text) > 1 and tok.text[0].isupper()
            and tok.text[1:].islower() and i + 1 < len(tokens)):
        return False
    nxt = tokens[i + 1]
    return nxt.start < span.end or (
        span.end == tok.end and text[tok.end:nxt.start] == " " and nxt.kind == "word"
        and nxt.text[:1].isupper())


#: The articles that may open a place's name (French ``La Flèche``, ``LE MANS``); only those
#: of the marking's linking words count (none in English).
_ARTICLES = frozenset({"le", "la", "les"})


def _place_article(marking: EntityMarking, text: str, tok: Token, resolved: str | None,
                   span: EntitySpan, tokens: Sequence[Token], i: int) -> bool:
    """An article written as a place's first word, inside its span before more of it (``La``
    of ``à La Flèche``, ``LE`` of ``LE MANS``:
    :func:`~emprivacy.entities.kinds.name_article`), where it was kept verbatim as a
    function word: part of the name, in a language whose linking words hold it."""
    word = tok.text.lower()
    return (resolved == "LOCATION" and word in _ARTICLES and word in marking.linking_words()
            and tok.start == span.start and i + 1 < len(tokens)
            and tokens[i + 1].start < span.end
            and name_article(text, tok.start, tok.end, tokens[i - 1].end if i else None))


def _name_function_word(marking: EntityMarking, word: str) -> bool:
    """A function word that text mode keeps only in lower case and that is a name too
    (``will``, ``may``): inside a name's span it is the name."""
    return word in LOWERCASE_ONLY and marking.listed_or_rare(word)


#: A form a late pass privatised as a person is followed to its other mentions only below
#: this Zipf frequency in English (:func:`_one_decision_per_form`).
LATE_ZIPF = 4.0
#: A person's word rarer than this in English follows into its lower-case mentions (stage 51).
RARE_LOWER_ZIPF = 3.0


#: Quotation marks around a word mentioned as a word.
_QUOTES = frozenset("\"“”'‘’«»")


def _one_decision_per_form(marking: EntityMarking, decisions: list[Decision],
                           counted: Counter[str], text: str,
                           tokens: Sequence[Token], words: Sequence[str],
                           verbatim: Sequence[bool], document: DocumentPeople | None = None, *,
                           late: bool = False) -> None:
    """Every mention of a word form privatised as a ``PERSON`` somewhere in the piece, or in
    the document's pieces before (``document``, then given this piece's), gets the same
    slot, unless it is already a slot (but a capitalised place's: ``Rault, de Kerguelen``
    beside ``de Kerguelen Aymeric``), a placeholder (but an organisation's: ``Bishop said``
    after ``Tom Bishop``) or a kept function word (``will``
    the verb beside ``will`` the name needs a detector's word for each).  ``late``: after the
    passes that find names by their neighbours, whose forms are followed only where they
    are no common English word (Zipf below :data:`LATE_ZIPF`: ``Priyanka``, not ``thank``
    of ``thank you hilary``).  A lower-case mention follows where the form is named in lower
    case too, or is rarer than :data:`RARE_LOWER_ZIPF` in a line without a capital and not
    after a determiner (``carys its me`` under ``From: Carys Watkins``; not ``some fennel``)."""
    named = [(j, d) for j, d in enumerate(decisions)  # a particle's slot is no name's ("de
             if isinstance(d, EntitySlot) and d.key[0] == "PERSON"  # la mer"), nor a user
             and d.key[1] not in NAME_PARTICLES  # name's piece ("food" of "@euan_forbes_food")
             and not (late and marking.english_zipf(d.key[1]) >= LATE_ZIPF)
             and not handle_piece(text, tokens[j])]
    people = {d.key[1]: d for _, d in named}
    lower = {words[j] for j, _ in named if tokens[j].text.islower()  # named in lower case too
             and not _common_given(marking, decisions, text, tokens, words, j)}
    if document is not None:
        document.remember(people, lower)
        people = {**document.slots, **people}
        lower |= document.lower
    if not people:
        return
    caseless: dict[int, bool] = {}  # by line start: a line read once, however many words
    for i, tok in enumerate(tokens):
        d = decisions[i]
        if tok.kind != "word" or verbatim[i] or words[i] not in people:
            continue
        retyped = ("ORG" if isinstance(d, Placeholder) and d.type == "ORG" else "LOCATION"
                   if isinstance(d, EntitySlot) and d.key[0] == "LOCATION"
                   and (not tok.text.islower() or marking.label_word(words[i])) else None)
        if isinstance(d, EntitySlot | Placeholder | Kept | Dropped) and retyped is None:
            continue  # (a dropped word goes with a name already: "poule y quand pardon")
        if words[i] in MODAL_NAMES and tok.text.isupper() and not (
                text[tok.start - 1:tok.start] in _QUOTES and text[tok.end:tok.end + 1] in _QUOTES):
            continue  # "WE WILL" beside a roll's "HOPE, WILL": in capitals each needs its
            # own evidence, but a mention quoted as a word (THE SURNAME "WILL")
        if tok.text.islower() and words[i] not in lower and not (
                marking.lang == "en" and marking.english_zipf(words[i]) < RARE_LOWER_ZIPF
                and not (i and words[i - 1] in DETERMINERS)
                and caseless_line(text, tok.start, caseless)):
            continue  # "the baker" beside "Baker": only capitalised mentions follow, but a
            # word rare in English does in a line without capitals, where case tells nothing
            # ("carys its me" below a voicemail's "Carys Watkins"; not "the executors")
        if capital_initials(tok.text) and marking.english_zipf(words[i]) >= COMMON_ZIPF:
            continue  # one to three capitals that are a common word ("DO NOT" beside the
            # initials "(DO)"; "TOM", "SAM" too): each mention needs a detector's own word
        if (tok.text.islower() and ordinary_mention(
                i, words, marking.english_zipf,
                gap=text[tokens[i - 1].end:tok.start] if i else None)) or ordinary_in_capitals(
                    i, tokens, words, text, marking.english_zipf, marking.listed_given):
            continue  # "i'll mark that" beside "your engineer is mark": the verb ("I HOPE")
        if retyped is not None:  # "Bishop" typed ORG, "Kerguelen" a place here: the person's
            counted[retyped] -= 1
        decisions[i] = people[words[i]]
        counted["PERSON"] += 1


def _common_given(marking: EntityMarking, decisions: Sequence[Decision], text: str,
                  tokens: Sequence[Token], words: Sequence[str], j: int) -> bool:
    """Whether the lower-case slot at ``j``, in a language other than English, is a word
    common as :data:`ORDINARY_ZIPF` right before a person's slot, on no list as a given or
    family name (``merci`` of ``merci pierre``; a list's ``mercier paul`` is a name), or a
    family name as common as :data:`COMMON_ZIPF` after one before a colon (a speaker's
    ``désiré blanc :``, ``vin blanc``; stage 46), or after ``le`` or ``la`` there (``le grand
    :``, ``un grand merci``; stage 48): its other lower-case mentions need their own evidence."""
    if marking.lang == "en" or j + 1 >= len(tokens):
        return False
    before, after, word = decisions[j - 1] if j else None, decisions[j + 1], words[j]
    if (zipf := zipf_in(word, get_language(marking.lang).wordfreq_code)) < ORDINARY_ZIPF:
        return False
    if zipf >= COMMON_ZIPF and text[tokens[j].end:tokens[j].end + 3].lstrip(" \u00a0\u202f")[
            :1] == ":" and ((isinstance(before, EntitySlot) and before.key[0] == "PERSON"
                             and marking.family_name(word)) or words[j - 1] in ("le", "la")):
        return True  # "désiré blanc :", a nickname's "le grand :" (issue 42, stage 48)
    return ("-" not in word  # "ti-jean legrand": a name
            and isinstance(after, EntitySlot) and after.key[0] == "PERSON"
            and not marking.given_name(word)
            and word not in french_family_names())  # not the census's (bonjour, bravo)


def _points(spans: Sequence[EntitySpan], tokens: Sequence[Token],
            words: Sequence[str], rows: Sequence[int], *, embeddings: Embeddings, oov: str
            ) -> dict[str, np.ndarray]:
    """Under ``oov="subword"``: the vector of each word a span covers, for the words outside
    their type's sub-vocabulary — its embedding, or its subword vector (not the zero vector)."""
    if oov != "subword":
        return {}
    covering = covering_index(tokens, spans)
    covered = [i for i, tok in enumerate(tokens) if tok.kind == "word" and covering[i]]
    out: dict[str, np.ndarray] = {}
    unknown = sorted({words[i] for i in covered if rows[i] < 0})
    for i in covered:
        if rows[i] >= 0:
            out[words[i]] = embeddings.vectors[rows[i]].astype(np.float64)
    if unknown:
        for w, v in zip(unknown, embeddings.subword_vectors(unknown), strict=True):
            if np.any(v != 0):
                out[w] = np.asarray(v, dtype=np.float64)
    return out
