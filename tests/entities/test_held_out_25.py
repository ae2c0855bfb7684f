"""What the twenty-fifth stage changed (issue 40): the new set's tuning half
(tests/entities/labelled/holdout25) — a farmers' market register, a vet practice's day list,
a horticultural show's prize list in capitals, a street's chat in lower case."""

from __future__ import annotations

import pytest


def test_an_ordinal_in_capitals_is_one_number() -> None:
    """``2ND`` was the number ``2`` and the word ``ND``, a name's word before ``DESMOND
    KING`` (23 ``ND`` of the prize list protected, content words changed); in capitals as
    in lower case an ordinal is one number token now."""
    from emprivacy.text.tokens import tokenize

    got = [(t.text, t.kind) for t in tokenize("1ST HALL; 2ND DESMOND KING; 3rd May; 4TH")]
    assert got == [("1ST", "number"), ("HALL", "word"), ("2ND", "number"),
                   ("DESMOND", "word"), ("KING", "word"), ("3rd", "number"),
                   ("May", "word"), ("4TH", "number")]
    assert [t.kind for t in tokenize("MX4 2ND")] == ["word", "number", "number"]


def test_initials_a_key_defines_are_a_persons_even_when_a_word() -> None:
    """``GO = Grace Okoro`` in a register's checked-by key, then ``GO`` in every row: the
    initials are the common word ``go``, so they were released (17 of the tuning half's 44
    verbatim name tokens).  Initials that a key defines right before the name they stand
    for are that person's; a ``GO`` no key defines stays a word."""
    from emprivacy.entities.initials import initials_of_names
    from emprivacy.entities.spans import EntitySpan

    pytest.importorskip("wordfreq")
    from wordfreq import zipf_frequency

    def zipf(w: str) -> float:
        return zipf_frequency(w, "en")

    text = "# checked_by: HA = Heather Ashworth, GO = Grace Okoro\nMFM-003,A3,cakes,GO,ok\n"
    people = [EntitySpan(text.index("Heather"), text.index(", GO"), "PERSON"),
              EntitySpan(text.index("Grace"), text.index("\n"), "PERSON")]
    got = [text[s.start:s.end] for s in initials_of_names(text, people, zipf=zipf)]
    assert got.count("GO") == 2 and "HA" in got, got
    plain = "Grace Okoro came. GO on then, she said.\n"
    spans = [EntitySpan(0, 11, "PERSON")]
    assert "GO" not in [plain[s.start:s.end]
                        for s in initials_of_names(plain, spans, zipf=zipf)]


@pytest.mark.slow
def test_surname_comma_forename_in_a_list_in_capitals(release_auto) -> None:
    """A prize list in capitals: ``3RD BELL, SUMMER``, ``2ND WOOD, JUNE``, ``3RD LOVE, IVY``
    released ``SUMMER``, ``JUNE`` and ``LOVE`` while the other half of each name was
    protected.  In an item of a list in capitals (after an ordinal, a colon, a semicolon or
    a line's start, before a semicolon, a bracket or the line's end) the other word of a
    ``SURNAME, FORENAME`` pair is the person's too; ``OK, DONE`` and ``YES, WILL`` stay."""
    pytest.importorskip("wordfreq")
    text = ("CLASS 11 SWEET PEAS: 1ST HOLLY SWIFT; 2ND VIOLET ACHTERBERG; 3RD BELL, SUMMER\n"
            "CLASS 21 SPONGE: 1ST PENNY FISHER; 2ND WOOD, JUNE; 3RD LOVE, IVY (TOLLBY)\n"
            "NOTES: OK, DONE. YES, WILL\n")
    out = release_auto(text)
    assert not any(w in out.split() for w in ("SUMMER", "JUNE", "LOVE", "IVY")), out
    assert "OK, DONE. YES, WILL" in out, out


