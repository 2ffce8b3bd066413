"""Writing notes: surgical frontmatter edits and atomic, crash-safe file replacement."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import frontmatter
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import REPO, SAMPLE_VAULT
from vaultmem.errors import FrontmatterError, WriteConflict
from vaultmem.noteio import create_exclusive, edit_frontmatter, replace_if_unchanged
from vaultmem.notes import content_hash, parse_note, tags_of

UTC = timezone.utc
STAMP = datetime(2026, 12, 4, 20, 30, tzinfo=UTC)

USER_NOTE = (
    "---\n"
    "title: \"Harbor: the plan\"   # quoted on purpose\n"
    "layer: L3\n"
    "# a comment the user keeps between keys\n"
    "tags: [harbor, work]\n"
    "aliases:\n"
    "  - Harbor pipeline\n"
    "created: 2026-09-01T10:00:00Z\n"
    "summary: >\n"
    "  a long folded value that python-frontmatter would rewrap and re-quote when dumping it back out again\n"
    "---\n"
    "\n"
    "Body with trailing spaces   \n"
    "---\n"
    "key: value lines in the body are not frontmatter\n"
    "no final newline"
)


def yaml_of(raw: bytes) -> dict[str, object]:
    text = raw.decode("utf-8-sig").replace("\r\n", "\n")
    return yaml.safe_load(text.split("---\n", 2)[1])


def body_bytes(raw: bytes, newline: bytes = b"\n") -> bytes:
    closing = newline + b"---" + newline
    return raw[raw.index(closing, 3) + len(closing) :]


# ---------------------------------------------------------------- surgical edits


def test_setting_a_new_key_appends_it_after_the_existing_keys_and_changes_nothing_else() -> None:
    raw = USER_NOTE.encode()
    edited = edit_frontmatter(raw, {"expires_at": STAMP})
    expected = raw.replace(b"  a long folded value that python-frontmatter would rewrap and re-quote when dumping it back out again\n---\n",
                           b"  a long folded value that python-frontmatter would rewrap and re-quote when dumping it back out again\n"
                           b"expires_at: 2026-12-04T20:30:00+00:00\n---\n")
    assert edited == expected
    assert list(yaml_of(edited)) == ["title", "layer", "tags", "aliases", "created", "summary", "expires_at"]


def test_python_frontmatter_dumps_would_have_damaged_this_note() -> None:
    # Why the surgical edit exists: the library's round trip loses the comment, the body
    # bytes and the final-newline-less ending.
    post = frontmatter.loads(USER_NOTE)
    post["expires_at"] = STAMP
    assert "# a comment the user keeps" not in frontmatter.dumps(post)
    edited = edit_frontmatter(USER_NOTE.encode(), {"expires_at": STAMP}).decode()
    assert "# a comment the user keeps between keys\n" in edited
    assert edited.endswith("no final newline")


def test_replacing_an_existing_key_keeps_its_position() -> None:
    raw = USER_NOTE.encode()
    edited = edit_frontmatter(raw, {"layer": "L2"})
    assert edited == raw.replace(b"layer: L3\n", b"layer: L2\n")
    assert list(yaml_of(edited))[:3] == ["title", "layer", "tags"]


def test_removing_a_key_removes_only_its_lines() -> None:
    raw = b"---\ntitle: Weekly review\nlayer: L4\nexpires_at: 2027-12-31T08:00:00Z\ntags:\n  - routine\n---\n# Weekly review\n"
    edited = edit_frontmatter(raw, remove=["expires_at"])
    assert edited == raw.replace(b"expires_at: 2027-12-31T08:00:00Z\n", b"")


def test_removing_a_key_keeps_the_comment_that_belongs_to_the_next_key() -> None:
    raw = b"---\nlayer: L4\nexpires_at: 2027-01-01\n# why these tags: ask Maya\ntags: [a]\n---\nbody\n"
    edited = edit_frontmatter(raw, remove=["expires_at"])
    assert edited == b"---\nlayer: L4\n# why these tags: ask Maya\ntags: [a]\n---\nbody\n"


def test_removing_a_multiline_key_removes_its_continuation_lines() -> None:
    raw = b"---\nlayer: L4\nexpires_at:\n  2027-01-01\ntags: [a]\n---\nbody\n"
    assert edit_frontmatter(raw, remove=["expires_at"]) == b"---\nlayer: L4\ntags: [a]\n---\nbody\n"


def test_a_sample_vault_note_with_a_yaml_comment_keeps_every_other_byte() -> None:
    raw = (SAMPLE_VAULT / "Maya.md").read_bytes()
    assert b"# the agent's anchor note" in raw
    edited = edit_frontmatter(raw, {"reviewed": True})
    assert edited == raw.replace(b"expires_at: 2027-09-01T00:00:00Z\n---\n", b"expires_at: 2027-09-01T00:00:00Z\nreviewed: true\n---\n", 1)


def test_the_body_is_kept_byte_for_byte() -> None:
    raw = USER_NOTE.encode()
    edited = edit_frontmatter(raw, {"expires_at": STAMP}, remove=["aliases"])
    assert body_bytes(edited) == body_bytes(raw)
    assert parse_note("n.md", edited).body == parse_note("n.md", raw).body


def test_a_bom_is_kept() -> None:
    raw = b"\xef\xbb\xbf---\ntitle: x\nlayer: L2\n---\nbody\n"
    edited = edit_frontmatter(raw, {"expires_at": STAMP})
    assert edited == b"\xef\xbb\xbf---\ntitle: x\nlayer: L2\nexpires_at: 2026-12-04T20:30:00+00:00\n---\nbody\n"


def test_crlf_line_endings_are_kept() -> None:
    raw = b"---\r\ntitle: x\r\nlayer: L2\r\n---\r\nline one\r\nline two\r\n"
    edited = edit_frontmatter(raw, {"expires_at": STAMP})
    assert edited == b"---\r\ntitle: x\r\nlayer: L2\r\nexpires_at: 2026-12-04T20:30:00+00:00\r\n---\r\nline one\r\nline two\r\n"


def test_a_body_with_mixed_line_endings_is_kept_byte_for_byte() -> None:
    # A file edited on two systems: CRLF frontmatter, some LF-only lines in the body.
    raw = b"---\r\ntitle: x\r\nlayer: L2\r\n---\r\nline one\nline two\r\nline three\n"
    edited = edit_frontmatter(raw, {"expires_at": STAMP})
    assert body_bytes(edited, b"\r\n") == b"line one\nline two\r\nline three\n"
    lf_header = b"---\ntitle: x\n---\nbody line\r\nlast"
    assert edit_frontmatter(lf_header, {"layer": "L4"}) == b"---\ntitle: x\nlayer: L4\n---\nbody line\r\nlast"


bodies = st.lists(st.sampled_from(["a", "b", " ", ":", "#", "-", "\n", "\r\n", "\r", "\t", "é", "---\n", "key: v\n"]), max_size=40).map("".join)


@settings(max_examples=200, deadline=None)
@given(body=bodies, crlf=st.booleans(), bom=st.booleans())
def test_property_any_body_is_kept_byte_for_byte(body: str, crlf: bool, bom: bool) -> None:
    newline = "\r\n" if crlf else "\n"
    header = newline.join(["---", "title: x", "layer: L2", "expires_at: 2026-12-01", "---", ""])
    raw = (("\ufeff" if bom else "") + header + body).encode("utf-8")
    edited = edit_frontmatter(raw, {"layer": "L4"}, remove=["expires_at"])
    assert edited.endswith(body.encode("utf-8"))
    assert edited == raw.replace(b"layer: L2", b"layer: L4").replace(f"expires_at: 2026-12-01{newline}".encode(), b"")


def test_a_note_without_frontmatter_gets_a_block_in_front_of_its_untouched_body() -> None:
    raw = "---\nA rule, then prose.\n\n# Open questions\n".encode()
    edited = edit_frontmatter(raw, {"layer": "L4"})
    assert edited == b"---\nlayer: L4\n---\n" + raw


def test_yaml_that_does_not_load_is_refused_and_nothing_is_returned() -> None:
    with pytest.raises(FrontmatterError, match="fix the YAML by hand"):
        edit_frontmatter(b"---\ntitle: a: b\n---\nbody\n", {"expires_at": STAMP})


def test_non_utf8_files_are_refused() -> None:
    with pytest.raises(FrontmatterError, match="UTF-8"):
        edit_frontmatter(b"---\ntitle: caf\xe9\n---\n", {"expires_at": STAMP})


def test_a_written_datetime_loads_back_as_the_same_aware_instant() -> None:
    edited = edit_frontmatter(b"---\nlayer: L2\n---\n", {"expires_at": STAMP})
    assert yaml_of(edited)["expires_at"] == STAMP


def test_a_key_not_edited_is_kept_even_when_no_utc_instant_holds_its_date() -> None:
    raw = b"---\ntitle: Old\nreviewed: 9999-12-31T23:59:59-05:00\n---\nBody.\n"
    assert edit_frontmatter(raw, {"title": "New"}) == raw.replace(b"title: Old", b"title: New")


def test_a_date_that_cannot_be_written_is_refused_naming_its_key() -> None:
    raw = b"---\ntitle: Old\n---\nBody.\n"
    beyond = datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone(timedelta(hours=-5)))
    with pytest.raises(FrontmatterError, match="^expires_at: invalid timestamp '9999-12-31T23:59:59-05:00'"):
        edit_frontmatter(raw, {"expires_at": beyond})


def test_values_that_need_quoting_are_quoted() -> None:
    edited = edit_frontmatter(b"---\nlayer: L2\n---\n", {"title": "Retro: what went wrong", "tags": ["a b", "c:d"]})
    assert yaml_of(edited) == {"layer": "L2", "title": "Retro: what went wrong", "tags": ["a b", "c:d"]}


# ---------------------------------------------------------------- a list keeps the form it was written in (list_forms.py)


def test_a_flow_list_stays_a_flow_list_with_its_spacing_quotes_and_comment() -> None:
    # Was a block list: `tags: [tagebuch, arbeit]` came back as `tags:\n  - tagebuch …`.
    raw = b"---\ntags: [tagebuch, arbeit]\n---\nbody\n"
    assert edit_frontmatter(raw, {"tags": ["tagebuch", "arbeit", "favorit"]}) == b"---\ntags: [tagebuch, arbeit, favorit]\n---\nbody\n"
    raw = b"---\naliases: [ 'Harbor',\"Meridian\" ]   # both names\nlayer: L3\n---\nbody\n"
    edited = edit_frontmatter(raw, {"aliases": ["Meridian", "Harbor: the plan", "a, b"]})
    # A new item that holds a comma or ': ' is quoted, so it stays one item.
    assert edited == b"---\naliases: [ \"Meridian\",'Harbor: the plan',\"a, b\" ]   # both names\nlayer: L3\n---\nbody\n"
    assert yaml_of(edited)["aliases"] == ["Meridian", "Harbor: the plan", "a, b"]
    assert edit_frontmatter(b"---\ntags: []\n---\n", {"tags": ["x"]}) == b"---\ntags: [x]\n---\n"


def test_a_tags_string_stays_a_string_joined_as_the_person_joined_it() -> None:
    # Was a block list: `tags: rezept, backen, brot` came back as three `  - ` lines.
    for written, joined in ((b"rezept, backen, brot", b"rezept, backen, brot, favorit"),
                            (b"rezept backen brot", b"rezept backen brot favorit"),
                            (b"'rezept,backen,brot'  # mine", b"'rezept,backen,brot,favorit'  # mine"),
                            (b'"#rezept, backen, brot"', b'"#rezept, backen, brot, favorit"')):
        raw = b"---\ntags: " + written + b"\nlayer: L3\n---\nbody\n"
        assert edit_frontmatter(raw, {"tags": ["rezept", "backen", "brot", "favorit"]}) == raw.replace(written, joined)
    assert edit_frontmatter(b"---\ntags: rezept, backen\n---\n", {"tags": ["backen"]}) == b"---\ntags: backen\n---\n"


@pytest.mark.parametrize(("written", "revised"), [
    (b'"#a #b"', b'"#a #x"'),  # was "#a x": the added tag lost the note's own `#`
    (b"'#a, #b'", b"'#a, #x'"),
    (b'"#a"', b'"#a #x"'),  # one hashtag: joined as hashtags are
    (b'["#a", "#b"]', b'["#a", "#x"]'),  # was ["#a", x]
    (b"[a, b]", b"[a, x]"),
    (b"a b", b"a x"),
    (b"a, b", b"a, x"),
    (b'"#a, b"', b'"#a, x"'),  # not every tag written `#tag`: the new one plain
    (b'\n  - "#a"\n  - "#b"', b'\n  - "#a"\n  - "#x"'),  # was `  - x`
    (b"\n  - a\n  - b", b"\n  - a\n  - x"),
])
def test_a_tag_added_to_tags_written_as_hashtags_is_written_as_a_hashtag(written: bytes, revised: bytes) -> None:
    raw = b"---\ntags: " + written + b"\nlayer: L3\n---\nbody\n"
    edited = edit_frontmatter(raw, {"tags": ["a", "x"]})
    assert edited == raw.replace(written, revised)
    assert tags_of(yaml_of(edited)) == ["a", "x"]


def test_a_block_list_keeps_its_indentation_dash_spacing_and_quoted_items() -> None:
    raw = b"---\ntags:\n-   'a b'\n-   c   # kept\n- \"d\"\nlayer: L3\n---\nbody\n"
    edited = edit_frontmatter(raw, {"tags": ["a b", "d", "e: f"]})
    assert edited == b"---\ntags:\n-   'a b'\n- \"d\"\n-   'e: f'\nlayer: L3\n---\nbody\n"  # the first item's dash
    raw = b"---\ntags:\n    - x\n---\n"
    assert edit_frontmatter(raw, {"tags": ["x", "y"]}) == b"---\ntags:\n    - x\n    - y\n---\n"


def test_a_list_form_that_cannot_hold_the_new_value_is_written_in_obsidians_style() -> None:
    # A tag with a space cannot be one item of a separated string; a flow list over two lines
    # and an empty block list are not rebuilt.
    assert edit_frontmatter(b"---\ntags: a, b\n---\n", {"tags": ["a", "c d"]}) == b"---\ntags:\n  - a\n  - c d\n---\n"
    assert edit_frontmatter(b"---\ntags: [a,\n  b]\n---\n", {"tags": ["a", "c"]}) == b"---\ntags:\n  - a\n  - c\n---\n"
    assert edit_frontmatter(b"---\ntags:\n  - a\n---\n", {"tags": []}) == b"---\ntags: []\n---\n"
    # `aliases` is not read from a separated string: one alias, then a list of two.
    assert edit_frontmatter(b"---\naliases: Old name\n---\n", {"aliases": ["Old name", "New"]}) == b"---\naliases:\n  - Old name\n  - New\n---\n"


def test_a_block_list_keeps_its_comment_lines_and_the_comments_of_items_that_stay() -> None:
    # Was written anew without them: `tags:\n  - a\n  - b\n  - c`.
    raw = b"---\ntags:  # mine\n  - a # x\n  # between\n  - b\n# kept with what follows\nlayer: L3\n---\nbody\n"
    assert edit_frontmatter(raw, {"tags": ["a", "b", "c"]}) == raw.replace(b"  - b\n", b"  - b\n  - c\n")
    # A removed item's own comment goes with it; a comment line stays where it was.
    assert edit_frontmatter(raw, {"tags": ["b", "c"]}) == raw.replace(b"  - a # x\n", b"").replace(b"  - b\n", b"  - b\n  - c\n")
    assert edit_frontmatter(raw, {"tags": ["a"]}) == raw.replace(b"  - b\n", b"")
    emptied = edit_frontmatter(raw, {"tags": []})
    assert emptied == b"---\ntags: []  # mine\n  # between\n# kept with what follows\nlayer: L3\n---\nbody\n"
    assert yaml_of(emptied) == {"tags": [], "layer": "L3"}


def test_a_comment_on_the_keys_line_stays_when_the_value_is_written_anew() -> None:
    # Were dropped: a title, an expiry and a string of tags that became a block list lost the person's note.
    raw = b"---\ntitle: Harbor  # chosen # twice\nexpires_at: 2026-12-20 # the trip\ntags: a, b   # mine\nnote: |  # why\n  a # b\n---\n"
    edited = edit_frontmatter(raw, {"title": "Harbor plan", "expires_at": STAMP, "tags": ["a", "c d"], "note": "short"})
    assert edited == (b"---\ntitle: Harbor plan  # chosen # twice\nexpires_at: 2026-12-04T20:30:00+00:00 # the trip\n"
                      b"tags:   # mine\n  - a\n  - c d\nnote: short  # why\n---\n")
    # `#` inside a value is no comment: nothing is added.
    assert edit_frontmatter(b"---\ntitle: 'a # b'\n---\n", {"title": "c"}) == b"---\ntitle: c\n---\n"


@pytest.mark.parametrize(("raw", "value", "comment"), [
    (b"---\ntags: [a,  # the first\n  b]\n---\n", ["a", "c"], "'# the first' (line 1 of tags)"),  # a flow list over two lines
    (b"---\ntags:\n  - a\n  # why\n  - b\n---\n", ["b", "a"], "'# why' (line 3 of tags)"),  # reordered around a comment line
    (b"---\ntags:\n  - a\n    more\n  # why\n---\n", ["x"], "'# why' (line 4 of tags)"),  # an item over two lines
])
def test_a_comment_the_new_value_has_no_place_for_is_refused_naming_the_key(raw: bytes, value: list[str], comment: str) -> None:
    with pytest.raises(FrontmatterError) as refused:
        edit_frontmatter(raw, {"tags": value})
    assert str(refused.value) == (f"tags: the comment {comment} has no place in the new value, which vaultmem must write anew; "
                                  "move the comment to a line of its own above 'tags:' or remove it, then try again "
                                  "(the file was not touched)")


def test_a_list_kept_in_its_form_keeps_the_bom_and_crlf() -> None:
    raw = "\ufeff---\r\ntags: a, b\r\naliases: [X]\r\n---\r\nbody\r\n".encode()
    edited = edit_frontmatter(raw, {"tags": ["a", "b", "c"], "aliases": ["X", "Y"]})
    assert edited == "\ufeff---\r\ntags: a, b, c\r\naliases: [X, Y]\r\n---\r\nbody\r\n".encode()


# ---------------------------------------------------------------- guarded writes
# (a write killed or failing half-way: tests/test_durable.py)


def test_replace_if_unchanged_refuses_when_a_human_edited_the_file_meanwhile(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(b"as vaultmem read it\n")
    read_hash = content_hash(note.read_bytes())
    note.write_bytes(b"the human's edit\n")
    with pytest.raises(WriteConflict, match="note.md"):
        replace_if_unchanged(note, b"vaultmem's version\n", read_hash, "note.md", tmp_path)
    assert note.read_bytes() == b"the human's edit\n"


def test_replace_if_unchanged_writes_when_the_file_is_as_read(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(b"v1\n")
    replace_if_unchanged(note, b"v2\n", content_hash(b"v1\n"), "note.md", tmp_path)
    assert note.read_bytes() == b"v2\n"


def test_a_write_to_a_symlinked_note_goes_to_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "hub.md"
    target.write_bytes(b"v1\n")
    link = tmp_path / "hub-link.md"
    link.symlink_to(Path("real") / "hub.md")
    replace_if_unchanged(link, b"v2\n", content_hash(b"v1\n"), "hub-link.md", tmp_path)
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "hub.md")  # was: a regular file
    assert target.read_bytes() == b"v2\n"
    assert sorted(path.name for path in (tmp_path / "real").iterdir()) == ["hub.md"]  # no temp file left


def test_create_exclusive_never_overwrites_an_existing_note(tmp_path: Path) -> None:
    note = tmp_path / "memories" / "note.md"
    create_exclusive(note, b"first\n")
    with pytest.raises(FileExistsError):
        create_exclusive(note, b"second\n")
    assert note.read_bytes() == b"first\n"
    assert sorted(path.name for path in note.parent.iterdir()) == ["note.md"]


RACER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from vaultmem.noteio import create_exclusive
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.001)
    try:
        create_exclusive(Path(sys.argv[1]), (sys.argv[3] * 20_000).encode())
        print("won")
    except FileExistsError:
        print("lost")
    """
)


