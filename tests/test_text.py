"""Text → tokens → bag of words (Def. 1, end of §2)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from emprivacy import bag_of_words, tokenize
from emprivacy.text.normalise import (
    LAYOUT_PUNCTUATION,
    LAYOUT_WHITESPACE,
    fold_to_ascii,
    normalise_text,
    normalise_word,
)
from emprivacy.text.tokens import is_word
from emprivacy.text.word_lists import NUMBER_WORDS, STOPWORDS, is_number_word


def test_the_papers_example():
    # §2: "The President greets the press in Chicago" → ⟨President, greets, press, Chicago⟩
    assert bag_of_words("The President greets the press in Chicago.") == [
        "president", "greets", "press", "chicago"]


def test_lowercases_and_drops_punctuation_numbers_urls_and_emails():
    text = ("Hello, WORLD!!! Call 555-1234 or e-mail bob@example.com; see "
            "https://example.org/page?id=3 -- 42 apples, 3.5% growth (1990s).")
    assert bag_of_words(text) == ["hello", "world", "call", "e-mail", "see", "apples", "growth"]


#: Content words and number words of scikit-learn's English stopword list (the list used
#: before issue 12), which text mode released unchanged.
SKLEARN_CONTENT = ("bill fire system interest mill name call detail describe thick thin empty "
                   "front top bottom side amount serious sincere cry").split()
SKLEARN_NUMBERS = "five eleven twelve fifteen twenty forty fifty sixty hundred first third".split()


def test_stopwords_are_function_words_only():
    assert set(SKLEARN_CONTENT) <= set(ENGLISH_STOP_WORDS)
    assert not STOPWORDS & (set(SKLEARN_CONTENT) | NUMBER_WORDS)
    for w in ("the", "a", "she", "of", "and", "because", "would", "not", "n't", "'s"):
        assert w in STOPWORDS, w
    assert bag_of_words("The cat and THE dog") == ["cat", "dog"]
    assert bag_of_words(" ".join(SKLEARN_CONTENT)) == SKLEARN_CONTENT
    assert len(STOPWORDS) < len(ENGLISH_STOP_WORDS)


def test_number_words_are_numbers():
    assert bag_of_words("Forty-five apples, the twenty-first day, ONE dozen eggs") == [
        "apples", "day", "eggs"]
    kinds = [(t.kind, t.text) for t in tokenize("forty-five one's Tenth e-mail")]
    assert kinds == [("number", "forty-five"), ("number", "one"), ("word", "'s"),
                     ("number", "Tenth"), ("word", "e-mail")]
    assert is_number_word("hundred") and not is_number_word("hundred-acre")
    assert set(SKLEARN_NUMBERS) <= NUMBER_WORDS


def test_normalisation_finds_the_vocabulary_word():
    assert normalise_text("Jo\u200dhn Zoe\u0308 Ma\u00adry\u00a0Ann") == "John Zoë Mary\u00a0Ann"
    assert [normalise_word(t.text) for t in tokenize(normalise_text("Ｓｍｉｔｈ ﬁne"))] == [
        "smith", "fine"]
    assert bag_of_words("Jo\u200dhn Ｓｍｉｔｈ visited Zoe\u0308") == [
        "john", "smith", "visited", "zoë"]
    # tag characters (U+E0000 block) carry invisible text: removed
    assert normalise_text("a\U000e0041\U000e0042b") == "ab"


def test_scripts_with_combining_marks_are_whole_words():
    for word in ("नमस्ते", "สวัสดี", "ภาษาไทย", "שָׁלוֹם"):
        assert [(t.kind, t.text) for t in tokenize(normalise_text(word))] == [
            ("word", normalise_text(word))], word


def test_everything_between_tokens_is_allowed_layout():
    text = normalise_text("Hi ❤️ 🇺🇸 ⠚⠕⠓⠝ 🅙🅞🅗🅝 \ue000 € x\u0308y ा, “ok” — fine… ⓙⓞ ½ Ⅻ")
    pos = 0
    symbols = []
    for t in tokenize(text):
        assert all(c in LAYOUT_WHITESPACE or c in LAYOUT_PUNCTUATION for c in text[pos:t.start])
        if t.kind == "symbol":
            symbols.append(t.text)
        pos = t.end
    assert all(c in LAYOUT_WHITESPACE or c in LAYOUT_PUNCTUATION for c in text[pos:])
    assert symbols == ["❤️", "🇺🇸", "⠚⠕⠓⠝", "🅙🅞🅗🅝", "\ue000", "€", "ा", "ⓙⓞ"]
    assert [t.kind for t in tokenize("½ Ⅻ m² ३४")] == ["number"] * 4


def test_clitics_are_split_and_dropped():
    assert bag_of_words("Don't stop: the cat's toy isn't here, we'll drink tea") == [
        "stop", "cat", "toy", "drink", "tea"]
    assert [t.text for t in tokenize("can’t")] == ["ca", "n’t"]


def test_order_of_occurrence_and_repeats_are_kept():
    assert bag_of_words("zebra apple zebra mango apple") == [
        "zebra", "apple", "zebra", "mango", "apple"]


def test_truncation_keeps_the_first_n_words():
    text = "zebra apple zebra mango apple kiwi"
    assert bag_of_words(text, size=3) == ["zebra", "apple", "zebra"]
    assert bag_of_words(text, size=100) == bag_of_words(text)
    assert bag_of_words("", size=2) == []


def test_unicode_letters_and_typographic_apostrophes():
    assert bag_of_words("Café naïve O’Clock Zürich") == ["café", "naïve", "o'clock", "zürich"]


def test_tokens_carry_their_spans():
    text = "Mail a@b.org at 10:30, see www.x.com now!"
    tokens = list(tokenize(text))
    assert [(t.kind, t.text) for t in tokens] == [
        ("word", "Mail"), ("email", "a@b.org"), ("word", "at"), ("number", "10:30"),
        ("word", "see"), ("url", "www.x.com"), ("word", "now")]
    for t in tokens:
        assert text[t.start:t.end] == t.text


def test_is_word_and_normalise_word():
    assert is_word("cat") and is_word("e-mail") and is_word("o'clock") and is_word("Zürich")
    for token in (",", ".", "1.5", "42", "'s", "-", "a1", "cat-", "--", "", "x_y"):
        assert not is_word(token), token
    assert normalise_word("O’Clock") == "o'clock"


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200), st.integers(1, 20))
def test_bag_properties_on_arbitrary_text(text, size):
    bag = bag_of_words(text)
    for w in bag:
        assert is_word(w)
        assert w == normalise_word(w)
        assert w not in STOPWORDS
    assert bag_of_words(text, size=size) == bag[:size]


def test_bad_input():
    with pytest.raises(TypeError, match=r"^text must be a str; got bytes$"):
        bag_of_words(b"the cat")
    with pytest.raises(ValueError, match=r"^size must be an integer >= 1; got 0$"):
        bag_of_words("cat", size=0)
    with pytest.raises(TypeError, match=r"^size must be an integer >= 1; got 1\.5"):
        bag_of_words("cat", size=1.5)
    with pytest.raises(TypeError, match=r"^size must be an integer >= 1; got True"):
        bag_of_words("cat", size=True)


@pytest.mark.parametrize(("word", "folded"), [
    ("kraków", "krakow"), ("łódź", "lodz"), ("Tromsø", "Tromso"), ("straße", "strasse"),
    ("Œuvre", "Oeuvre"), ("Zoë", "Zoe"), ("plain", "plain"), ("naïve-café", "naive-cafe"),
])
def test_fold_to_ascii_exact(word, folded):
    assert fold_to_ascii(word) == folded


@given(st.text(max_size=20))
def test_fold_to_ascii_is_idempotent_and_keeps_ascii(text):
    once = fold_to_ascii(text)
    assert fold_to_ascii(once) == once
    if text.isascii():
        assert once == text
    assert not any(unicodedata.combining(c) for c in once)


@pytest.mark.parametrize(("text", "numbers"), [
    ("Reading,4,09:15", ["4", "09:15"]), ("a,4,9", ["4", "9"]), ("1,000 and 12,345,678",
                                                                ["1,000", "12,345,678"]),
    ("1,000,5", ["1,000", "5"]), ("4,5%", ["4", "5%"]), ("2024-01-05", ["2024-01-05"])])
def test_an_english_list_comma_between_digits_parts_two_numbers(text, numbers):
    """A comma between digits that is no thousands separator (not before exactly three
    digits) parts two numbers in English: a CSV row's fields stay fields (``Reading,4,09:15``
    was one number, released ``Reading,[NUM]``, a column lost); French keeps ``3,5`` whole."""
    assert [t.text for t in tokenize(text) if t.kind == "number"] == numbers
    assert [t.text for t in tokenize("3,5", lang="fr")] == ["3,5"]


def test_a_csv_row_keeps_its_columns_in_text_mode():
    from emprivacy import privatize_texts

    (out,) = privatize_texts(["Reading,4,09:15\nLeeds,12,10:30"], epsilon=1e6, seed=1)
    assert [line.count(",") for line in out.release.splitlines()] == [2, 2], out.release
