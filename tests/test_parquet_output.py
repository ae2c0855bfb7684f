"""Parquet output in bounded memory: long records over several rows, read back whole."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import emprivacy.io.parquet_output as po
from emprivacy.io.parquet_output import read_parquet_records, record_rows, write_parquet_records
from emprivacy.io.streaming import BagBody, TextBody

_OPEN: list[TextBody] = []


@pytest.fixture(autouse=True)
def _close_bodies() -> object:
    yield
    while _OPEN:
        _OPEN.pop().close()


def text_body(text: str) -> TextBody:
    body = TextBody()
    _OPEN.append(body)
    for i in range(0, len(text), 3):
        body.write(text[i:i + 3])
    return body


def bag_body(counts: list[int], vocab: list[str], fixed: dict[str, int]) -> BagBody:
    order = np.array(sorted(range(len(vocab)), key=vocab.__getitem__))
    return BagBody(np.array(counts), vocab, order, fixed)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(po, "TEXT_PIECE_CHARS", 4)
    monkeypatch.setattr(po, "BAG_PIECE_WORDS", 3)
    monkeypatch.setattr(po, "ROW_GROUP_CHARS", 5)


def test_short_record_is_one_row_with_part_zero() -> None:
    record = {"id": "a", "n_words": 2, "text": text_body("ab cd")}
    assert list(record_rows(record)) == [{"id": "a", "n_words": 2, "part": 0, "text": "ab cd"}]
    plain = {"id": "b", "n_words": 1, "bag": ["x"]}
    assert list(record_rows(plain)) == [{"id": "b", "n_words": 1, "part": 0, "bag": ["x"]}]


def test_long_text_record_splits_into_pieces(small_pieces: None) -> None:
    record = {"id": "a", "n_words": 3, "epsilon": 1.0, "text": text_body("0123456789")}
    assert list(record_rows(record)) == [
        {"id": "a", "n_words": 3, "epsilon": 1.0, "part": 0, "text": "0123"},
        {"id": "a", "part": 1, "text": "4567"},
        {"id": "a", "part": 2, "text": "89"},
    ]


def test_long_bag_record_splits_sorted_words(small_pieces: None) -> None:
    body = bag_body([2, 0, 3], ["dog", "cat", "ant"], {"[UNK]": 2})
    rows = list(record_rows({"id": "b", "n_words": 7, "bag": body}))
    assert [r["part"] for r in rows] == [0, 1, 2]
    assert [w for r in rows for w in r["bag"]] == sorted(["dog"] * 2 + ["ant"] * 3
                                                          + ["[UNK]"] * 2)
    assert [len(r["bag"]) for r in rows] == [3, 3, 1]
    assert set(rows[1]) == {"id", "part", "bag"}


def test_write_and_read_back_many_row_groups(small_pieces: None, tmp_path: Path) -> None:
    records = [{"id": "long", "n_words": 4, "text": text_body("abcdefghijklmnopq")},
               {"id": "short", "n_words": 1, "text": "xy"},
               {"id": "bag", "n_words": 5, "text": text_body("")}]
    seen: list[str] = []
    out = tmp_path / "o.parquet"
    with open(out, "wb") as fh:
        n_rows = write_parquet_records(records, fh, on_record=lambda r: seen.append(r["id"]))
    assert seen == ["long", "short", "bag"]
    pf = pq.ParquetFile(out)
    assert n_rows == pf.metadata.num_rows == 5 + 1 + 1
    assert pf.num_row_groups > 1  # bounded: flushed as it went
    back = list(read_parquet_records(out))
    assert back == [{"id": "long", "n_words": 4, "text": "abcdefghijklmnopq"},
                    {"id": "short", "n_words": 1, "text": "xy"},
                    {"id": "bag", "n_words": 5, "text": ""}]
    table = pq.read_table(out)
    assert table.column("n_words").to_pylist() == [4, None, None, None, None, 1, 5]
    assert list(read_parquet_records(out, columns=["n_words"])) == [
        {"id": "long", "n_words": 4}, {"id": "short", "n_words": 1}, {"id": "bag", "n_words": 5}]


def test_nothing_written_for_no_records() -> None:
    sink = io.BytesIO()
    assert write_parquet_records([], sink) == 0
    assert sink.getvalue() == b""


def test_continuation_without_its_record_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist([{"id": "a", "part": 0, "text": "x"},
                                         {"id": "b", "part": 1, "text": "y"}]), out)
    with pytest.raises(ValueError, match="row part 1 of 'b' does not follow its record"):
        list(read_parquet_records(out))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=30), st.booleans()), min_size=1, max_size=6),
       st.integers(1, 9), st.integers(1, 40))
def test_round_trip(texts: list[tuple[str, bool]], piece: int, group: int) -> None:
    """Any texts, streamed or plain, any piece and row-group sizes: read back equal."""
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(po, "TEXT_PIECE_CHARS", piece)
        mp.setattr(po, "ROW_GROUP_CHARS", group)
        records = [{"id": str(i), "n_words": i, "text": text_body(t) if streamed else t}
                   for i, (t, streamed) in enumerate(texts)]
        sink = io.BytesIO()
        write_parquet_records(records, sink)
        sink.seek(0)
        table = pq.read_table(sink)
        rows = table.to_pylist()
        streamed_ids = {str(i) for i, (_, streamed) in enumerate(texts) if streamed}
        assert all(len(r["text"]) <= piece for r in rows if r["id"] in streamed_ids)
        assert [r["id"] for r in rows if r["part"] == 0] == [str(i) for i in range(len(texts))]
        joined: dict[str, str] = {}
        for r in rows:
            joined[r["id"]] = joined.get(r["id"], "") + r["text"]
        assert joined == {str(i): t for i, (t, _) in enumerate(texts)}
    finally:
        mp.undo()
        while _OPEN:
            _OPEN.pop().close()