def test_create_exclusive_race_between_processes_has_exactly_one_winner(tmp_path: Path) -> None:
    note = tmp_path / "memories" / "same-name.md"
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    racers = [
        subprocess.Popen([sys.executable, "-c", RACER, str(note), str(go), letter], stdout=subprocess.PIPE, text=True, env=env)
        for letter in "ABCDEF"
    ]
    go.touch()
    outcomes = [racer.communicate(timeout=60)[0].strip() for racer in racers]
    assert sorted(outcomes) == ["lost"] * 5 + ["won"]
    winner = "ABCDEF"[outcomes.index("won")]
    assert note.read_bytes() == (winner * 20_000).encode()  # one complete payload, never a mix
    assert sorted(path.name for path in note.parent.iterdir()) == ["same-name.md"]


# ---------------------------------------------------------------- writes over a person's file (adr/0014)
# Each interleaving is forced by wrapping the real rename primitive: the person's edit is
# made at the one instant that the old check-then-rename code could not see.

from vaultmem import noteio, renames  # noqa: E402
from vaultmem.errors import PathOutsideVault  # noqa: E402
from vaultmem.noteio import delete_if_unchanged, move_if_unchanged  # noqa: E402

CHECKED = b"---\nlayer: L3\n---\nas vaultmem checked it\n"
OURS = b"---\nlayer: L3\nexpires_at: 2027-01-01\n---\nas vaultmem checked it\n"
PERSON = b"a line the person typed\n"


