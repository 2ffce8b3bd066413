"""The schema of ``index.db``: small named steps, each applied once, in order.

A step is a function decorated with :func:`migration`; its name is the step's name, as
in simonw/llm's ``migrations.py`` — typed once (without the leading ``m`` Python needs
before digits: ``m001_notes`` is step ``001_notes``). Applied steps are recorded in the
``_migrations`` table. A released step is never renamed, edited or reordered: an index
that records a step this version does not know was written by a newer vaultmem.

The tables a step names in ``@migration(...)`` are derived: ``index --rebuild`` drops them
and runs the step again. A step that names none (``usage``) is kept by a rebuild.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..errors import UPGRADE, DerivedIndexError, Spelled
from .connection import Connection

Step = Callable[[sqlite3.Connection], None]


@dataclass(frozen=True)
class Migration:
    name: str
    step: Step
    derived_tables: tuple[str, ...]  # dropped and created anew by `index --rebuild`


MIGRATIONS: list[Migration] = []


def migration(*derived_tables: str) -> Callable[[Step], Step]:
    """Register the decorated function as the next step; ``derived_tables``: what it creates
    that a rebuild drops (none for state that cannot be derived from the vault)."""

    def register(step: Step) -> Step:
        name = step.__name__.removeprefix("m")
        if any(known.name == name for known in MIGRATIONS):
            raise ValueError(f"migration {name} is defined twice")
        MIGRATIONS.append(Migration(name, step, derived_tables))
        return step

    return register


@migration("notes")
def m001_notes(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE notes (
            label INTEGER PRIMARY KEY AUTOINCREMENT,  -- also the hnswlib label and FTS rowid
            id TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            layer TEXT,                    -- L1..L4, NULL when absent or unknown
            tags TEXT NOT NULL,            -- JSON list
            created TEXT,
            created_us INTEGER,
            expires_at TEXT,               -- as written in the file
            expires_us INTEGER,            -- epoch microseconds UTC; NULL = never expires
            expiry_invalid INTEGER NOT NULL DEFAULT 0,
            permanent INTEGER NOT NULL DEFAULT 0,
            content_hash TEXT NOT NULL,
            embed_hash TEXT NOT NULL,
            mtime_ns INTEGER NOT NULL,
            size INTEGER NOT NULL,
            body_chars INTEGER NOT NULL,
            problems TEXT NOT NULL         -- JSON list of {path, field, message, fix}
        ) STRICT
        """
    )
    db.execute("CREATE INDEX notes_id ON notes(id)")
    db.execute("CREATE INDEX notes_expires ON notes(expires_us)")
    db.execute("CREATE INDEX notes_content_hash ON notes(content_hash)")


