"""Who did, checked or signed a table's row, as its header says: ``BY``, ``CHECKED BY``,
``Initials``, ``Signed``, ``Witness``, ``Vérifié par`` (issue 40, stage 33;
:mod:`~emprivacy.entities.table_initials`).  Not ``PAID BY``, ``GOES BY``, ``SORT BY``: only
the words of :data:`WHO_WORDS`, and ``by`` (French ``par``) after one of :data:`DONE_BY` or
alone."""

from __future__ import annotations

import re

__all__ = ["DONE_BY", "WHO_WORDS", "who_header"]

#: A header word that says the column holds who did the row.
WHO_WORDS = frozenset(
    "initials initial inits init intls signed sig sign signature countersigned witness "
    "witnessed who staff checker "
    # French: "Initiales", "Visa", "Paraphe", "Signé"
    "initiales visa paraphe paraphes signé signée".split())
#: Verbs before ``by`` in a header whose column holds who did the row (``CHECKED BY``).
DONE_BY = frozenset(
    "checked signed entered taken recorded logged issued received approved verified "
    "witnessed countersigned done completed cleaned served seen reviewed authorised "
    "authorized added booked collected returned counted inspected tested marked "
    "updated edited "
    # French, before "par": "Vérifié par", "Saisi par"
    "vérifié vérifiée contrôlé contrôlée saisi saisie reçu reçue signé signée validé "
    "validée".split())

_SPLIT = re.compile(r"[\s_.\-/()°:#]+")


def who_header(cell: str) -> bool:
    """Whether a header cell names who did a row (see the module's description).

    >>> [who_header(c) for c in ("BY", "Checked by", "INITIALS", "Vérifié par", "paid by",
    ...                          "Sort By", "Goes by", "Phone")]
    [True, True, True, True, False, False, False, False]
    """
    words = [w for w in _SPLIT.split(cell.lower()) if w]
    if not words or len(words) > 3:
        return False
    if any(w in WHO_WORDS for w in words):
        return True
    return any(w in ("by", "par") for w in words) and all(
        w in ("by", "par") or w in DONE_BY for w in words)