def only_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def exchange_with(monkeypatch: pytest.MonkeyPatch, before: object = None, after: object = None) -> list[int]:
    """Run ``before``/``after`` around the first real exchange; returns the call counter."""
    real = renames.exchange
    calls: list[int] = []

    def exchange(dir_fd: int | None, first: str, second: str) -> None:
        calls.append(1)
        if len(calls) == 1 and callable(before):
            before()
        real(dir_fd, first, second)
        if len(calls) == 1 and callable(after):
            after()

    monkeypatch.setattr(renames, "exchange", exchange)
    return calls


def test_an_edit_saved_while_vaultmem_writes_its_temp_file_is_kept_and_the_write_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)

    def append() -> None:
        with open(note, "ab") as handle:
            handle.write(PERSON)

    calls = exchange_with(monkeypatch, before=append)
    with pytest.raises(WriteConflict):
        replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == CHECKED + PERSON
    assert len(calls) == 2  # swapped in, seen to be the wrong version, swapped back
    assert only_files(tmp_path) == ["note.md"]


def test_a_writer_that_opened_the_note_before_the_swap_and_writes_after_it_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    handles = []
    # An editor opens the file for writing, vaultmem swaps, the editor's bytes arrive later.
    exchange_with(monkeypatch, before=lambda: handles.append(open(note, "ab")))
    with pytest.raises(WriteConflict):
        replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    handles[0].write(PERSON)
    handles[0].close()
    assert note.read_bytes() == CHECKED + PERSON  # with check-then-rename: into an unlinked file


