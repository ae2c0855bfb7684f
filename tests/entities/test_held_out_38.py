"""What the thirty-eighth stage showed (issues 40 and 42), seen: the kind of place or
organisation around a protected name released as written where case shows nothing
(``the corvenshire archives``, ``quarrington recovery``: the town's surrogate and the word
``archives``), French kinds before a protected name (``la boulangerie fournier``), and the
rest of a French place's name after ``de la`` where a span ended early (``GAEC du Bois de la
Dame``)."""

from __future__ import annotations

import re
from collections import Counter

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


@pytest.mark.slow
def test_a_designator_after_a_protected_name_in_lower_case_is_protected(release_auto) -> None:
    """Before, the name got a surrogate or a placeholder and the designator after it came out
    as written."""
    pytest.importorskip("wordfreq")
    for text, word in (("[0:01:10] the old minute book is at the corvenshire archives now\n",
                        "archives"),
                       ("[0:01:20] our van went to quarrington recovery this morning\n",
                        "recovery"),
                       ("[0:01:30] SENT TO CORVENSHIRE ARCHIVES FOR TRANSFER\n", "ARCHIVES")):
        out = release_auto(text)
        assert not _has(word, out), (text, out)
        assert out.endswith((" now\n", " this morning\n", " FOR TRANSFER\n")), out


@pytest.mark.slow
def test_a_designator_after_a_given_name_a_common_word_or_before_a_post_stays(
        release_auto) -> None:
    """A given name's possessive is someone's (``hoa's shop``), a post's word makes the
    designator the post's (``ward manager``), and a verb's particle is no place (``iqbal
    down as``)."""
    pytest.importorskip("wordfreq")
    for text, word in (("my aunt hoa's shop is on market street\n", "shop"),
                       ("the corvenshire ward manager phoned us\n", "ward"),
                       ("put zane iqbal down as needing a retest\n", "down")):
        out = release_auto(text)
        assert _has(word, out), (text, out)


@pytest.mark.slow
def test_a_french_kind_before_a_protected_name_is_protected() -> None:
    """``boulangerie`` of ``la boulangerie fournier`` and ``amis`` of ``les amis de la
    clède`` came out as written beside the name's surrogate."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("prosper: je livre le pain de la boulangerie fournier samedi\n")
    assert not _has("boulangerie", out) and not _has("fournier", out), out
    assert out.startswith("prosper: je livre le pain de la ") or "pain de la" in out, out


@pytest.mark.slow
def test_the_rest_of_a_french_place_after_de_la_is_protected() -> None:
    """A span that ended at ``Bois`` left ``Dame`` of ``GAEC du Bois de la Dame`` as written;
    the linking words go with the name."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("Je travaille au GAEC du Bois de la Dame depuis 2019.\n")
    assert not _has("Dame", out) and not _has("Bois", out), out
    assert "de la" not in out, out
    out = release_fr("Marie de la Fontaine est venue avec Pierre.\n")
    assert _has("est venue avec", out), out


class _Marking:
    """What :func:`heads_after_names` asks of a marking: English, ``grace`` a listed given
    name, every type's policy a placeholder (places: a slot)."""

    lang = "en"

    @staticmethod
    def listed_given(word: str) -> bool:
        return word == "grace"

    @staticmethod
    def resolve(entity_type: str, row: int, word: str | None = None) -> tuple[str, str]:
        return ("slot" if entity_type == "LOCATION" else "placeholder"), entity_type


@pytest.mark.parametrize(("text", "name_type", "taken"), [
    ("at corvenshire archives now", "LOCATION", True),
    ("at brockley's bakery now", "PERSON", True),      # a family's firm
    ("at CORVENSHIRE ARCHIVES NOW", "LOCATION", True),
    ("at corvenshire road now", "LOCATION", False),    # a street's designator stays
    ("at grace school now", "PERSON", False),          # a given name
    ("at grace's bakery now", "PERSON", False),        # a given name's possessive
    ("at church hall now", "LOCATION", False),         # a name as common as NAME_ZIPF
    ("at corvenshire ward manager", "LOCATION", False),  # a post's
    ("at Corvenshire archives now", "LOCATION", False),  # two cases
])
def test_heads_after_names_guards(text: str, name_type: str, taken: bool) -> None:
    """The rule's guards, one at a time, on one decided name (the second word)."""
    pytest.importorskip("wordfreq")
    from emprivacy.preparation.decisions import EntitySlot, Placeholder
    from emprivacy.preparation.name_heads import heads_after_names
    from emprivacy.text.normalise import normalise_word
    from emprivacy.text.tokens import tokenize

    tokens = list(tokenize(text))
    words = [normalise_word(t.text) if t.kind == "word" else "" for t in tokens]
    decisions: list = [None] * len(tokens)
    decisions[1] = EntitySlot((name_type, words[1]), 3)
    head = 3 if words[2] in ("'s", "’s") else 2
    heads_after_names(_Marking(), decisions, Counter(), text,
                      tokens, words, [-1] * len(tokens), [False] * len(tokens),
                      slot=lambda t, k, w, r: EntitySlot((t, w), r),
                      covered=[False] * len(tokens))
    assert isinstance(decisions[head], EntitySlot | Placeholder) is taken, (text, decisions)


