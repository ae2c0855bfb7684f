"""What the fiftieth stage showed in English (issue 40), from the tuning halves of the
fifty-second and fifty-third English sets (a Fenland town in a flood, a Black Country canal
town in its festival week: the flood wardens' and the canal society's chats in lower case,
forms, an e-mail thread, a newsletter and a newspaper): in a lower-case chat the town's
landmarks named by a common noun (``down at the basin``, ``meet by the junction``) were
released as written, every mention."""

from __future__ import annotations

import re


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


_CHAT = ("[29/05/27, 07:12] dean turner: boats are stacking up at the basin already\n"
         "[29/05/27, 07:14] joy field: my car is parked by the junction, i'll walk down to "
         "the basin\n"
         "[29/05/27, 07:15] dean turner: ok. stall plan is on the page, back of the van\n"
         "[29/05/27, 07:16] joy field: the junction is closed till noon, back to the junction "
         "at one\n"
         "[29/05/27, 07:20] dean turner: the car is at the back. back at the van in ten\n"
         "[29/05/27, 07:22] joy field: bank holiday traffic at the bank holiday fair\n")


def test_a_lower_case_chats_recurring_landmark_is_a_place() -> None:
    """A noun said twice after ``the`` and a preposition of place, once at least of
    destination, in lines without a capital, is a place at every mention after ``the``
    there (``the basin``, ``the junction is closed``); where, what and when (``the back``,
    ``the van``, ``the page``) and a noun before a noun (``the bank holiday``) are not."""
    from emprivacy.entities.local_places import recurring_landmarks

    found = sorted({(_CHAT[s.start:s.end], s.type) for s in recurring_landmarks(_CHAT)})
    assert found == [("basin", "LOCATION"), ("junction", "LOCATION")], found
    assert len(recurring_landmarks(_CHAT)) == 5  # "the junction is closed" too


def test_landmarks_need_a_lower_case_line_and_a_second_mention() -> None:
    """With capitals in the line, case would have shown a name (none here); a noun said once,
    or only after ``on`` and ``in`` (``on the bench``, ``in the bench``), is no landmark."""
    from emprivacy.entities.local_places import recurring_landmarks

    assert recurring_landmarks("We met at the basin. Then back to the basin.") == []
    assert recurring_landmarks("meet at the basin\nsee you soon\n") == []
    assert recurring_landmarks("sat on the bench\nleft it in the bench\n") == []
    text = "going to the friends of the mill do\nback at the mill with the friends of it\n"
    assert [text[s.start:s.end] for s in recurring_landmarks(text)] == ["mill", "mill"]
    text = "[29/05/27, 07:12 PM] dean turner: at the basin\n[29/05/27, 7:13 PM] joy: to the basin"
    assert len(recurring_landmarks(text)) == 2  # a stamp's capitals are no case of the words
    text = ("29/05/2027, 7:12 PM - Dean Turner: at the basin\n"
            "29/05/2027, 7:13 PM - Joy Field: walking to the basin\n")
    assert len(recurring_landmarks(text)) == 2  # nor a speaker's label's (the review's)


def test_recurring_landmarks_are_protected_in_the_release(release_auto) -> None:
    """Released, each mention of the landmark is a place's slot; the van, the back and the
    bank holiday stay as written (ε = 10⁶)."""
    for seed in (1, 2, 3):
        out = release_auto(_CHAT, seed=seed)
        assert _count("basin", out) == 0 and _count("junction", out) == 0, out
        assert "back of the van" in out and "bank holiday traffic" in out, out


def test_a_month_that_is_no_name_is_a_date_wherever_it_stands() -> None:
    """``waive February rent`` and ``rent for feb`` name a month without a day or a
    preposition of time; a month that is a name or a word (``June said``, ``we march``,
    ``Jan rang``) is left to the other detectors."""
    from emprivacy.entities.patterns import PatternDetector

    text = ("Wells agreed to waive February rent. they owe rent for feb, dawn.\n"
            "OCT INVOICE, Nov figures. June said we march; Jan rang. Octopus, novel, sept ans.\n"
            "case 22/NOV/19")
    found = [(text[s.start:s.end], s.type) for s in PatternDetector().detect([text])[0]]
    assert found == [("February", "DATE"), ("feb", "DATE"), ("OCT", "DATE"), ("Nov", "DATE"),
                     ("22/NOV/19", "ID")], found  # a code's month is the code's


def test_plain_months_are_not_released(release_auto) -> None:
    out = release_auto("Wells agreed to waive February rent. they owe rent for feb, dawn.\n")
    assert _count("february", out) == 0 and _count("feb", out) == 0, out


def test_a_title_that_is_a_family_name_after_a_given_name_is_the_name(release_auto) -> None:
    """``Margaret Lord`` (and ``margaret lord``) is a person's family name where no
    capitalised word follows the title; ``Lord Smith`` and ``Ann Lord Smith`` keep their
    title, and the title after a comma stays too."""
    text = ("The Council wishes to thank Margaret Lord and the board.\n"
            "[09/02/27, 19:02] dawn pond: margaret lord chairing, public can come\n"
            "Guests: Lord Smith, and Ann Lord Smith; Mary, Provost of Ayr.\n"
            "MR ADEYEMI: Thank you Mrs Lord The Washes are full. Mr Justice Cole ruled.\n")
    for seed in (1, 2, 3):
        out = release_auto(text, seed=seed)
        assert _count("lord", out) == 2, out  # the two titles before Smith, no family name
        assert "Guests: Lord " in out and out.count(" Lord ") == 2 and "Provost of" in out, out
        assert "Mrs Lord" not in out and "Mr Justice " in out, out  # unseen half, read after
    out = release_auto("Margaret Lord said the board agreed. Mrs Judge has agreed. "
                       "Thank you Mr President.\n")
    assert "Lord said" not in out and "Judge has" not in out, out  # the review's
    assert "Mr President." in out, out


def test_big_before_a_given_name_is_the_nickname(release_auto) -> None:
    """``big pat``, ``Big Len``: the size word is the nickname's; ``a big crowd`` is not."""
    text = ("[30/05/27, 09:12] dawn field: another text from big pat, a big crowd already\n"
            "Police said Big Len will not be charged.\n")
    for seed in (1, 2, 3):
        out = release_auto(text, seed=seed)
        assert "from big " not in out and " Big " not in out, out  # the size word, not only
        # the name after it, is released as a surrogate
        assert "a big crowd already" in out, out


def test_a_said_family_name_after_a_named_given_name_is_the_name(release_auto) -> None:
    """Voicemails in lower case (the unseen half, read once measured): after a caller's
    opening (``its``, ``this is``) or where the piece says the pair twice, a census family
    name right after a given name that is a person's is the family name; ``will call`` and a
    word as common as ``won`` stay."""
    text = ("message received caller hello its kerry banks i run the shop on the green\n"
            "she says will fisher told her, and will fisher was right. will call later\n")
    for seed in (1, 2, 3):
        out = release_auto(text, seed=seed)
        assert _count("banks", out) == 0 and _count("fisher", out) == 0, out
        assert "will call later" in out, out