def test_a_person_saving_twice_around_the_swap_keeps_both_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)

    def append() -> None:
        with open(note, "ab") as handle:
            handle.write(PERSON)

    def rename_save() -> None:
        (tmp_path / "note.md.saving").write_bytes(b"the person's second save\n")
        os.replace(tmp_path / "note.md.saving", note)

    exchange_with(monkeypatch, before=append, after=rename_save)
    with pytest.raises(WriteConflict) as raised:
        replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    kept = raised.value.kept
    assert kept is not None and kept.startswith("note.vaultmem-conflict-") and kept.endswith(".md")
    assert sorted([note.read_bytes(), (tmp_path / kept).read_bytes()]) == sorted([CHECKED + PERSON, b"the person's second save\n"])
    assert kept in str(raised.value)


def test_a_person_saving_twice_around_the_swap_of_a_long_named_note_keeps_both_versions_in_sight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: the second version's name, the note's stem + ".vaultmem-conflict-<time>.md", passed the
    # 255 bytes a name holds ("File name too long"), so it stayed under vaultmem's hidden temp
    # name — which `check` calls a killed write's leftover, to delete.
    name = "m" * 240 + ".md"
    note = tmp_path / name
    note.write_bytes(CHECKED)

    def append() -> None:
        with open(note, "ab") as handle:
            handle.write(PERSON)

    def rename_save() -> None:
        (tmp_path / "saving").write_bytes(b"the person's second save\n")
        os.replace(tmp_path / "saving", note)

    exchange_with(monkeypatch, before=append, after=rename_save)
    with pytest.raises(WriteConflict) as raised:
        replace_if_unchanged(note, OURS, content_hash(CHECKED), name, tmp_path)
    kept = raised.value.kept
    assert kept is not None and ".vaultmem-conflict-" in kept and kept.endswith(".md") and len(kept.encode()) <= 255
    assert sorted([note.read_bytes(), (tmp_path / kept).read_bytes()]) == sorted([CHECKED + PERSON, b"the person's second save\n"])
    assert sorted(only_files(tmp_path)) == sorted([name, kept])  # nothing left under a hidden temp name