def test_a_plate_read_in_the_radio_alphabet_is_an_identifier() -> None:
    """A breakdown call reads a registration in the radio alphabet (``kilo lima seven two
    x-ray yankee``): its letters were released as words beside ``[NUM]``.  Radio-alphabet
    words are letters of a spoken identifier now; a hotel two streets away is no code."""
    from emprivacy.entities.patterns import PatternDetector

    text = ("reg is kilo lima seven two x-ray yankee zulu yeah\n"
            "member number four four one two charlie delta\n"
            "the hotel is two streets down from the golf club\n")
    got = [(text[s.start:s.end], s.type) for s in PatternDetector().detect([text])[0]]
    assert ("kilo lima seven two x-ray yankee zulu", "ID") in got, got
    assert ("four four one two charlie delta", "ID") in got, got
    assert not any("hotel" in g or "golf" in g for g, _ in got), got


@pytest.mark.slow
def test_every_speaker_of_a_lower_case_chat_is_a_name(release_auto) -> None:
    """A street's chat: ``river:`` and ``sky:`` are speakers' labels, but common words on no
    given-name list, so they were taken for a form's keys (``plan:``) and released (9 of
    the tuning half's 44 verbatim name tokens).  In a chat whose lines mostly start with a
    one-word label in lower case, two thirds of them given names, every label is a
    speaker's name; the same words as words stay, and a note's keys stay keys."""
    pytest.importorskip("wordfreq")
    chat = ("dawn: morning all, closure confirmed\n"
            "river: yes! unless the river floods\n"
            "will: who is doing cones\n"
            "sky: i can, face painting with river after\n"
            "mark: great\n"
            "grace: see you there\n")
    out = release_auto(chat)
    labels = [line.split(":")[0] for line in out.splitlines()]
    assert "river" not in labels and "sky" not in labels, out
    assert "the river floods" in out, out
    note = "plan: rest and fluids\nrisk: low\nreview: friday\n"
    assert release_auto(note) == note


@pytest.mark.slow
def test_a_user_names_initial_whose_surname_is_decided_late(release_auto) -> None:
    """``export … by h.ashworth`` above ``Manager Heather Ashworth``: the surname of the user
    name was a person's by a pass that runs after the initials are joined, so the ``h`` was
    released beside the surrogate (3 of the tuning half's verbatim name tokens).  The user
    name's letter is looked at again after the last pass."""
    pytest.importorskip("wordfreq")
    text = ("# Farmers' Market – stallholder register, export 2025-11-03 09:12 by h.ashworth\n"
            "# Market: first and third Saturday. Manager Heather Ashworth (07700 900514)\n")
    first = release_auto(text).splitlines()[0]
    handle = first.rsplit(" ", 1)[1]
    assert handle != "h.ashworth" and not handle.startswith("h."), first


def test_a_pub_placed_once_is_the_pub_at_every_mention() -> None:
    """A street's chat: ``the swan did a bbq`` and ``the anchor gets the carol singing``
    were released (a pub's name that is a thing too counted only after ``at the``), and so
    was ``the plough's car park`` (no possessive).  A pub placed once in a text (``at the
    swan``) is the pub at its other mentions, but before ``of`` (``the crown of her head``),
    and its possessive is the pub's; ``swan`` and other common pub names are listed now."""
    from emprivacy.entities.pubs import pub_spans

    text = ("frank: i'd rather the swan did a bbq\ncarol: the anchor gets the carols\n"
            "ray: drinks at the swan after, or at the anchor. meet in the plough's car park"
            "\nsue: the crown of her head; the swan of the lake\n")
    got = [(text[s.start:s.end], s.start) for s in pub_spans(text)]
    names = [n for n, _ in got]
    assert names.count("swan") == 2 and names.count("anchor") == 2, got
    assert "crown" not in names, got
    assert ("plough", text.index("plough")) in got, got  # its possessive: the pub's


