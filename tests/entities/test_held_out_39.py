"""What the thirty-ninth stage showed (issues 40 and 42), seen: French linking words left as
written between a kind and a name that rules, not one span, protected (``le phare [de la]
roquette``), a coast's kind before a name typed a person's (``la pointe de kerbrat``), a
village's place named by a possessive and said twice (``wade's slip``), English counties in
lower case, a local paper's name, and a town typed a person's after ``university of``.

Tried and left out: a family name after a given name's slot where the pair comes twice
(``ivy keeper``) and one on no list after a title (``MRS IVY KEEPER``): over every labelled
text they took ``amber warning``, ``dawn dip``, ``LADY MERCY OUTBOUND``, ``MRS LANE
LAUGHED``."""

from __future__ import annotations

import re
from collections import Counter

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


@pytest.mark.slow
def test_french_linking_words_between_a_kind_and_a_protected_place_go_with_it() -> None:
    """``phare`` and ``roquette`` got surrogates and ``de la`` between them came out as
    written, the name's form."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("marin: rdv au phare de la roquette à 9h\n")
    assert not _has("phare", out) and not _has("roquette", out), out
    assert " de la " not in out and out.endswith(" à [NUM]h\n"), out


@pytest.mark.slow
def test_a_coasts_kind_before_a_persons_name_is_the_place() -> None:
    """``pointe`` of ``la pointe de kerbrat`` came out as written, a person's name after
    ``de`` being a person's thing (``le journal de marie``, which stays)."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("yann kerbrat: rendez-vous à la pointe de kerbrat à 9 h\n")
    assert not _has("pointe", out) and not _has("kerbrat", out), out
    assert not _has("de", out.split("rendez-vous")[1]), out
    out = release_fr("le journal de marie est sur la table\n")
    assert out.startswith("le journal de ") and out.endswith(" est sur la table\n"), out


@pytest.mark.slow
def test_linking_words_after_a_person_or_a_word_taken_in_capitals_stay() -> None:
    """The first version's harm: ``de`` of where a person is from, ``DE`` of ``FILS DE``."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("on a vu ibrahima ndiaye de dakar hier\n")
    assert _has("de", out) and out.endswith(" hier\n"), out
    out = release_fr("JEAN FILS DE IBRAHIMA DIALLO ET DE MARIE\n")
    assert out.count("DE") >= 2, out


class _French:
    lang = "fr"


def _links(text: str, protected: dict[int, tuple[str, str]]) -> list:
    """The decisions :func:`links_between_names` leaves in ``text``, the words at
    ``protected`` (index → (type, kind of decision)) protected first."""
    from emprivacy.preparation.decisions import EntitySlot, Placeholder
    from emprivacy.preparation.place_joins import links_between_names
    from emprivacy.text.tokens import tokenize

    tokens = list(tokenize(text, lang="fr"))
    words = [t.text.lower() for t in tokens]
    decisions: list = [None] * len(tokens)
    shared = Placeholder(-3, "[ORG]", "ORG", 0)
    for i, (entity_type, kind) in protected.items():
        decisions[i] = (shared if kind == "shared" else
                        Placeholder(-2 - i, f"[{entity_type}]", entity_type, tokens[i].start)
                        if kind == "placeholder" else EntitySlot((entity_type, words[i]), i))
    links_between_names(_French(), decisions, Counter(), text, tokens, words,
                        [0] * len(tokens), slot=None, covered=[False] * len(tokens))
    return decisions


@pytest.mark.parametrize(("text", "protected", "dropped"), [
    ("au phare de la roquette", {1: ("LOCATION", "slot"), 4: ("LOCATION", "slot")}, True),
    ("l'étang de l'auranel", {1: ("PERSON", "slot"), 4: ("PERSON", "slot")}, True),  # a kind
    ("la Fanfare de Port-Auranel", {1: ("ORG", "placeholder"), 3: ("LOCATION", "slot")}, True),
    ("la Combe aux Loups", {1: ("LOCATION", "slot"), 3: ("LOCATION", "slot")}, True),
    ("à Lyon chez Martin", {1: ("LOCATION", "slot"), 3: ("PERSON", "slot")}, False),
    ("le garage sur la route", {1: ("ORG", "placeholder"), 4: ("LOCATION", "slot")}, False),
    ("vu ibrahima de dakar", {1: ("PERSON", "slot"), 3: ("LOCATION", "slot")}, False),
    ("Pierre de la Roche", {0: ("PERSON", "slot"), 3: ("PERSON", "slot")}, False),
    ("la marche de la victoire", {1: ("ORG", "slot"), 4: ("ORG", "slot")}, False),  # no kind
    ("au phare de la Roquette", {1: ("LOCATION", "slot"), 4: ("LOCATION", "slot")}, False),
    ("au phare de la de la roquette",  # three linking words and more: no join
     {1: ("LOCATION", "slot"), 6: ("LOCATION", "slot")}, False),
])
def test_links_between_names_guards(text: str, protected: dict, dropped: bool) -> None:
    """The pass alone: a kind or a capitalised place's word before, one case, at most two
    linking words."""
    from emprivacy.preparation.decisions import Dropped

    decisions = _links(text, protected)
    first, last = min(protected), max(protected)
    between = decisions[first + 1:last]
    assert all(isinstance(d, Dropped) for d in between) is dropped, (text, decisions)
    if not dropped:
        assert all(d is None for d in between), (text, decisions)


def test_links_between_one_placeholder_take_it() -> None:
    """Between the two halves of one organisation's placeholder the linking words take it:
    one ``[ORG]``."""
    decisions = _links("la Confrérie de la Longue", {1: ("ORG", "shared"), 4: ("ORG", "shared")})
    assert decisions[2] is decisions[1] and decisions[3] is decisions[1], decisions


def test_before_person_kinds_are_read_from_the_data_file() -> None:
    """``before-person`` marks a coast's and a country's kinds, not an organisation's
    (``journal``) nor a building's (``salle``); ``comptoir`` is both an organisation's and
    marked."""
    from emprivacy.entities.kinds import entity_words

    words = entity_words("fr")
    assert words is not None
    assert {("pointe",), ("calanque",), ("étang",), ("quai",)} <= words.before_person
    assert ("journal",) not in words.before_person and ("salle",) not in words.before_person
    assert words.before_name[("comptoir",)] and ("comptoir",) in words.before_person
    assert words.before_name[("chantier", "naval")] and not words.before_name[("cour",)]


@pytest.mark.slow
def test_a_place_named_by_a_possessive_said_twice_is_protected(release_auto) -> None:
    """``slip`` and ``'s`` of ``wade's slip`` came out as written beside the name's
    surrogate; once, or never after a preposition, it is a person's (``robin's steps were
    slow``, ``okafor's point is fair``)."""
    pytest.importorskip("wordfreq")
    out = release_auto("the swim finishes at wade's slip. lifeguards wait at wade's slip by 7\n")
    assert not _has("slip", out) and "'s" not in out, out
    assert out.startswith("the swim finishes at ") and " by [NUM]\n" in out, out
    for text, word in (("robin's steps were slow. robin's steps are steep too\n", "steps"),
                       ("okafor's point is fair, said okafor\n", "point")):
        out = release_auto(text)
        assert _has(word, out), (text, out)


