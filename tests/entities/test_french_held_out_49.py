"""What the forty-ninth stage showed in French (issue 42), from the fiftieth French set's
tuning half (a Breton island in the week of its pardon and regattas: the comité des fêtes'
chat in lower case, the registration forms and crew lists): Breton family names written
after ``le`` whose word is a French adjective (``constant le fort``, ``clément le doux``) and
those after the elided ``l'`` (``gurvan l'hour``) were released as written, at a chat's
speaker label and in its body."""

from __future__ import annotations

import re


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def test_breton_family_names_that_are_adjectives(french) -> None:
    """``le fort``, ``le doux`` after a given name, at the speaker's label and in a list,
    are the family name; the same words stay words elsewhere (``il fait doux``)."""
    from .french_release import release_fr

    out = release_fr("[14/08/2026 19:16] constant le fort : si yann me libère avant 17h\n"
                     "[14/08/2026 19:20] clément le doux : vedette à 23h30\n"
                     "[14/08/2026 19:21] yann kerbrat : équipage : désiré le bris, "
                     "constant le fort, maël le grand\n"
                     "[14/08/2026 19:22] yann kerbrat : il fait doux, le vent est fort\n")
    assert _count("fort", out) == 1 and _count("doux", out) == 1, out
    assert "il fait doux, le vent est fort" in out, out
    for name in ("constant", "clément", "désiré", "maël", "kerbrat"):
        assert _count(name, out) == 0, (name, out)


def test_a_family_name_after_the_elided_article(french) -> None:
    """``l'hour`` after a given name (Breton L'Hour), at the label and in the body, goes
    with the name; ``l'`` before a verb (``kylian l'adorait``) does not."""
    from .french_release import release_fr

    out = release_fr("[14/08/2026 19:12] capucine l'hour : coiffes repassées\n"
                     "[14/08/2026 19:13] yann kerbrat : merci gurvan l'hour, kylian l'adorait\n")
    # the article goes with the name, released as its surrogates (not ``le day``: ``hour``
    # shares its French vector with ``day``)
    assert _count("hour", out) == 0 and out.count("l'") == 1 and " le " not in out, out
    # "l'" before a verb stays with it (the vector ``adorait`` shares may read ``aimait``)
    assert re.search(r", \w+ l'[a-zé]+ait\n", out), out
    for name in ("capucine", "gurvan", "kerbrat"):
        assert _count(name, out) == 0, (name, out)


def test_a_speakers_family_name_in_the_chats_body(french) -> None:
    """``aimé bois`` named at a chat's label (``[19:14] aimé bois :``) is the same person in
    the body's lists (``chapelle : aimé bois, désiré le bris``), though ``aimé`` and ``bois``
    are words too (``aimé`` on no public list of given names as common as the verb)."""
    from .french_release import release_fr

    out = release_fr("[14/08/2026 19:14] aimé bois : chez la reine ?\n\n"
                     "[14/08/2026 19:15] yann kerbrat : chapelle aimé bois, désiré le bris\n")
    assert _count("bois", out) == 0 and _count("aimé", out) == 0, out
    assert "chez la reine ?" in out, out


def test_a_month_is_a_given_name_after_a_family_name_in_capitals(french) -> None:
    """French writes ``NOM Prénom``: ``TRAN Mai``, ``LE BIHAN, Avril`` in a table's cell are
    the person's given names, not months released as written; a date's month stays one."""
    from .french_release import release_fr

    out = release_fr("Bateau sécurité : TRAN Mai, NGUYEN Hoa.\n"
                     "FRA 3344\tGWENNILI\tLE BIHAN, Avril\t21/04/2013\n"
                     "Réunion le 12 mai 2026.\n")
    assert "Mai" not in out and "Avril" not in out, out
    assert "TRAN" not in out and "BIHAN" not in out, out