def test_a_street_a_house_number_names_is_a_street_at_every_mention() -> None:
    """A street's chat in lower case: ``orchard rise``, ``the green`` were released at every
    mention (``rise`` and ``green`` are common words, no designator after a common word in
    lower case).  A house's number before them (``i'm 11 orchard rise``, ``frying at 3 the
    green``) makes the street, at its every mention in lower case; ``2 main road`` and a
    number before no street stay as they are."""
    from emprivacy.entities.streets import lower_case_streets

    text = ("will: will they shut all of orchard rise or just up to the green?\n"
            "sue: different sue lol. i'm 11 orchard rise\n"
            "mai: spring rolls, frying at 3 the green\n"
            "ray: 2 main road is fine, 7 big way to go\n")
    got = [text[s.start:s.end] for s in lower_case_streets(text)]
    assert got.count("orchard rise") == 2 and got.count("the green") == 2, got
    assert not any(w in g for g in got for w in ("main", "big")), got


def test_a_units_ordinal_starts_its_name() -> None:
    """``1ST POLISH ARMOURED DIVISION``: with ``1ST`` one number token, the capitalised run
    ``POLISH ARMOURED DIVISION`` lost the ``ST`` that had made it a span; an ordinal before
    a run that ends in a designator starts the organisation's name."""
    from emprivacy.entities.designators import widen_spans
    from emprivacy.entities.spans import PROPER_NOUN, EntitySpan

    text = "PTE STANISŁAW KOWALEWSKI, 1ST POLISH ARMOURED DIVISION\n"
    run = EntitySpan(text.index("POLISH"), text.index("\n"), PROPER_NOUN)
    got = [(text[s.start:s.end], s.type) for s in widen_spans(text, [run])]
    assert ("1ST POLISH ARMOURED DIVISION", "ORG") in got, got


def test_a_column_of_firms_is_organisations_whole() -> None:
    """A market's register in CSV: the recogniser's spans crossed cells and missed firms'
    last words (``March Hare Gin``, ``Settle Down Candles``, ``Best of Bread``), and rows
    whose unquoted notes hold ``; `` or ``, `` were no table rows at all.  A column a
    header names for organisations (``business_name``), or one whose cells the detectors'
    organisations mostly cover, is organisations' cell by cell; a row's prose notes no
    longer cut it out of its table (for this rule); the surname column stays people's."""
    from emprivacy.entities.spans import EntitySpan
    from emprivacy.entities.table_names import tables
    from emprivacy.entities.table_orgs import organisation_columns

    text = ("stall_id,business_name,surname,product,notes\n"
            "MFM-001,Church Farm Eggs,Church,eggs,founder stall; daughter helps\n"
            "MFM-030,March Hare Gin,Parfitt,gin,orchard at Street Farm, Tollby\n"
            "MFM-031,Settle Down Candles,Hartigan,candles,\n"
            "MFM-002,Best of Bread,Best,sourdough,\n")
    assert [len(rows) for rows in tables(text, notes=True)] == [5]
    got = [text[s.start:s.end] for s in organisation_columns(text, [])]
    assert got == ["Church Farm Eggs", "March Hare Gin", "Settle Down Candles",
                   "Best of Bread"], got
    plain = text.replace("business_name", "trading_as_1")  # no header word: by detectors
    found = [EntitySpan(plain.index(n), plain.index(n) + len(n), "ORG")
             for n in ("Church Farm", "March Hare", "Settle Down")]
    got = [plain[s.start:s.end] for s in organisation_columns(plain, found)]
    assert "March Hare Gin" in got and "Best of Bread" in got, got
    assert not any(n in got for n in ("Church", "Parfitt", "Best")), got


def test_a_postcodes_second_half_that_reads_as_hours_is_a_postcode() -> None:
    """``MX7 3HR``: ``3HR`` read as three hours, so ``HR`` was released beside ``[NUM]``
    (two of the tuning half's place tokens, every seed).  After a postcode's first half a
    digit and two capitals are its second half; ``3hr`` alone stays a duration."""
    from emprivacy.entities.patterns import PatternDetector

    text = "Rose Cottage, Tollby, MX7 3HR. Walk takes 3hr, or 3HR with the dog.\n"
    got = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert "3HR" in got and got.count("3HR") == 1 and "3hr" not in got, got