@pytest.mark.slow
def test_a_hyphenated_french_place_with_a_linking_word_is_protected() -> None:
    """``notre-dame-de-la-mer`` in lower case is a place by its form (in the stage's tuning
    chat no detector took it; in this sentence the learned model already did at the start,
    so this test guards the release around it), and an imperative (``dites-le-moi``) stays
    a word."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("la messe à la chapelle notre-dame-de-la-mer samedi, dites-le-moi\n")
    assert "notre-dame" not in out and "de-la-mer" not in out, out
    assert out.startswith("la messe à la ") and out.endswith(" samedi, dites-le-moi\n"), out


def test_toponym_form() -> None:
    """The form alone: three parts or more, a linking word inside or an elision at the
    last part's start, no pronoun last, no common compound."""
    from emprivacy.entities.toponyms import linked_toponyms, toponym

    links = frozenset({"de", "des", "la", "le", "les", "l'", "d'", "sur", "en", "lès"})
    assert toponym("Saint-Jean-de-Luz", links=links)
    assert toponym("saint-aubin-des-prés", links=links)
    assert toponym("Saint-Jean-d'Angély", links=links)
    assert toponym("CHÂLONS-SUR-MARNE", links=links)
    assert not toponym("Saint-Jean", links=links)       # two parts
    assert not toponym("arc-en-ciel", links=links)      # a word
    assert not toponym("rends-la-moi", links=links)     # an imperative
    assert not toponym("va-et-vient", links=links)      # no linking word inside
    assert not toponym("A-4-de", links=links)           # digits
    common = {"sur": 6.5, "le": 7.5, "champ": 4.6, "mets": 4.4, "là": 6.0, "notre": 5.8,
              "dame": 4.3, "mer": 5.1, "orbigny": 0.0, "forêt": 4.6}.get
    zipf = lambda w: common(w, 5.0)  # noqa: E731
    assert not toponym("sur-le-champ", links=links, zipf=zipf)  # common words only
    assert toponym("notre-dame-de-la-mer", links=links, zipf=zipf)  # a place's first part
    assert toponym("orbigny-la-forêt", links=links, zipf=zipf)  # a rare part
    assert toponym("Bois-de-la-Dame", links=links, zipf=zipf)  # capitalised: a name
    text = "de Saint-Jean-de-Luz à Bourg-en-Bresse"
    assert [text[s.start:s.end] for s in linked_toponyms(text, links=links)] == [
        "Saint-Jean-de-Luz", "Bourg-en-Bresse"]


@pytest.mark.slow
def test_the_kind_before_of_and_a_protected_name_in_lower_case_is_protected(
        release_auto) -> None:
    """``friends`` of ``the friends of brinmouth lido`` came out as written; ``the house of
    mr jones`` is a person's house."""
    pytest.importorskip("wordfreq")
    out = release_auto("the friends of brinmouth lido meet on tuesday\n")
    assert not _has("friends", out) and out.endswith(" meet on tuesday\n"), out
    out = release_auto("we met at the house of mr jones on friday\n")
    assert out.startswith("we met at the house of mr "), out


@pytest.mark.slow
def test_a_long_round_of_introductions_gives_a_family_name_that_is_a_word(
        release_auto) -> None:
    """Six speakers giving their family names in their first lines: ``tidy`` of ``rain:
    rain tidy, tiling`` is one too (before, the label was protected and ``tidy`` came out as
    written)."""
    pytest.importorskip("wordfreq")
    chat = ("dale: dale bather, bather and sons. we built the pool in 1936\n"
            "marina: marina waters, chair of the friends\n"
            "coral: coral fisher, swim coach\n"
            "pearl: pearl baker, café\n"
            "ray: ray turner, lifeguard\n"
            "sandy: sandy cooper, treasurer\n"
            "rain: rain tidy, tiling. the last tiles went down yesterday\n"
            "misty: misty parker, bookings\n"
            "dale: thanks all, see you saturday\n")
    out = release_auto(chat)
    assert not _has("tidy", out), out
    assert "the last tiles went down yesterday" in out, out


@pytest.mark.slow
def test_the_reviews_words_around_a_name_stay_words(release_auto) -> None:
    """The stage's review found the first version taking these (a verb, a noun's modifier, a
    person's things, a family name after ``friends of``, an idiom after ``i'm``)."""
    pytest.importorskip("wordfreq")
    for text, words in (
            ("then dimitrov steps in and saves the day\n", ("steps",)),
            ("did okafor end up coming to the meeting\n", ("end", "up")),
            ("mensah common sense prevailed in the end\n", ("common", "sense")),
            ("okafor press release draft attached\n", ("press", "release")),
            ("went to nguyen's house for tea on sunday\n", ("house",)),
            ("dr mensah ward round starts at nine tomorrow\n", ("ward", "round")),
            ("MRS OKAFOR ROOM 12 REQUIRES HOIST\n", ("ROOM", "REQUIRES")),
            ("two friends of okafor came to the funeral\n", ("friends",)),
            ("honestly i'm jade green with envy\n", ("green", "envy"))):
        out = release_auto(text)
        assert all(_has(word, out) for word in words), (text, out)


@pytest.mark.slow
def test_the_reviews_french_words_around_a_name_stay_words() -> None:
    """A person's things after a kind and ``de`` (``le journal de marie``) and a common
    capitalised word after ``de la`` stay (a fixed compound in lower case: the form's test
    below; ``sur-le-champ`` is out of the French vocabulary, so its release shows nothing)."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("j'ai lu le journal de marie hier soir\n")
    assert _has("journal", out), out
    out = release_fr("Nous avons quitté Lyon de la Même façon.\n")
    assert _has("Même", out), out


@pytest.mark.slow
def test_im_before_a_given_and_a_family_name_names_the_speaker(release_auto) -> None:
    """``hi everyone i'm summer white and this is`` of a livestream's captions came out as
    written."""
    pytest.importorskip("wordfreq")
    out = release_auto("[0:00:09] hi everyone i'm summer white and this is the channel\n")
    assert not _has("summer", out) and not _has("white", out), out
    assert "hi everyone i'm " in out and out.endswith(" and this is the channel\n"), out
