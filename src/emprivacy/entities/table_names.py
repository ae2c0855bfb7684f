"""Names in the columns of a delimited table: a spreadsheet's export with a header row.

A CSV or tab-separated export (a registration list, a class list, a CRM extract) says in its
header which columns hold names (``first_name``, ``last_name``, ``badge_name``, ``Nom``,
``Prénom``); a model reads its rows as broken sentences and finds a name in some cells
only (issue 40, the sixteenth English set: ``Raj`` of ``NW25-0021  Raj  Malhotra`` was
released as written).  Here a header is a line of at least three cells, cut at tabs, else
at ``;``, ``|`` or ``,`` (outside double quotes), that holds a name's column
(:data:`NAME_HEADER_WORDS`, no word of :data:`NOT_A_PERSON`: ``organisation_name`` is
none); every following line cut the same way into as many cells (until a blank line) is a
row, and its cells in a name's column that hold letters, at most :data:`MOST_WORDS` words,
are ``PERSON`` spans; so are those of a column the detectors found people in, whatever its
header (:func:`people_columns`); a header of column names is no one's data
(:func:`drop_header_spans`).  :func:`tables` serves :mod:`~emprivacy.entities.table_orgs` too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from emprivacy.entities.spans import EntitySpan, SpanIndex, check_texts
from emprivacy.entities.vocabulary import country_codes
from emprivacy.entities.who_headers import who_header
from emprivacy.exceptions import MissingExtraError

__all__ = ["COLUMN_WORDS", "FEWEST_ROWS", "MOST_WORDS", "NAME_HEADER_WORDS", "NOT_A_PERSON",
           "ROW_SEPARATORS", "TableNameDetector", "cells", "code_cell", "drop_header_spans",
           "fills_cell", "initials_cell", "key_codes", "name_columns", "people_columns",
           "tables"]

#: A header cell with one of these words (after cutting at ``_``, ``-``, ``.``, ``/``,
#: brackets, ``°`` and spaces; lower case) is a name's column.
NAME_HEADER_WORDS = frozenset(
    "name names surname surnames forename forenames firstname lastname givenname fullname "
    "nickname nom noms prénom prénoms prenom prenoms "  # and Irish, Welsh: "| Name | Ainm |"
    "ainm sloinne enw cyfenw".split())  # (issue 40, the forty-ninth English set)
#: ... unless it also holds one of these (the name of something that is no person).
NOT_A_PERSON = frozenset(
    "organisation organization org company business firm team club school venue event "
    "file street place town city country host domain user username product project "
    "account brand site store shop hotel ship vessel device machine unit group".split())
#: The words of a table's column names (lower case, besides :data:`NAME_HEADER_WORDS` and
#: :data:`NOT_A_PERSON`): a header made of them is no one's data
#: (:func:`drop_header_spans`).
COLUMN_WORDS = frozenset(
    "id ref reference no num number code date time day dob age sex gender title role position "
    "status type kind category class section division group grade level rank round board "
    "table seat lane heat race result results score scores points pts total notes note "
    "comments comment remarks details description reason email mail phone tel telephone "
    "mobile cell address addr postcode zip county region area owner driver passenger "
    "pickup pick drop destination from to via start end finish arrival arrive departure "
    "amount fee fees paid price cost balance qty quantity weight height distance speed "
    "velocity white black red blue home away opponent partner member membership rating elo "
    "tiebreak first last middle full given family display badge login contact relationship "
    "relation next of kin emergency signed signature initials witness approved by checked "
    "staff volunteer shift slot duration hours visit visits ward bed room dept department "
    "crew init call sign callsign pager incident incidents boat boats paged launched tasking "
    "cox helm "
    "years year month week vehicle reg registration plate route stop colour color "
    "breed animal pet sponsor sponsors prize award entry entries bib event events "
    "venue location time_in time_out in out on off yes the and a an per at for with language "
    "lang attended attendance present absent apologies outcome action actions flag flags "
    "check length width depth species peg steward marshal umpire referee judge coach captain "
    "organiser secretary treasurer chair pupil pupils student students parent parents carer "
    "carers guardian added wk wks weeks "
    # French: a register's "N° licence | Cavalier | Né(e) le | Poney | Responsable légal"
    "n licence cavalier cavalière né née e le la poney cheval responsable légal légale "
    "téléphone tél portable courriel adresse naissance âge classe niveau observations "
    "remarques commentaires urgence "
    # and the columns of a race's results, a list of officials, producers, stands (issue
    # 42, stage 44: "| Rang | Dossard | NOM Prénom | Club | Catégorie | Temps |")
    "rang dossard catégorie cat temps écart total poste fonction rôle initiales jour heure "
    "lieu rendez-vous partenaire contact dotation stand exposant provenance produit produits "
    "producteur exploitation associé associés siège hameau commune ville alpage été vaches "
    "ede d l montant prix quantité nombre numéro statut".split())
#: The most words of a name's cell.
MOST_WORDS = 5

_SEPARATORS = ("\t", ";", "|", ",")
_HEADER_SPLIT = re.compile(r"[\s_.\-/()°]+")


def cells(line: str, separator: str, *, prose: bool = False) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each cell of ``line`` cut at ``separator`` (outside double
    quotes), spaces and quotes around a cell left out.  With ``prose`` (a CSV's row whose
    notes are unquoted), not at a separator a space follows: that is a field's prose.

    >>> line = 'a, "Smith, John" ,c'
    >>> [line[s:e] for s, e in cells(line, ",")]
    ['a', 'Smith, John', 'c']
    >>> line = 'MFM-010,Hope Cider,"9 Row, Ware",note: at Street Farm, Tollby'
    >>> [line[a:b] for a, b in cells(line, ",", prose=True)]
    ['MFM-010', 'Hope Cider', '9 Row, Ware', 'note: at Street Farm, Tollby']
    """
    out: list[tuple[int, int]] = []
    start, quoted = 0, False
    for i, ch in enumerate(line + separator):
        if ch == '"':
            quoted = not quoted
        elif ch == separator and not quoted and not (prose and line[i + 1:i + 2] == " "):
            a, b = start, i
            while a < b and line[a] in ' \t"':
                a += 1
            while b > a and line[b - 1] in ' \t"':
                b -= 1
            out.append((a, b))
            start = i + 1
    return out


