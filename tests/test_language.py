"""Languages as objects (issue 42): French tokenising, text mode's French allow-list, French
bags, the number words, and the registry; English as it was (the other text tests)."""

from __future__ import annotations

import pickle
import unicodedata

import pytest

from emprivacy.embeddings import Embeddings
from emprivacy.text import bag_of_words, tokenize, verbatim_function_words
from emprivacy.text.language import ENGLISH, FRENCH, LANGUAGES, get_language


def _texts(text: str, lang: str = "fr") -> list[str]:
    return [t.text for t in tokenize(text, lang=lang)]


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text, lang="fr")]


@pytest.mark.parametrize(("elided", "parts"), [
    ("l'hôpital", ["l'", "hôpital"]), ("d'une", ["d'", "une"]), ("j'écris", ["j'", "écris"]),
    ("qu'il", ["qu'", "il"]), ("n'est", ["n'", "est"]), ("s'il", ["s'", "il"]),
    ("c'était", ["c'", "était"]), ("m'a", ["m'", "a"]), ("t'aime", ["t'", "aime"]),
    ("jusqu'à", ["jusqu'", "à"]), ("lorsqu'elle", ["lorsqu'", "elle"]),
    ("L’Hôtel", ["L’", "Hôtel"]), ("aujourd'hui", ["aujourd'hui"]),
    ("quelqu'un", ["quelqu'", "un"]), ("prud'homme", ["prud'homme"]),
])
def test_french_elisions_split_off_the_word(elided: str, parts: list[str]) -> None:
    assert _texts(elided) == parts


@pytest.mark.parametrize(("word", "parts"), [
    ("peut-être", ["peut-être"]), ("Saint-Louis", ["Saint-Louis"]),
    ("Jean-Moulin", ["Jean-Moulin"]), ("rendez-vous", ["rendez-vous"]),
    ("grand-mère", ["grand-mère"]), ("celle-là", ["celle-là"]),
    ("Pourriez-vous", ["Pourriez", "-vous"]), ("a-t-elle", ["a", "-t-elle"]),
    ("est-ce", ["est", "-ce"]), ("donne-le-moi", ["donne", "-le", "-moi"]),
    ("allez-y", ["allez", "-y"]),
])
def test_french_hyphenated_words_whole_inverted_pronouns_split(word: str,
                                                               parts: list[str]) -> None:
    assert _texts(word) == parts


def test_french_typography_is_layout_and_numbers_are_numbers() -> None:
    text = "«\u00a0Oui\u202f!\u00a0» dit-il\u00a0: 3,5 kg, vingt-trois ans, vingt-et-un, mille"
    assert _kinds(text) == [
        ("word", "Oui"), ("word", "dit"), ("word", "-il"), ("number", "3,5"), ("word", "kg"),
        ("number", "vingt-trois"), ("word", "ans"), ("number", "vingt-et-un"),
        ("number", "mille")]
    # "un" and "et" are words on their own (an article, a conjunction), not numbers
    assert _kinds("un et une") == [("word", "un"), ("word", "et"), ("word", "une")]


def test_english_tokenising_is_unchanged_by_the_french_rules() -> None:
    text = "Don't l'hôpital peut-être a-t-elle"
    assert _texts(text, "en") == ["Do", "n't", "l'hôpital", "peut-être", "a-t-elle"]
    assert list(tokenize(text)) == list(tokenize(text, lang=ENGLISH))


def _kept(text: str, lang: str = "fr") -> list[str]:
    toks = list(tokenize(text, lang=lang))
    return [t.text for t, k in zip(toks, verbatim_function_words(toks, text, lang=lang),
                                   strict=True) if k]


def test_french_function_words_kept_content_not() -> None:
    text = "Je vous écris au sujet de mon fils, qui a été hospitalisé à l'hôpital."
    assert _kept(text) == ["Je", "vous", "au", "de", "mon", "qui", "a", "à", "l'"]


def test_french_lowercase_only_and_detached_clitics() -> None:
    # Me (Maître), Est (the east), A (an initial) are perturbed in Title case
    assert _kept("Me Dubois est à l'Est ; A. Martin a dit") == ["est", "à", "l'", "a"]
    # an elision cut from its word is a letter, perturbed; "-vous" apart is the pronoun
    assert _kept("l' hôpital -vous") == ["vous"]


def test_french_bag_drops_french_stopwords_and_numbers() -> None:
    bag = bag_of_words("Qu'il vienne à l'hôpital avec vingt-trois infirmières, dit-elle.",
                       lang="fr")
    assert bag == ["vienne", "hôpital", "infirmières", "dit"]
    assert bag_of_words("the cat", lang="en") == bag_of_words("the cat") == ["cat"]


def test_nfc_and_nfd_give_the_same_tokens() -> None:
    text = "L'hôpital Édouard-Herriot, la sœur de Théo"
    nfd = unicodedata.normalize("NFD", text)
    assert nfd != text
    assert bag_of_words(nfd, lang="fr") == bag_of_words(text, lang="fr") == [
        "hôpital", "édouard-herriot", "sœur", "théo"]


def test_registry_and_checks() -> None:
    assert get_language("fr") is FRENCH and get_language("FR") is FRENCH
    assert set(LANGUAGES) == {"en", "fr"}
    assert pickle.loads(pickle.dumps(FRENCH)) is FRENCH
    with pytest.raises(ValueError, match="lang must be one of 'en', 'fr'; got 'xx'"):
        get_language("xx")
    with pytest.raises(TypeError, match="lang must be a str or a Language; got int"):
        get_language(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lang must be one of"):
        bag_of_words("x", lang="de")


def test_every_language_list_is_consistent() -> None:
    for lang in LANGUAGES.values():
        assert lang.lowercase_only <= lang.kept_function_words
        # text mode keeps a subset of what bags drop; no number word is a function word
        assert lang.kept_function_words <= lang.stopwords
        assert not lang.number_words & lang.kept_function_words


def test_aliases_are_looked_up_never_released() -> None:
    emb = Embeddings(["chat", "chien"], [[0.0], [1.0]], aliases={"chats": 0, "chienne": 1})
    assert emb.rows(["chats", "chienne", "chat", "vache"]).tolist() == [0, 1, 0, -1]
    assert emb.words == ("chat", "chien") and "chats" in emb
    assert emb.fingerprint != Embeddings(["chat", "chien"], [[0.0], [1.0]]).fingerprint
    with pytest.raises(ValueError, match="alias 'x' names row 5; there are 2"):
        Embeddings(["chat", "chien"], [[0.0], [1.0]], aliases={"x": 5})