@migration("notes_fts")
def m002_fts(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE VIRTUAL TABLE notes_fts USING fts5("
        "title, body, tags, tokenize = 'porter unicode61 remove_diacritics 2')"
    )


@migration("vectors")
def m003_vectors(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE vectors (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- grows with every write: the delta cursor
            label INTEGER NOT NULL UNIQUE,
            vector BLOB NOT NULL                    -- float32, L2-normalized
        ) STRICT
        """
    )


@migration("meta")
def m004_meta(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")


@migration()  # usage history cannot be derived from the vault: a rebuild keeps it (adr/0007)
def m005_usage(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE usage (
            note_id TEXT PRIMARY KEY,
            use_count INTEGER NOT NULL,
            last_used_at TEXT NOT NULL,
            last_used_us INTEGER NOT NULL
        ) STRICT
        """
    )


@migration("vector_tombstones")
def m006_vector_tombstones(db: sqlite3.Connection) -> None:
    # Labels deleted since the last fold: readers hide them in their snapshot copy by
    # reading this small table instead of every label in `vectors` (O(vault) per edit).
    db.execute(
        "CREATE TABLE vector_tombstones (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL) STRICT"
    )


@migration("note_names")
def m007_note_names(db: sqlite3.Connection) -> None:
    # The names a note answers to besides its id and path (adr/0019): its `aliases`, and
    # the ids of the notes it absorbed (`merged_from`) or replaced (`supersedes`), so an
    # id an agent saved keeps resolving after a merge or a supersede.
    db.execute("CREATE TABLE note_names (label INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL) STRICT")
    db.execute("CREATE INDEX note_names_name ON note_names(name)")
    db.execute("CREATE INDEX note_names_label ON note_names(label)")
    db.execute("CREATE INDEX notes_title ON notes(title)")  # a unique exact title resolves too, as a last resort
    # An index written before this step has no names for its notes. Forget the files'
    # stat and hash so the next reconcile reads every note once more (same text: nothing
    # is re-embedded) and writes its names, and forget that the index is complete so the
    # next command runs that reconcile instead of resolving against empty names.
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = 0")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("passages", "passages_fts", "passage_vectors", "passage_vector_tombstones")
def m008_passages(db: sqlite3.Connection) -> None:
    # Search ranks passages (adr/0004): a note of more than 1,000 characters is cut into
    # heading sections and paragraph groups. A passage's label is its FTS rowid and its
    # hnswlib label in the passage vector space; a note keeps its own vector in `vectors`.
    db.execute(
        """
        CREATE TABLE passages (
            label INTEGER PRIMARY KEY AUTOINCREMENT,
            note_label INTEGER NOT NULL,
            number INTEGER NOT NULL,       -- 0 for the note's first passage
            headings TEXT NOT NULL,        -- JSON list: the heading path above it
            start_line INTEGER NOT NULL,   -- the file's lines, 1-based, inclusive
            end_line INTEGER NOT NULL
        ) STRICT
        """
    )
    db.execute("CREATE INDEX passages_note ON passages(note_label, number)")
    # One row per passage, every row carrying its note's fields (a name match finds the note
    # through any of its passages); bm25 weights in storage/passages.py.
    db.execute(
        "CREATE VIRTUAL TABLE passages_fts USING fts5("
        "name, title, aliases, headings, props, tags, body, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    db.execute(
        "CREATE TABLE passage_vectors (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL UNIQUE, "
        "vector BLOB NOT NULL) STRICT"
    )
    db.execute("CREATE TABLE passage_vector_tombstones (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL) STRICT")
    # The full text of whole notes is replaced by the passages' rows.
    db.execute("DROP TABLE IF EXISTS notes_fts")
    # An index written before this step has no passages. Forget the files' stat and hash so
    # the next reconcile reads (and embeds) every note again, and forget that the index is
    # complete so the next command runs that reconcile instead of answering from no passages.
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = 0")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")



@migration("notes")
def m009_note_dates(db: sqlite3.Connection) -> None:
    # Each note's date (dating.py: its `date`, a date in its file name, or its `created`),
    # for search by date (`--since` / `--until`). Named with `notes`: a rebuild creates the
    # table anew and adds the column again. An index written before this step has no dates:
    # the next reconcile reads every note once more (same text: nothing is re-embedded).
    db.execute("ALTER TABLE notes ADD COLUMN dated_us INTEGER")
    db.execute("CREATE INDEX notes_dated ON notes(dated_us)")
    # -1, not 0: a file whose mtime is 0 (unpacked with SOURCE_DATE_EPOCH=0) must differ too.
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("notes")
def m010_note_date_kinds(db: sqlite3.Connection) -> None:
    # Whether each note's date is a day's label (1: a daily note's name, a date without a time,
    # kept as that day's midnight UTC) or an instant (0: a created stamp), NULL with no date:
    # search by date compares a day with the local days asked for by their labels, an instant
    # with their local midnights (adr/0026). Named with `notes`: a rebuild adds it again. An
    # index written before this step has no kinds: the next reconcile reads every note once
    # more (same text: nothing is re-embedded); until then storage.notes.is_day_date guesses.
    db.execute("ALTER TABLE notes ADD COLUMN dated_day INTEGER")
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("notes")
def m011_note_date_spans(db: sqlite3.Connection) -> None:
    # A periodic note's span (a week, month, quarter or year note: periods.py): dated_us keeps
    # its first day's label, this its last's (NULL for a note of one date), so a range keeps the
    # note when the span overlaps it (adr/0026 "Periodic notes"). Named with `notes`: a rebuild
    # adds it again. The reader version that came with it (notes.READER_VERSION 26) makes the
    # next reconcile read every note once (nothing is re-embedded); until then every row is one date.
    db.execute("ALTER TABLE notes ADD COLUMN dated_end_us INTEGER")