def name_columns(header: Sequence[str]) -> set[int]:
    """The columns of a header's cells that hold names.

    >>> sorted(name_columns(["reg_id", "first_name", "Last Name", "organisation_name"]))
    [1, 2]
    >>> sorted(name_columns(["TICKET", "SURNAME", "KNOWN AS", "CHANGE", "known allergies"]))
    [1, 2]
    >>> sorted(name_columns(["compound", "known as", "for"]))
    []
    """
    out, aliases = set(), set()
    for k, cell in enumerate(header):
        words = {w for w in _HEADER_SPLIT.split(cell.lower()) if w}
        if not words & NOT_A_PERSON:
            if words & NAME_HEADER_WORDS:
                out.add(k)
            elif _ALIAS_HEADER.search(cell) and not words & _NOT_A_PERSONS_ALIAS:
                aliases.add(k)
    return out | aliases if out else out  # "KNOWN AS" beside a name's column only (not a
    # drugs table's "aspirin", a timetable's "goes by")


#: A column of the names people go by, beside a name's column: ``KNOWN AS``, ``aka``,
#: ``Alias``, ``goes by`` (issue 40, the thirty-first English set: ``Shiv``, ``Pip`` of a
#: members' changes table).
_ALIAS_HEADER = re.compile(r"(?i)(?<![^\W_])(?:known[\s_-]+as|a\.?k\.?a\.?|alias(?:es)?|"
                           r"goes[\s_-]+by|surnom)(?![^\W_])")
#: Words of an alias's header that is no person's (``Email alias``, ``DNS alias``, ``Known as
#: (location)``).
_NOT_A_PERSONS_ALIAS = frozenset(
    "email mail dns table column command host location lieu domain server file".split())


class TableNameDetector:
    """Person names in the name columns of a delimited table (see the module's description).

    >>> text = "id\\tfirst_name\\tlast_name\\tteam\\n1\\tRaj\\tMalhotra\\tBlue"
    >>> [text[s.start:s.end] for s in TableNameDetector().detect([text])[0]]
    ['Raj', 'Malhotra']
    """

    name = "tables"
    types = frozenset({"PERSON"})

    def __repr__(self) -> str:
        return "TableNameDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [_spans(text) for text in check_texts(texts)]