def test_a_note_deleted_right_after_the_swap_gets_the_persons_version_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)

    def append() -> None:
        with open(note, "ab") as handle:
            handle.write(PERSON)

    exchange_with(monkeypatch, before=append, after=note.unlink)
    with pytest.raises(WriteConflict):
        replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == CHECKED + PERSON
    assert only_files(tmp_path) == ["note.md"]


def test_an_unchanged_note_is_written_and_no_temp_file_is_left(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    note.chmod(0o640)
    change = replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == OURS and change.before == CHECKED and change.after == OURS
    assert note.stat().st_mode & 0o777 == 0o640
    assert only_files(tmp_path) == ["note.md"]


def test_without_an_atomic_exchange_the_weaker_fallback_still_refuses_a_changed_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unsupported(*args: object) -> None:
        raise renames.Unsupported(95, "not here")

    monkeypatch.setattr(renames, "exchange", unsupported)
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == OURS
    note.write_bytes(CHECKED + PERSON)
    with pytest.raises(WriteConflict):
        replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == CHECKED + PERSON and only_files(tmp_path) == ["note.md"]


def test_a_folder_swapped_for_a_symlink_out_of_the_vault_is_refused_at_write_time(tmp_path: Path) -> None:
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    (vault / "notes").mkdir(parents=True)
    outside.mkdir()
    (vault / "notes" / "a.md").write_bytes(CHECKED)
    (outside / "a.md").write_bytes(CHECKED)  # the same bytes: only containment can tell
    (vault / "notes").rename(tmp_path / "moved-away")
    (vault / "notes").symlink_to(outside)
    with pytest.raises(PathOutsideVault):
        replace_if_unchanged(vault / "notes" / "a.md", OURS, content_hash(CHECKED), "notes/a.md", vault)
    assert (outside / "a.md").read_bytes() == CHECKED and only_files(outside) == ["a.md"]


def test_the_folder_descriptor_is_reached_without_following_a_symlink(tmp_path: Path) -> None:
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    (vault / "notes").mkdir(parents=True)
    outside.mkdir()
    (vault / "notes" / "a.md").write_bytes(CHECKED)
    # The path was resolved (as resolve_inside does), then the folder is swapped: the walk
    # from the vault root, one name at a time with O_NOFOLLOW, refuses the symlink.
    real_realpath = os.path.realpath
    swapped = []

    def realpath_then_swap(path: object, *args: object, **kwargs: object) -> str:
        result = real_realpath(path, *args, **kwargs)  # type: ignore[arg-type]
        if str(path).endswith("notes") and not swapped:
            swapped.append(1)
            (vault / "notes").rename(tmp_path / "moved-away")
            (vault / "notes").symlink_to(outside)
        return result

    (outside / "a.md").write_bytes(CHECKED)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(noteio.os.path, "realpath", realpath_then_swap)
        with pytest.raises(PathOutsideVault):
            replace_if_unchanged(vault / "notes" / "a.md", OURS, content_hash(CHECKED), "notes/a.md", vault)
    assert swapped and (outside / "a.md").read_bytes() == CHECKED and only_files(outside) == ["a.md"]


def test_a_move_of_a_note_that_changed_puts_it_back_untouched(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED + PERSON)
    with pytest.raises(WriteConflict):
        move_if_unchanged(note, [("_archive/note.md", tmp_path / "_archive" / "note.md")], content_hash(CHECKED), "note.md", tmp_path)
    assert note.read_bytes() == CHECKED + PERSON and only_files(tmp_path / "_archive") == []


def test_a_move_while_a_writer_holds_the_note_open_is_refused_and_the_write_lands_in_the_note(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    with open(note, "ab") as editor:
        with pytest.raises(WriteConflict):
            move_if_unchanged(note, [("_archive/note.md", tmp_path / "_archive" / "note.md")], content_hash(CHECKED), "note.md", tmp_path)
        editor.write(PERSON)
    assert note.read_bytes() == CHECKED + PERSON and only_files(tmp_path / "_archive") == []


def test_a_move_takes_the_next_free_archive_name_and_never_replaces_one(tmp_path: Path) -> None:
    (tmp_path / "_archive").mkdir()
    (tmp_path / "_archive" / "note.md").write_bytes(b"archived earlier\n")
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    targets = [(f"_archive/{name}", tmp_path / "_archive" / name) for name in ("note.md", "note-2.md")]
    assert move_if_unchanged(note, targets, content_hash(CHECKED), "note.md", tmp_path) == ("_archive/note-2.md", CHECKED)
    assert (tmp_path / "_archive" / "note.md").read_bytes() == b"archived earlier\n"
    assert not note.exists()


@pytest.mark.parametrize("noreplace", ["atomic", "link-fallback"])
def test_a_move_of_an_unchanged_note_works_with_and_without_an_atomic_no_replace_rename(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, noreplace: str) -> None:
    if noreplace == "link-fallback":
        def unsupported(*args: object) -> None:
            raise renames.Unsupported(95, "not here")

        monkeypatch.setattr(renames, "rename_noreplace", unsupported)
    note = tmp_path / "sub" / "note.md"
    note.parent.mkdir()
    note.write_bytes(CHECKED)
    target = tmp_path / "_archive" / "sub" / "note.md"
    assert move_if_unchanged(note, [("_archive/sub/note.md", target)], content_hash(CHECKED), "sub/note.md", tmp_path)[0] == "_archive/sub/note.md"
    assert target.read_bytes() == CHECKED and only_files(note.parent) == []
    note.write_bytes(CHECKED + PERSON)
    with pytest.raises(WriteConflict):
        move_if_unchanged(note, [("_archive/sub/note-2.md", target.with_name("note-2.md"))], content_hash(CHECKED), "sub/note.md", tmp_path)
    assert note.read_bytes() == CHECKED + PERSON and only_files(note.parent) == ["note.md"]


def test_a_delete_while_a_writer_holds_the_note_open_is_refused_and_the_write_lands_in_the_note(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    with open(note, "ab") as editor:
        with pytest.raises(WriteConflict):
            delete_if_unchanged(note, content_hash(CHECKED), "note.md", tmp_path)
        editor.write(PERSON)
    assert note.read_bytes() == CHECKED + PERSON and only_files(tmp_path) == ["note.md"]


def test_a_delete_of_an_unchanged_note_leaves_nothing(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    assert delete_if_unchanged(note, content_hash(CHECKED), "note.md", tmp_path) == CHECKED
    assert only_files(tmp_path) == []


def test_renames_exchange_swaps_two_files_atomically_on_this_platform(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"A")
    (tmp_path / "b").write_bytes(b"B")
    try:
        renames.exchange(None, str(tmp_path / "a"), str(tmp_path / "b"))
    except renames.Unsupported:
        pytest.skip("no atomic exchange on this file system: the documented fallback applies")
    assert (tmp_path / "a").read_bytes() == b"B" and (tmp_path / "b").read_bytes() == b"A"
    with pytest.raises(FileExistsError):
        renames.rename_noreplace(None, str(tmp_path / "a"), None, str(tmp_path / "b"))


def test_on_windows_where_a_folder_cannot_be_opened_every_write_still_succeeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses ``os.open`` on a folder (a permission error): a write must not fail
    after it succeeded just because the folder's entry cannot be fsynced there."""
    from vaultmem import durable, folders

    real_open = os.open

    def open_as_windows_does(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if kwargs.get("dir_fd") is None and os.path.isdir(os.fspath(path)):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(durable, "ON_WINDOWS", True)
    monkeypatch.setattr(folders, "_DIR_FDS", False)  # no descriptor-relative calls there either
    monkeypatch.setattr(os, "open", open_as_windows_does)
    created = tmp_path / "new" / "note.md"
    create_exclusive(created, CHECKED)
    replaced = tmp_path / "note.md"
    replaced.write_bytes(CHECKED)
    replace_if_unchanged(replaced, OURS, content_hash(CHECKED), "note.md", tmp_path)
    assert created.read_bytes() == CHECKED and replaced.read_bytes() == OURS
    assert only_files(tmp_path) == ["new", "note.md"] and only_files(created.parent) == ["note.md"]  # no temp file left


def test_a_quoted_hash_after_a_tab_is_a_tag_not_a_comment(tmp_path: Path) -> None:
    # A review: the comment scan used the Python loader, which refuses the tab the C loader reads,
    # and then took every '#' for a comment: the edit was refused ("the comment '#b\"]' … has no place").
    path = tmp_path / "t.md"
    path.write_bytes(b'---\ntags: [a,\n\t"#b"]\n---\nBody.\n')
    path.write_bytes(edit_frontmatter(path.read_bytes(), {"tags": ["a", "#b", "c"]}))
    text = path.read_text(encoding="utf-8")
    assert text.endswith("---\nBody.\n") and tags_of(parse_note("t.md", path.read_bytes()).meta) == ["a", "b", "c"], text


@pytest.mark.parametrize(("set_values", "remove"), [({"base": 2}, []), ({}, ["base"])])
def test_an_edit_that_would_orphan_a_yaml_alias_is_refused_naming_the_key_not_blaming_the_persons_yaml(
        set_values: dict[str, object], remove: list[str]) -> None:
    # Was: "frontmatter does not load at line 3: found undefined alias; fix the YAML by hand
    # first" — the person's YAML loads; the line was one of vaultmem's edited block.
    raw = b"---\nbase: &x\n  k: 1\nother: *x\n---\nbody\n"
    with pytest.raises(FrontmatterError) as refused:
        edit_frontmatter(raw, set_values, remove=remove)
    message = str(refused.value)
    assert "fix the YAML by hand first" not in message and "does not load" not in message
    assert "base: the frontmatter would not load after this edit (found undefined alias)" in message
    assert "alias (*name)" in message and "the file was not touched" in message


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to own a file as another user")
def test_a_note_another_user_owns_keeps_its_owner_and_group_when_root_writes_it(tmp_path: Path) -> None:
    # Was: the swapped-in file was root's (vaultmem in a container, or under sudo), so the
    # person could no longer save their own note (Obsidian writes in place: EACCES).
    note = tmp_path / "note.md"
    note.write_bytes(CHECKED)
    os.chown(note, 65534, 65534)
    note.chmod(0o640)
    replace_if_unchanged(note, OURS, content_hash(CHECKED), "note.md", tmp_path)
    info = note.stat()
    assert note.read_bytes() == OURS and (info.st_uid, info.st_gid, info.st_mode & 0o777) == (65534, 65534, 0o640)
    assert only_files(tmp_path) == ["note.md"]