@migration()  # which writes were already answered cannot be derived from the vault: a rebuild keeps it (adr/0031)
def m012_requests(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE requests (
            key TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL,
            started_us INTEGER NOT NULL,
            answer TEXT,
            finished_us INTEGER
        ) STRICT
        """
    )


@migration("tasks")
def m013_tasks(db: sqlite3.Connection) -> None:
    # One row per task line of each note (task_dates.task_lines; adr/0026 "Task dates", its "Tasks"), for questions
    # about tasks rather than notes: what is due, done, open. Days as ISO days, the box as written.
    db.execute(
        """
        CREATE TABLE tasks (
            note_label INTEGER NOT NULL,
            line INTEGER NOT NULL,         -- the file's line, 1-based
            box TEXT NOT NULL,             -- the character in its box: ' ', 'x', '-', '/' ...
            text TEXT NOT NULL,            -- its words without its date fields and recurrence
            due TEXT, scheduled TEXT, starts TEXT, created TEXT, done TEXT, cancelled TEXT,
            recurrence TEXT,
            tags TEXT NOT NULL,            -- JSON list: the #tags on its line
            note_tags TEXT NOT NULL        -- JSON list: its note's own tags (frontmatter), not another line's #tag
        ) STRICT
        """
    )
    db.execute("CREATE INDEX tasks_note ON tasks(note_label)")
    db.execute("CREATE INDEX tasks_due ON tasks(due)")
    # An index written before this step has no tasks: the next reconcile reads every note once
    # more (same text: nothing is re-embedded) and writes them.
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("tasks")
def m014_task_lanes(db: sqlite3.Connection) -> None:
    # A Kanban card's lane (the board's `## ` heading above it; adr/0026 "Tasks", Kanban boards).
    db.execute("ALTER TABLE tasks ADD COLUMN lane TEXT")
    # Cards read before this step have no lane, nor their `@{day}` as due: the next reconcile
    # reads every note once more (same text: nothing is re-embedded) and writes its tasks again.
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("passages", "passages_fts")
def m015_stems(db: sqlite3.Connection) -> None:
    # A passage's language (stems.note_language, NULL for English) and, in the full text, the
    # Snowball stems of its words in that language (adr/0027 "Stems"): a query not in English
    # asks for its words' stems in the languages the vault's passages are written in. FTS5
    # adds no column to a table, so the table is made anew, empty; the reader version that came
    # with it (notes.READER_VERSION 64) makes the next reconcile read every note once and write
    # its full text again (nothing is re-embedded). Named with `passages`: a rebuild adds it again.
    db.execute("ALTER TABLE passages ADD COLUMN language TEXT")
    db.execute("CREATE INDEX passages_language ON passages(language) WHERE language IS NOT NULL")
    db.execute("DROP TABLE IF EXISTS passages_fts")
    db.execute(
        "CREATE VIRTUAL TABLE passages_fts USING fts5("
        "name, title, aliases, headings, props, tags, body, stems, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("notes")
def m016_note_dates_as_written(db: sqlite3.Connection) -> None:
    # A note's date as the note writes it, when a hit shows it so (dating.NoteDate.said): a time
    # in another zone than UTC (10:00-08:00 was shown as 18:00 UTC) or a wall clock's
    # (2026-12-09T10:00 was shown as its day). Named with `notes`: a rebuild adds it again. The
    # reader version that came with it (notes.READER_VERSION 75) makes the next reconcile read
    # every note once (nothing is re-embedded); until then the dates are shown as before.
    db.execute("ALTER TABLE notes ADD COLUMN dated_said TEXT")


@migration("notes")
def m017_note_dates_from_git(db: sqlite3.Connection) -> None:
    # Where a note's date came from when not from the note itself: "git" when the commit that
    # added its file gave it ([dates] from_git, git_dates.py), so that a hit says so. NULL for
    # every row made before: none was dated by git. Named with `notes`: a rebuild adds it again.
    db.execute("ALTER TABLE notes ADD COLUMN dated_from TEXT")


# Variation selectors (category Mn) pick an emoji's or a character's look: kept out of words, so
# that `1️⃣` is still the word `1` (combining.VARIATION_SELECTORS, which the query side leaves out too).
_VARIATION_SELECTORS = "".join(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))


@migration("passages_fts")
def m018_combining_marks_in_words(db: sqlite3.Connection) -> None:
    # The full text keeps a word's combining marks in it (adr/0027 "Vowel signs and other combining
    # marks"): `unicode61` ended a word at any mark but a Latin accent, so Hindi `किताब` was the
    # tokens `क`, `त`, `ब` and a word was found by its consonants. The tokenizer is part of the
    # table, so the table is made anew, empty; forget the files' stat and hash so the next
    # reconcile reads every note once and writes its full text again (same text: nothing is
    # re-embedded), and forget that the index is complete so the next command runs it first.
    db.execute("DROP TABLE IF EXISTS passages_fts")
    tokenizer = f"porter unicode61 remove_diacritics 2 categories 'L* N* Co Mc Mn' separators '{_VARIATION_SELECTORS}'"
    db.execute(
        "CREATE VIRTUAL TABLE passages_fts USING fts5("
        "name, title, aliases, headings, props, tags, body, stems, tokenize = " + _sql_string(tokenizer) + ")"
    )
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


@migration("passages_fts")
def m019_turn_context(db: sqlite3.Connection) -> None:
    # A conversation turn's full-text rows also hold the turns said just before it, in a column of
    # their own (turns.py, adr/0004 "A turn and the turns before it"): "what did Ben plan to do in
    # Mexico City" of the turn "Mostly visit the museums", two turns after the one naming the city.
    # FTS5 adds no column to a table, so the table is made anew, empty, as m018 made it; the next
    # reconcile reads every note once and writes its full text again (nothing is re-embedded).
    db.execute("DROP TABLE IF EXISTS passages_fts")
    tokenizer = f"porter unicode61 remove_diacritics 2 categories 'L* N* Co Mc Mn' separators '{_VARIATION_SELECTORS}'"
    db.execute(
        "CREATE VIRTUAL TABLE passages_fts USING fts5("
        "name, title, aliases, headings, props, tags, body, stems, context, tokenize = " + _sql_string(tokenizer) + ")"
    )
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


def _sql_string(text: str) -> str:
    """``text`` as an SQL string literal (its quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"


@migration()
def m020_half_vectors(db: sqlite3.Connection) -> None:
    # Vectors as float16 in SQLite (vector_blobs.py; adr/0005, addendum of stop 39): half the bytes
    # of the vector tables, a fifth of index.db. Since stop 38 every vector was rounded to float16
    # before being stored as float32, so a row float16 holds exactly becomes the new kind with the
    # same numbers (the snapshots hold them too: nothing to fold again); a row written before stop
    # 38 stays float32, still read, until the next `index` embeds its note again (embed recipe /8).
    # Each table is copied, not updated in place: rows made shorter where they stand leave their
    # pages half empty and the file as big, where a copy frees the old table's pages, which the next
    # `index` gives back to the disk (reclaim.py). Seqs are copied, and the table's AUTOINCREMENT
    # counter too: a later vector must get a seq above any a published snapshot names, or the delta
    # would leave it out. Names no table: a rebuild makes both tables anew, of the new kind already.
    import numpy as np

    from .vector_blobs import encode, exact_in_half
    from .vectors import SPACES

    halved, kept = [0], [0]

    def half(blob: bytes) -> bytes:
        if len(blob) % 4:
            return blob  # already float16 (or damaged: left for the reader to name)
        row = np.frombuffer(blob, dtype=np.float32)
        if exact_in_half(row):
            halved[0] += 1
            return encode(row)
        kept[0] += 1
        return blob

    db.create_function("vaultmem_half_vector", 1, half)
    for space in SPACES:
        table = space.table
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone():
            continue
        counter = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        db.execute(f"CREATE TABLE {table}_half (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL UNIQUE, "
                   "vector BLOB NOT NULL) STRICT")
        db.execute(f"INSERT INTO {table}_half (seq, label, vector) "
                   f"SELECT seq, label, vaultmem_half_vector(vector) FROM {table} ORDER BY seq")
        db.execute(f"DROP TABLE {table}")
        db.execute(f"ALTER TABLE {table}_half RENAME TO {table}")
        if counter is not None:
            db.execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (int(counter[0]), table))
            db.execute("INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS "
                       "(SELECT 1 FROM sqlite_sequence WHERE name = ?)", (table, int(counter[0]), table))
    if halved[0] or kept[0]:
        logging.getLogger("vaultmem").info(
            "%d of the index's vectors are now stored in half the bytes (float16)%s; the next `vaultmem index` gives "
            "the freed pages back to the disk", halved[0],
            f"; {kept[0]} written before stop 38 stay float32 until the next `vaultmem index` embeds them again"
            if kept[0] else "")


@migration("notes")
def m021_turn_keys(db: sqlite3.Connection) -> None:
    # A conversation turn's place in its folder (turns.order_key; NULL for a note that is no turn),
    # indexed: an edit among thousands of turns reads the few around it (the turns before the
    # turns after it), not its folder's every note and their properties (0.1-1 s an edit at 6,000
    # turns; adr/0004 "A turn and the turns before it"). Named with `notes`: a rebuild adds it
    # again. Rows written before this step hold no key: the next reconcile reads every note once
    # more (same text: nothing is re-embedded) and the next command runs it first.
    db.execute("ALTER TABLE notes ADD COLUMN turn_key BLOB")
    db.execute("CREATE INDEX notes_turn_key ON notes(turn_key) WHERE turn_key IS NOT NULL")
    db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")
    db.execute("DELETE FROM meta WHERE key = 'indexed'")


# ------------------------------------------------------------------ applying them


def migrate(db: Connection) -> None:
    """Apply every step the index has not recorded yet (nothing, and no write lock, when none)."""
    if up_to_date(db):
        return  # the common case: no write lock needed just to open the index
    with db.transaction():
        db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT")
        applied = _applied(db)
        unknown = applied - {known.name for known in MIGRATIONS}
        if unknown:
            # Not "run index --rebuild": a rebuild opens the index through this same check and
            # was refused with the same words (checked by hand), so that advice went in a circle.
            raise DerivedIndexError(Spelled(
                f"{db.path} was written by a newer vaultmem (migrations {sorted(unknown)}), which this one cannot "
                "read, nor rebuild; ", UPGRADE, ". To go back to this version instead, save the usage history with "
                "the newer one (`vaultmem usage export`), delete the .vaultmem folder, index the vault with this "
                "one and `vaultmem usage import` it"))
        for pending in MIGRATIONS:
            if pending.name not in applied:
                pending.step(db.conn)
                db.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                    (pending.name, datetime.now().astimezone().isoformat(timespec="seconds")),
                )


