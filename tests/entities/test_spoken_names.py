"""Names of a podcast's transcript and an incident channel typed in lower case (issue 40,
the eighth held-out set's held half, measured unseen at the end of the last stage and seen
now): a given name that is a word before a rare family name (``i'm dev malhotra``, ``paddy
o'rourke``), a family word with an adjective (``my late husband paddy``), a colleague ``from
accounts``, and a Gaelic particle in capitals (``SIOBHAN NÍ MHAOLÁIN``)."""


from .name_list import found as _found
from .name_list import spans as _spans


def test_a_word_before_a_rare_family_name_is_the_given_name_at_every_mention():
    text = ("speaker 1: hello and welcome back i'm dev malhotra and this week\n"
            "speaker 2: thanks dev it's lovely\n"
            "[10:08] gaz: that's on me too. paddy o'rourke, accomplice\n"
            "[10:10] hannah: appreciate that paddy")
    found = _found(text)
    assert found.count("dev") == 2, found
    assert found.count("paddy") == 2, found


def test_a_word_before_a_common_family_name_or_a_given_name_stays_a_word():
    """Only a family name rarer than Zipf 3 names the word before it: ``dev brown`` and ``rice
    paddy fields`` say nothing."""
    found = _found("we pushed to the dev branch then the dev brown bag session.\n"
                   "rice paddy fields near the dev server")
    assert "dev" not in found and "paddy" not in found, found


def test_a_family_word_with_an_adjective_names_the_person_after_it():
    found = _found("since two thousand and nine my late husband paddy took it on\n"
                   "and our eldest daughter hope helps. my late husband will call you")
    assert "paddy" in found and "hope" in found, found
    assert "will" not in found, found


def test_a_colleague_from_a_department_is_a_person():
    text = ("[09:51] tolu: status page updated. will from marketing asks if we post\n"
            "[09:57] grace: marcus is on the phone with bill from accounts\n"
            "[09:58] kwame: the bill from accounts came in late")
    found = _spans(text)
    assert (text.index("will from"), "will") in found, found
    assert (text.index("bill from accounts\n"), "bill") in found, found
    assert (text.index("bill from accounts came"), "bill") not in found, found


def test_a_gaelic_particle_in_capitals_goes_with_the_name(release_auto):
    out = release_auto("IO: TOM FITZGERALD   MRCO PLOT: SIOBHAN NÍ MHAOLÁIN\nWX: NE 6")
    assert "NÍ" not in out and "MHAOLÁIN" not in out, out
    out = release_auto("Seán Mac Giolla and Síle Ní Bhriain met at the quay.")
    assert " Ní " not in out and " Mac " not in out, out



def test_a_caller_says_who_they_are_and_where_from():
    """``hi all its may from the league`` (the ninth held-out set's tuning half): ``it's X
    from`` or ``this is X from`` opens a call or a message; ``it's me from`` does not."""
    text = ("hi all its may from the south manc league, fixture moved\n"
            "hiya this is grace from the surgery. it's me from upstairs again")
    found = _found(text)
    assert "may" in found and "grace" in found, found
    assert "me" not in found, found


def test_a_word_in_a_list_of_names_is_a_name():
    """``wade, cliff, will, rich, deano, kb, priya``: initials no list holds, between names
    of a comma-separated list; a common word there stays a word."""
    text = "squad: wade, cliff, deano, kb, priya, tomasz and amber. dana, please, bill"
    found = _found(text)
    assert "kb" in found, found
    assert "please" not in found, found


def test_a_second_gaelic_particle_goes_with_the_name(release_auto):
    out = release_auto("[09:10] siobhán nic an tsaoi: hiya sorry whos added me\n"
                       "i gave dana an apple")
    assert " an " not in out.splitlines()[0] and "tsaoi" not in out, out
    assert "an apple" in out, out


def test_any_word_after_her_name_is_is_a_name():
    """``her name's ah young cho``: ``ah`` is no listed word, and no list's word either, yet
    after ``name's`` or ``name is`` it is the name (the eighth held-out set's podcast);
    ``her name's not known`` keeps its function word."""
    text = ("no that's wrong on your machine her name's ah young cho\n"
            "my name is ngo. her name's not known")
    found = _found(text)
    assert "ah" in found and "ngo" in found, found
    assert "not" not in found, found


def test_a_word_coordinated_with_me_or_i_is_a_person():
    """``live with me and gareth``, ``gareth and i went``: a word that is neither common nor
    listed (``gareth``) beside ``me and`` or ``and i`` is someone (held out 2's voice note,
    where only the recogniser had found it); ``me and work`` stays words."""
    found = _found("so i said dad come and live with me and gareth and he went quiet\n"
                   "gareth and i went out. me and work are not friends")
    assert found.count("gareth") == 2, found
    assert "work" not in found, found


def test_a_family_word_in_a_log_in_capitals_names_the_person_after_it():
    """``CALLER STATES MOTHER JUNE KING`` (the ninth held-out set's control-room log, seen):
    a log in capitals drops the possessive; ``MOTHER MAY CALL BACK`` is the modal."""
    found = _found("14:03 CONTROL: CALLER STATES MOTHER JUNE KING AT WORK IN HARROGATE.\n"
                   "14:05 CONTROL: MOTHER MAY CALL BACK. GRANDFATHER BILL ATTENDING.")
    assert "JUNE" in found and "BILL" in found, found
    assert "MAY" not in found, found