@pytest.mark.slow
def test_an_english_county_in_lower_case_is_a_place(release_auto) -> None:
    """GeoNames lists towns, not counties: ``staffordshire`` came out as written."""
    pytest.importorskip("wordfreq")
    out = release_auto("she's bringing her boat down from stone in staffordshire on friday\n")
    assert not _has("staffordshire", out) and out.endswith(" on friday\n"), out


def test_the_county_form_in_the_place_detector() -> None:
    """Eight letters or more ending in ``shire``, in lower case or capitals: not ``shire``,
    not a Title-case word (the model's)."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.places import PlaceListDetector

    text = "from leicestershire to STAFFORDSHIRE, a shire horse, Derbyshire"
    found = [text[s.start:s.end] for s in PlaceListDetector().detect([text])[0]]
    assert "leicestershire" in found and "STAFFORDSHIRE" in found, found
    assert "shire" not in found and "Derbyshire" not in found, found


@pytest.mark.slow
def test_a_local_papers_name_after_its_town_is_protected(release_auto) -> None:
    """``gazette`` of ``the cadleshire gazette`` came out as written."""
    pytest.importorskip("wordfreq")
    out = release_auto("ifeoma: ifeoma okonkwo-bridge, reporter at the cadleshire gazette, "
                       "with the hyphen\n")
    assert not _has("gazette", out) and out.endswith(", with the hyphen\n"), out
    out = release_auto("THE CADLESHIRE GAZETTE · VILLAGES\n")
    assert not _has("GAZETTE", out), out


@pytest.mark.slow
def test_a_town_typed_a_persons_after_university_of(release_auto) -> None:
    """``university`` of ``university of cadlebury`` came out as written: the town was typed
    a person's, and ``of`` + a person's name needed another protected word after it."""
    pytest.importorskip("wordfreq")
    out = release_auto("minji: hello, dr kang min-ji, university of cadlebury, i've been "
                       "surveying\n")
    assert not _has("university", out) and not _has("cadlebury", out), out
    assert out.endswith(", i've been surveying\n"), out