def up_to_date(db: Connection) -> bool:
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
    return bool(exists) and _applied(db) == {known.name for known in MIGRATIONS}


def drop_derived(db: Connection) -> None:
    """Drop every derived table and run its step again (call inside a transaction)."""
    for known in MIGRATIONS:
        if known.derived_tables:
            for table in known.derived_tables:
                db.execute(f"DROP TABLE IF EXISTS {table}")
            db.execute("DELETE FROM _migrations WHERE name = ?", (known.name,))
    migrate(db)


def _applied(db: Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT name FROM _migrations")}


@migration("passages")
def m022_fact_pieces(db: sqlite3.Connection) -> None:
    # A short note of several facts (a daily note) has, besides its whole passage, a passage of each
    # fact, ranked by meaning only (passages.fact_pieces, adr/0004 "Facts of a short note"): 1 marks
    # one, which has no full-text row. 0 for every row made before: the reader version that came with
    # it (notes.READER_VERSION 118) makes the next reconcile read every note once and add the pieces.
    # Named with `passages`: a rebuild adds it again.
    db.execute("ALTER TABLE passages ADD COLUMN piece INTEGER NOT NULL DEFAULT 0")


@migration("turn_heads", "turn_head_epoch")
def m023_turn_heads(db: sqlite3.Connection) -> None:
    # A conversation turn's head (its title and properties, turn_windows.head_text) as its token sum,
    # float32 as the embedder gives it, so a search's windows take it off the neighbours' without
    # embedding every turn's head once per process (0.8 s at 2,949 turns; adr/0004 "A turn's windows",
    # stop 41). ``seq`` grows with every write of a turn's rows (its passages, its place, its head):
    # a searcher reads the turns written after its cursor and makes again the windows around those
    # only. A note no longer a turn (removed, moved out, renamed out of its chain) keeps a row with no
    # vector at a new seq: what a searcher learns the turn left from. ``head_hash`` says which head
    # text the vector is of (a turn written again with the same head is not embedded again). The
    # epoch changes whenever the rows are made anew (a rebuild runs this step again, an embedder
    # switch clears them): a searcher whose cursor is of another epoch makes every window again.
    # Rows written before this step hold none: a searcher embeds those heads as before; the reader
    # version that came with it (notes.READER_VERSION 123) makes the next reconcile write them.
    import secrets

    db.execute("CREATE TABLE turn_heads (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL UNIQUE, "
               "head_hash TEXT, vector BLOB) STRICT")
    db.execute("CREATE TABLE turn_head_epoch (value TEXT NOT NULL) STRICT")
    db.execute("INSERT INTO turn_head_epoch (value) VALUES (?)", (secrets.token_hex(8),))