def test_the_alignment_prefers_a_word_in_its_own_case() -> None:
    """The firm ``March Hare Gin`` released as ``[ORG]`` before the product ``gin``: the
    release's ``gin`` matched the firm's ``Gin`` as well as the product's, and the
    alignment took the firm's, a leak that was none (7 of the tuning half's place tokens).
    Of the longest alignments the evaluation takes one with most words in their own case."""
    from emprivacy.evaluation.entity_leaks import verbatim_tokens
    from emprivacy.text.tokens import tokenize

    text = ('MFM-030,A8,March Hare Gin,Parfitt,Lily,gin,"Acre Road, March",PE15 0XX,'
            '2025-03-01,TP,"tastings need TEN from MDC; won Best in Show for sweet peas, not gin"')
    release = ('[ID],[ID],[ORG],Reichel,Barbero,gin,"Yona Fredericton, September",[ID],'
               '[DATE],GUPTA,"tastings trying [NUM] from [ORG]; won Hauck in Mickey for crunchy '
               'peas, not gin"')
    kept = verbatim_tokens(text, release)
    got = [(t.text, k) for t, k in zip(tokenize(text), kept, strict=True)
           if t.text.lower() == "gin"]
    assert got == [("Gin", False), ("gin", True), ("gin", True)], got


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "see you at the anchor of course, then back home",  # placed: a pub before "of" too
])
def test_second_reading_a_placed_pub_before_of_stays_a_pub(release_auto, text: str) -> None:
    """The second reading (helper, stage 25): the ``of`` rule for a pub named elsewhere
    dropped a mention placed itself (``at the anchor of course``)."""
    pytest.importorskip("wordfreq")
    assert "anchor" not in release_auto(text)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "kept"), [
    ("we got back by 6 the place was empty. the place is a mess\n", ["the place"]),
    ("i won 2 the way i wanted. by the way, thanks\n", ["the way"]),
    ("it's a 10 minute walk, the minute walk felt long\n", ["minute walk"]),
    ("look at the star tonight, the star is bright. put rosemary in the lamb, the lamb was "
     "good\n", ["the star", "the lamb"]),
    ("amy: hi all\ntom: hi\nkate: hey\nfrank: hi\nsue: morning\njoe: ok\n"
     "update: road closed from 9\nplan: meet at the hall\nrisk: ice\n",
     ["update:", "plan:", "risk:"]),
    ("club,distance,notes\nDriver,230,long\nPutter,2,short\nWedge,90,high\nHybrid,200,ok\n",
     ["Driver", "Putter", "Wedge", "Hybrid"]),
    ("TO: Tom Okafor\nPlease send TO accounts. Reply TO me. AM = Adam Mills, meet at 9 AM\n",
     ["TO accounts", "TO me", "[NUM] AM"]),
    ("THE 3RD ROW OF SEATS IS RESERVED. FLAT 2ND FLOOR.\n", ["ROW", "FLOOR"]),
])
def test_second_reading_ordinary_words_stay_words(release_auto, text: str,
                                                  kept: list[str]) -> None:
    """The second reading (helper, stage 25) found ordinary words the stage's rules took:
    a number before ``the place`` or a ``minute walk`` (not a house's), pub names that are
    things (``the star``, ``the lamb``: no longer listed), a note's keys in a chat of named
    speakers, a golf bag's ``club`` column, a field ``TO:`` and ``AM`` that a key's
    initials spell, a row and a floor after an ordinal.  Each comes back as written at
    ε = 10⁶ (only entities change)."""
    pytest.importorskip("wordfreq")
    out = release_auto(text)
    assert all(w in out for w in kept), out


def test_second_reading_one_radio_word_is_no_code() -> None:
    """``we flew delta 2 3 times``: one radio-alphabet word before numbers made an
    identifier of ``delta 2 3``; a spoken code with radio words holds two letters."""
    from emprivacy.entities.patterns import PatternDetector

    text = "we flew delta 2 3 times, echo 1 2 3; reg kilo lima seven two\n"
    got = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert not any("delta" in g or "echo" in g for g in got), got
    assert "kilo lima seven two" in got, got
