"""What the forty-third stage showed (issues 40 and 42), seen: a Welsh or Highland by-name
after a person's name (``Jones the Milk``, ``Dai the Bus``) and an old record's ``DD.``
(Dafydd, David) before a family name, released as written; in French captions, a given
name that no rule had taken yet before a family name said with its particle (``rose le
gall``: only the family name was protected)."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


@pytest.mark.slow
def test_a_by_name_after_a_persons_name_is_protected(release_auto) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto("The solo went to Sion Lewis, and Jones the Milk recited a poem. "
                       "Dai Price, Dai the Bus to us all, drove.\n")
    for word in ("Milk", "Bus", "Jones", "Sion", "Lewis"):
        assert not _has(word, out), (word, out)
    assert " recited a poem. " in out and out.endswith(" to us all, drove.\n"), out


@pytest.mark.slow
def test_what_follows_a_name_that_is_no_by_name_stays(release_auto) -> None:
    """A title, a name of two words, a word in lower case: nothing is taken."""
    pytest.importorskip("wordfreq")
    out = release_auto("Rhys Evans told Mr Hopper the Secretary would come. Mair Rees said Holly "
                       "Cutting the Jolly Boatman was shut. Owen Lloyd took the bus home.\n")
    assert "the Secretary would come" in out and "took the bus home" in out, out
    # a weekday, a role, a headline in Title case, a sentence's first word (the review)
    for text, kept in (("We met John Smith the Monday before.\n", "the Monday before"),
                       ("Then John Smith the Treasurer said so.\n", "the Treasurer said"),
                       ("Police Thank John Smith the Hero of the Day\n", "the Hero of"),
                       ("Ask John Smith the Question yourself\n", "the Question yourself")):
        out = release_auto(text)
        assert kept in out and not _has("Smith", out), (text, out)
    assert "the Jolly Boatman" in out or not _has("Jolly", out), out  # an inn's, not a by-name
    assert not _has("Holly", out) and not _has("Cutting", out), out


@pytest.mark.slow
def test_dd_of_an_old_record_is_a_given_name(release_auto) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto("PRESENT. THOS. REES (SECRETARY), DD. MORGAN (CHECKWEIGHER), AND ABOUT "
                       "140 MEMBERS.\n")
    assert not _has("DD", out) and not _has("MORGAN", out), out
    # not before a word that is no listed name ("Geo. Survey": the rule's old guard)
    out = release_auto("PRESENT. THOS. REES (SECRETARY), DD. Survey\n")
    assert "Survey" in out, out


@pytest.mark.slow
def test_a_french_given_name_before_a_particle_and_family_name_is_protected() -> None:
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("bonjour à tous avec marie dupont et derrière rose le gall et marin "
                     "berger\n")
    assert not _has("rose", out) and not _has("gall", out), out
    assert " le " not in out, out  # the particle is the name's
    # a word of the census that is no French given name stays (``maire``), and so does a
    # given name's word after an article or before a common word
    out = release_fr("bonjour à tous avec marie dupont je suis anne-laure le floc'h maire de "
                     "plouvenec\n")
    assert _has("maire", out), out
    for text in ("bonjour à tous avec marie dupont une belle victoire de lefebvre hier\n",
                 "bonjour à tous avec marie dupont grâce de lefebvre on a gagné\n"):
        out = release_fr(text)  # "de": no particle after a given name no rule took
        assert _has("victoire", out) or _has("grâce", out), (text, out)
    out = release_fr("bonjour à tous avec marie dupont une pierre le matin et la rose de la "
                     "vallée\n")
    assert out.endswith("une pierre le matin et la rose de la vallée\n"), out


@pytest.mark.slow
def test_the_breton_article_inside_a_name_goes_with_it() -> None:
    """``ar`` before a name's slot is left out with the name (it says the name is Breton);
    before an ordinary word it is an ordinary word."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("bonjour à tous avec marie dupont et le cercle ar vilin nous demande\n")
    assert not _has("ar", out) and not _has("vilin", out), out
    assert "et le cercle " in out and out.endswith(" nous demande\n"), out
    text = "bonjour à tous avec marie dupont le mot ar veut dire le\n"
    out = release_fr(text)  # an ordinary word here (its vector's word: not dropped)
    assert len(out.split()) == len(text.split()) and " veut dire le" in out, out
    text = "bonjour à tous avec marie dupont en recommandé avec ar dupont\n"
    out = release_fr(text)  # an accusé de réception: no Breton kind or name before it
    assert len(out.split()) == len(text.split()), out


def test_one_given_name_test_for_every_rule() -> None:
    """The lists' given names in a language, as every rule reads them: the public lists,
    and French ``data/given-names-fr.txt`` as written (not its ``before-family`` words)."""
    pytest.importorskip("names")
    from emprivacy.entities import EntityPolicy
    from emprivacy.entities.marking import EntityMarking
    from emprivacy.entities.name_words import listed_given_name
    from emprivacy.entities.spacy_detector import SpacyDetector

    assert listed_given_name("john", lang="en") and listed_given_name("john", lang="fr")
    assert not listed_given_name("soizic", lang="en")
    assert listed_given_name("soizic", lang="fr")
    assert not listed_given_name("juste", lang="fr")  # a word above all: before a name only
    assert listed_given_name("ami", lang="fr")
    assert not listed_given_name("ami", lang="fr", public_below=4.0)
    french = EntityMarking(SpacyDetector(), EntityPolicy(), {}, "fr")
    english = EntityMarking(SpacyDetector(), EntityPolicy(), {}, "en")
    assert french.given_name("soizic") and not english.given_name("soizic")
    assert french.given_name("john") and english.given_name("john")


@pytest.mark.slow
def test_a_trades_by_name_in_lower_case_is_protected(release_auto) -> None:
    """In captions and chats case says nothing: after a person's name in lower case, ``the``
    and a trade's word are the person's by-name (``jones the milk``, ``evans the chip
    shop``); another word after ``the`` stays (``the pub``, ``the rain``)."""
    pytest.importorskip("wordfreq")
    text = ("[00:41:10] and a round for tommy jones and jones the milk who we lost and "
            "evans the chip shop is crying\n")
    out = release_auto(text)
    for word in ("milk", "chip", "shop", "jones", "evans"):
        assert not _has(word, out), (word, out)
    assert " who we lost and " in out and out.endswith(" is crying\n"), out
    out = release_auto("[00:42:00] and a round for tommy jones and jones the pub quiz team\n")
    assert "the pub quiz team" in out, out