def _spans(text: str) -> list[EntitySpan]:
    if not any(sep in text for sep in _SEPARATORS):
        return []
    out: list[EntitySpan] = []
    lines: list[tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    k = 0
    while k < len(lines):
        line = lines[k][1]
        found = _header(line)
        if found is None:
            k += 1
            continue
        separator, width, columns = found
        k += 1
        while k < len(lines) and lines[k][1].strip():
            row_start, row = lines[k]
            row_cells = cells(row, separator)
            if len(row_cells) != width:
                break
            for c in columns:
                a, b = row_cells[c]
                value = row[a:b]
                if any(ch.isalpha() for ch in value) and len(value.split()) <= MOST_WORDS \
                        and "@" not in value:
                    out.append(EntitySpan(row_start + a, row_start + b, "PERSON"))
            k += 1
    return out


def _header(line: str) -> tuple[str, int, set[int]] | None:
    """The separator, the number of cells and the name columns of ``line`` as a table's
    header, or ``None``."""
    for separator in _SEPARATORS:
        if line.count(separator) < 2:
            continue
        if any(len(part.split()) > 4 for part in line.split(separator)) \
                or any(ch.isdigit() for ch in line):
            return None  # prose with commas, or a row: no header (checked before cutting)
        bounds = cells(line, separator)
        header = [line[a:b] for a, b in bounds]
        inner = header[1:-1] if separator == "|" and len(header) > 2 and not header[0] \
            and not header[-1] else header  # "| Nom | Prénom |": a table's outer pipes
        if any(not h or len(h.split()) > 4 or any(ch.isdigit() for ch in h) for h in inner):
            return None
        columns = name_columns(header)
        return (separator, len(header), columns) if columns else None
    return None


def drop_header_spans(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``spans`` less those inside a table's header: the column names of an export are no
    one's data, yet a model reads them as names (``Forename``, ``Section``, ``Notes``) and
    a user name's pattern as identifiers (``white_club``, ``race_id``), and one decision per
    word then protects ``Club`` and ``Notes`` at every mention (issue 40, the twentieth
    English set's chess congress CSV).

    A header is a line of three cells or more at one separator (tab, ``;``, ``|``, ``,``;
    :func:`cells`), no digit (but a column's number above a Markdown table's rule: ``Wk1``),
    the first of its table (the line before it that is not blank
    is not cut into as many cells) and followed by a line cut into as many, not all of them
    column names (``Price,Ward,Lane`` then ``Day,White,Black`` are people's surnames), and
    every cell of
    which is a column's name: each of its words (cut at ``_``, ``-``, ``.``, ``/``, brackets,
    ``°`` and spaces) is
    one of :data:`COLUMN_WORDS`, :data:`NAME_HEADER_WORDS` or :data:`NOT_A_PERSON`, or, in a
    cell in lower case with ``_``, an abbreviation of four letters at most (``rtg`` of
    ``white_rtg``).  A line with any other word (``Smith,John,Leeds``) is no header.

    >>> text = "Surname,Forename,Club,Notes\\nNowak,Wiktor,Low Moor,ok"
    >>> spans = [EntitySpan(0, 7, "PERSON"), EntitySpan(22, 27, "PROPER_NOUN"),
    ...          EntitySpan(28, 33, "PERSON")]
    >>> [text[s.start:s.end] for s in drop_header_spans(text, spans)]
    ['Nowak']
    """
    if not spans or not any(sep in text for sep in _SEPARATORS):
        return list(spans)
    codes = key_codes(text)
    # a code the key defines is no one's name, in a cell or a header; nor a country's code
    # filling a cell (a register's nationality column)
    spans = [s for s in spans if text[s.start:s.end] not in codes and not code_cell(text, s)]
    column_codes = frozenset(c.lower() for c in codes)
    headers: list[tuple[int, int]] = []
    lines = text.split("\n")
    following = [""] * len(lines)  # each line's next line that is not blank
    nxt = ""
    for k in range(len(lines) - 1, -1, -1):
        following[k] = nxt
        if lines[k].strip():
            nxt = lines[k]
    pos, before = 0, ""
    for k, line in enumerate(lines):
        if _is_header(line, following[k], before, column_codes):
            headers.append((pos, pos + len(line)))
        if line.strip():
            before = line
        pos += len(line) + 1
    if not headers:
        return list(spans)
    return [s for s in spans if not any(a <= s.start and s.end <= b for a, b in headers)]


def _is_header(line: str, after: str, before: str = "",
               codes: frozenset[str] = frozenset()) -> bool:
    """Whether ``line``, between the lines that are not blank ``before`` and ``after`` it,
    is a table's header of column names (see :func:`drop_header_spans`)."""
    rule = _MARKDOWN_RULE.fullmatch(after.strip()) is not None  # "|---|---|" under it
    if rule:  # numbered columns of a Markdown table ("Wk1 | Wk2")
        line = re.sub(r"(?<=[^\W\d_])\d+\b", lambda m: " " * len(m.group()), line)
    if any(map(str.isdigit, line)):
        return False
    for separator in _SEPARATORS:
        if line.count(separator) < 2:
            continue
        bounds = cells(line, separator)
        if len(bounds) < 3 or not all(_column_name(line[a:b], codes)
                                      for a, b in bounds if a < b):
            return False  # prose with commas fails here, at its first word: most lines
        after_bounds = cells(after, separator)
        if len(after_bounds) != len(bounds) or (
                before.count(separator) >= 2 and len(cells(before, separator)) == len(bounds)):
            return False  # no row after it, or a row before it: not the table's first line
        # a row of column words after it: the line is a row too (Price, Ward, Lane), no header
        return not all(_column_name(after[a:b]) for a, b in after_bounds if a < b)
    return False


#: A Markdown table's rule under its header (``|---|:---:|``).
_MARKDOWN_RULE = re.compile(r"\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?")


def _column_name(cell: str, codes: frozenset[str] = frozenset()) -> bool:
    """Whether a header's cell is a column's name (see :func:`drop_header_spans`); a code
    that the text's key defines is one (``codes``: :func:`key_codes` in lower case)."""
    words = [w for w in _HEADER_SPLIT.split(cell.lower()) if w]
    abbreviations = "_" in cell and cell == cell.lower()
    return bool(words) and all(
        w in COLUMN_WORDS or w in NAME_HEADER_WORDS or w in NOT_A_PERSON or w in codes
        or (abbreviations and len(w) <= 4 and w.isalpha()) for w in words)


#: A key's line: ``Key:``, ``Legend:``, ``Codes:``, ``Abbreviations:`` at its start.
_KEY_LINE = re.compile(r"^[ \t]*(?:key|legend|codes|abbreviations)[ \t]*:(.*)$",
                       re.IGNORECASE | re.MULTILINE)
#: A code a key defines: two to five capitals, then (after ``=`` or a space) a word in lower
#: case (``ONL online``, ``RESP = response``; not ``JF = Jack Frost``, a person's initials).
_KEY_CODE = re.compile(r"(?<![\w'’])([A-Z]{2,5})(?:[ \t]*=[ \t]*|[ \t]+)(?=[a-z])")


def fills_cell(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the whole of a table's cell: a ``|``, a comma or a tab
    (spaces aside) on both sides (``| GBR |``, ``,N,``)."""
    before = text[max(0, start - 3):start].strip(" ")
    after = text[end:end + 3].strip(" ")
    return before[-1:] in ("|", ",", "\t") and after[:1] in ("|", ",", "\t")


def code_cell(text: str, span: EntitySpan) -> bool:
    """Whether ``span`` is a country's three-letter code in capitals that fills a table's
    cell (``| GBR |``, ``,PAK,``: a register's nationality column, issue 40, the
    twenty-ninth English set): a code, no one's name."""
    if span.end - span.start != 3 or not text[span.start:span.end].isupper() \
            or not fills_cell(text, span.start, span.end):
        return False
    try:
        return text[span.start:span.end].lower() in country_codes()
    except MissingExtraError:
        return False


@lru_cache(maxsize=8)
def key_codes(text: str) -> frozenset[str]:
    """The codes that a key of ``text`` defines (``Key: RESP = response (ONL online, TEL
    phone, PAP paper form)``): each in the columns of its table is a code, no one's name
    nor an organisation (issue 40, the twenty-ninth English set's register export).  Once
    per text for the marking's spans and the learned detector's gaps that both ask.

    >>> sorted(key_codes("Key: RESP = response (ONL online, TEL phone); JF = Jack Frost"))
    ['ONL', 'RESP', 'TEL']
    """
    return frozenset(m.group(1) for line in _KEY_LINE.finditer(text)
                     for m in _KEY_CODE.finditer(line.group(1)))


#: The separators of a table found by its rows alone (no header needed): a comma is left
#: out, prose has as many.
ROW_SEPARATORS = ("\t", "|", ";")
#: The fewest rows of one width that make a table (:func:`people_columns`).
FEWEST_ROWS = 3


def people_columns(text: str, spans: Sequence[EntitySpan], *,
                   name_word: Callable[[str], bool]) -> list[EntitySpan]:
    """``PERSON`` spans for the cells of a table's column in which the detectors found
    people in most cells: a scorecard's ``batter`` column, a rota's first column, whatever
    its header says (issue 40, the eighteenth English set: ``Faizan Iqbal | run out (Sandy
    Muir) | 57 | 66`` among rows whose first cells the model read as people).

    A table is :data:`FEWEST_ROWS` or more consecutive lines cut (:func:`cells`, quotes
    and all) into as many cells at one separator of :data:`ROW_SEPARATORS`, or at commas
    in a CSV's rows (no comma outside quotes followed by a space; a header among
    them).  A cell is name-shaped when it holds at most :data:`MOST_WORDS` words before any
    bracket (``Sandy Muir (c)``), no digit and no ``@``, and initials (``AN``, ``RdS``) or a
    word for which ``name_word``
    (the word in lower case) says it may be a name (not ``extras``, ``total``).  A cell is a
    person's when ``PERSON`` spans of ``spans`` cover each of its words (``Kofi
    Osei-Bonsu``; not a note, ``replaces Doyle``); where most of a column's people are
    written with capitals, a cell in lower case is none (a header: ``bowler``, a surname
    too).  A column whose people's cells are at least two and more than half of its
    name-shaped cells (initials that are no one's by the detectors, ``GO`` or ``AN`` beside
    ``B. Achebe`` and ``RdS``, left out of the count) makes each of its name-shaped cells
    (the part before a bracket) a ``PERSON`` span.

    >>> text = "bowler | R\\nAnn Lee | 4\\nFaizan Iqbal | 57\\nBo Chen | 2\\nextras | 18"
    >>> found = [EntitySpan(text.index(n), text.index(n) + 7, "PERSON")
    ...          for n in ("Ann Lee", "Bo Chen")]
    >>> [text[s.start:s.end] for s in people_columns(
    ...     text, found, name_word=lambda w: w != "extras")]
    ['Ann Lee', 'Faizan Iqbal', 'Bo Chen']
    """
    if not any(sep in text for sep in (*ROW_SEPARATORS, ",")):
        return []
    people = SpanIndex(s for s in spans if s.type == "PERSON")
    out: list[EntitySpan] = []
    for rows in tables(text):
        width = len(rows[0][1])
        for c in range(width):
            shaped = [(start + a, start + a + len(value)) for n, (start, row_cells)
                      in enumerate(rows) for a, b in [row_cells[c]]
                      if _name_shaped(value := _before_bracket(text[start + a:start + b]),
                                      name_word)
                      and not (n == 0 and (value.lower() in COLUMN_WORDS
                                           or who_header(value)))]  # a header's BY, WHO
            hit = [(a, b) for a, b in shaped if _all_people(text, a, b, people)]
            if 2 * sum(text[a:b] != text[a:b].lower() for a, b in hit) > len(hit):
                # people written with capitals: a cell in lower case is a header (bowler)
                shaped = [(a, b) for a, b in shaped if text[a:b] != text[a:b].lower()]
                hit = [(a, b) for a, b in hit if text[a:b] != text[a:b].lower()]
            # initials no detector took (GO, AN: words) neither make nor mar the majority
            took = set(hit)
            counted = [(a, b) for a, b in shaped
                       if (a, b) in took or not initials_cell(text[a:b])]
            if len(hit) >= 2 and 2 * len(hit) > len(counted):
                out.extend(EntitySpan(a, b, "PERSON") for a, b in shaped)
    return out


def tables(text: str, *, notes: bool = False) -> list[list[tuple[int, list[tuple[int, int]]]]]:
    """Each table of ``text`` by its rows alone: the rows' starts and cells.  With ``notes``
    (:func:`~emprivacy.entities.table_orgs.organisation_columns`), a CSV's row whose last
    fields are unquoted prose (``, `` or ``;`` in them) is a row too, cut at the commas no
    space follows; the people's columns keep the strict reading they were measured with (a
    weigh-in's species column read whole, fish the recogniser took for people, would become
    people's)."""
    found: list[list[tuple[int, list[tuple[int, int]]]]] = []
    run: list[tuple[int, list[tuple[int, int]]]] = []
    run_key: tuple[str, int] | None = None
    pos = 0
    for line in [*text.split("\n"), ""]:
        if notes:  # a CSV's row before ";" (its notes may hold one: "founder stall; son")
            separator = next((s for s in ROW_SEPARATORS[:2] if s in line), None)
            if separator is None:
                separator = "," if _csv_row(line) else ";" if ";" in line else None
        else:
            separator = next((s for s in ROW_SEPARATORS if s in line), None)
            if separator is None and _csv_row(line, strict=True):
                separator = ","
        row = cells(line, separator, prose=notes and separator == ",") if separator else []
        key = (separator, len(row)) if separator else None  # the cells, quotes and all
        if key is None or key != run_key:
            if len(run) >= FEWEST_ROWS:
                found.append(run)
            run = []
        if key is not None:
            run.append((pos, row))
        run_key = key
        pos += len(line) + 1
    return found


def _csv_row(line: str, *, strict: bool = False) -> bool:
    """Whether ``line`` is a CSV export's row: two commas or more outside double quotes that
    no space follows, the first of them among them (prose puts a space after each of its
    commas; a row's last field of notes may hold some: ``…,TP,orchard at Street Farm,
    Tollby``; not with ``strict``)."""
    if line.count(",") < 2:
        return False
    commas, quoted = 0, False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            if line[i + 1:i + 2] == " ":
                if commas == 0 or strict:  # strict: no comma and space at all
                    return False
                continue
            commas += 1
    return commas >= 2


def _all_people(text: str, start: int, end: int, people: SpanIndex) -> bool:
    """Whether every word of ``text[start:end]`` is inside a person's span (``Kofi
    Osei-Bonsu``; not ``replaces Doyle``)."""
    return all(people.covers(start + m.start(), start + m.end())
               for m in re.finditer(r"\S+", text[start:end]))


def _before_bracket(cell: str) -> str:
    return cell.split("(", 1)[0].rstrip()


#: A cell of initials (``AN``, ``GO``, ``RdS``, ``THM``): name-shaped whatever word it spells
#: (:func:`initials_cell`).
_INITIALS = re.compile(r"[A-Z](?:[a-z]?[A-Z]){1,3}")
#: Cells in capitals that are no one's initials: a table's placeholders and departments.
_NOT_INITIALS = frozenset("none nil tbc tba tbd na yes no ok it hr pe re cc".split())


def initials_cell(cell: str) -> bool:
    """Whether a cell is a person's initials: capitals (``AN``, ``RdS``), not a column's
    name (``NAME``, ``NOM``) nor a placeholder (``NONE``, ``TBC``, ``IT``)."""
    form = cell.lower()
    return (_INITIALS.fullmatch(cell) is not None and form not in _NOT_INITIALS
            and form not in NAME_HEADER_WORDS and form not in NOT_A_PERSON)


def _name_shaped(value: str, name_word: Callable[[str], bool]) -> bool:
    """Whether a cell's part before a bracket, ``value``, may hold a name: a person's
    words, or initials (a staff column's ``AN`` and ``GO`` beside ``JW`` and ``RdS``)."""
    words = value.split()
    return (0 < len(words) <= MOST_WORDS and "@" not in value
            and not any(ch.isdigit() for ch in value)
            and (any(name_word(w.lower().strip(".,'\"")) for w in words)
                 or initials_cell(value)))
