"""Writing note files without hurting the person who also edits them.

- Writes are atomic: a temp file in the same folder, fsync, rename (durable.py writes
  every temp file). A crash leaves the old file or the new one, never half of either.
- Frontmatter is edited surgically, line by line: the keys vaultmem was asked to change
  are replaced, appended or removed; every other byte of the file — the body, the
  user's keys, their order, comments, quoting, BOM and line endings — stays as it was.
  python-frontmatter's ``dumps`` is never used on a user's file: it sorts keys, drops
  comments, rewraps lines and strips the body. A list the person already wrote keeps its
  form — ``[a, b]``, a block list, a ``tags: a, b`` string (list_forms.py).
- A comment is never dropped silently: a value written anew keeps the comment on its
  key's line; one it has no place for refuses the edit, naming the key (adr/0006).
- Every edit is verified by loading the new YAML back; an edit that would not round-trip
  raises instead of writing.
- A write, move or delete over an existing note ends in one of two states, however
  long any step takes: vaultmem's change on top of exactly the bytes it checked, or the
  person's bytes untouched and :class:`WriteConflict` (adr/0014-racing-edits.md). The
  old file is swapped out atomically and verified *after* the swap; it is swapped back
  if it is not the version vaultmem checked. Each folder is re-checked against the
  vault at write time, through a descriptor that a later symlink swap cannot redirect
  (folders.py holds those pinned folders and the renames that give a person's version
  back). Edits to a note's body are body_edits.py's.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml

from . import durable, renames
from .errors import (
    FrontmatterError,
    HardLinkedNote,
    InvalidTimestamp,
    NotUtf8Note,
    ReadOnlyNote,
    VaultmemError,
    WriteConflict,
)
from .folders import PinnedFolder, keep_beside, rename_private, restore_private
from .lifecycle import format_as_written, format_timestamp
from .list_forms import Rewritten, in_same_form
from .notes import (
    BOM,
    YAML_LOAD_ERRORS,
    YAML_LOADER,
    comment_value_problems,
    find_frontmatter,
    load_yaml_mapping,
    misplaced_frontmatter,
    not_a_mapping_problems,
    split_frontmatter,
    times_on_lines,
    utf16_encoding,
    yaml_failure,
)

NEW_NOTE_MODE = 0o644  # rw-r--r--, as an editor creates a note
_BLOCK_HEADER = re.compile(r"(?:[|>][-+1-9]{0,2})?")  # nothing, or a block scalar's `|` / `>` and its indicators
_TOP_LEVEL_KEY = re.compile(r"""^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:][^:]*?|-[^\s:][^:]*?))[ \t]*:(?:[ \t]|$)""")


def _write_target(path: Path) -> Path:
    # Renaming onto the link itself would replace the person's symlink with a regular
    # file, silently splitting one note into two diverging copies.
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def create_exclusive(path: Path, data: bytes) -> None:
    """Write a new file atomically, failing if the name is already taken.

    ``os.link`` of a fully written temp file claims the name atomically: two processes
    racing for the same name can never both win, and a reader never sees a partial file.
    """
    durable.make_folders(path.parent)
    temp_name, _inode = durable.write_temp(str(path.parent), path.name, data, NEW_NOTE_MODE)
    temp = path.parent / temp_name
    try:
        durable.owned_like_folder(temp_name, str(path.parent))  # before the link: the note is never root's
        os.link(temp, path)  # FileExistsError when the name is taken
    finally:
        temp.unlink(missing_ok=True)
    durable.fsync_folder(path.parent)


# ---------------------------------------------------------------- rendering YAML values


def render_value(key: str, value: Any) -> str:
    """``key: value`` as YAML lines (with a trailing newline), in Obsidian's style."""
    if isinstance(value, (list, tuple)):
        if not value:
            return f"{key}: []\n"
        return f"{key}:\n" + "".join(f"  - {render_scalar(item)}\n" for item in value)
    return f"{key}: {render_scalar(value)}\n"


class JoplinTime(datetime):
    """A UTC instant to be written as Joplin writes its times, ``2023-04-01 10:00:00Z``: a
    revised Joplin note's ``updated`` keeps its form (revision._updated)."""

    @classmethod
    def of(cls, moment: datetime) -> JoplinTime:
        utc = moment.astimezone(UTC)
        return cls(utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second, tzinfo=UTC)


def render_scalar(value: Any) -> str:
    if isinstance(value, JoplinTime):
        return value.strftime("%Y-%m-%d %H:%M:%SZ")  # YAML loads it back as this aware datetime
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.isoformat(timespec="microseconds" if value.microsecond else "seconds")  # loads back naive, as given
    if isinstance(value, datetime):
        # In its own zone: a person's 10:00-08:00 moved to UTC read 18:00 in Obsidian. vaultmem's
        # own stamps (created, expires_at) are UTC datetimes and stay so. YAML loads it back aware.
        return format_as_written(value)
    if isinstance(value, date):
        return value.isoformat()
    if value is None:
        return "null"
    dumped = yaml.safe_dump(value, allow_unicode=True, default_flow_style=True, width=10**9)
    return dumped.removesuffix("\n...\n").removesuffix("\n")


def render_frontmatter(meta: Mapping[str, Any]) -> str:
    """A whole new frontmatter block (for notes vaultmem creates itself)."""
    return "---\n" + "".join(render_value(key, value) for key, value in meta.items()) + "---\n"


# ---------------------------------------------------------------- surgical edits


def edit_frontmatter(raw: bytes, set_values: Mapping[str, Any] | None = None, remove: Iterable[str] = ()) -> bytes:
    """Set and remove top-level keys; every other byte of the file stays as it was.

    New keys are appended after the existing ones. A file without frontmatter gets a
    block in front of its untouched body, unless a block a few lines down looks meant as its
    frontmatter (:func:`notes.misplaced_frontmatter`). Raises :class:`FrontmatterError` if the
    existing YAML does not load or the edit would not load back as intended.
    """
    set_values = dict(set_values or {})
    remove = [key for key in remove if key not in set_values]
    has_bom, text = split_bom(raw)
    first_line = text.split("\n", 1)[0]
    newline = "\r\n" if first_line.endswith("\r") else "\n"
    normalized = text.replace("\r\n", "\n")
    block = find_frontmatter(normalized)
    if block is not None and block.toml and split_frontmatter("", normalized)[2] is None:
        block = None  # `+++` lines around prose (notes._split_toml): the note's text, no frontmatter
    if block is not None and block.toml:
        # A YAML block written above it would be the one Hugo reads, and the page would lose
        # every TOML property; rewriting the TOML keeps neither its layout nor its comments.
        raise FrontmatterError("its frontmatter is TOML (between +++ lines, as Hugo writes it) and vaultmem edits "
                               "only YAML frontmatter; change the property by hand (the file was not touched)")
    if block is None:
        for problem in misplaced_frontmatter("", normalized):
            # A second block on line 1 would leave the person's own one below it, still unread.
            raise FrontmatterError(f"{problem.message}; fix it first: {problem.fix}")
        head, body_start = render_frontmatter(set_values), 0
        before: dict[str, Any] = {}
    else:
        before = _load_block(block.yaml_text)
        _refuse_repeated(block.yaml_text, set_values)
        for problem in comment_value_problems("", block.yaml_text, before):
            if problem.field in set_values or problem.field in remove:
                # Written under the comment, the new value would hide what the person meant.
                raise FrontmatterError(f"{problem.message}; {problem.fix} first, then try again (the file was not touched)")
        new_yaml, loads_as = _edit_block(block.yaml_text, before, set_values, remove)
        head = normalized[: block.start] + new_yaml + normalized[block.end : block.body_start]
        if _left_empty(new_yaml, normalized[block.body_start:]):
            head = ""  # the last key removed: no `---` / `---` pair left on top of the note
        body_start = original_offset(text, normalized, block.body_start)
        _verify(before, new_yaml, {**set_values, **loads_as}, remove)
    if newline == "\r\n":
        head = head.replace("\n", "\r\n")
    # The body is copied from the original text, not from the CRLF-normalised one: a file
    # with mixed line endings would otherwise get every LF in its body turned into CRLF.
    return ((BOM if has_bom else "") + head + text[body_start:]).encode("utf-8")


def _left_empty(new_yaml: str, body: str) -> bool:
    """Is the edited block empty (not even a comment left), so the note is better without it?
    Not when ``body`` opens with a block of its own (``---`` / ``key: value`` / ``---``): the
    empty one above is all that keeps it text, and without it that would be read as frontmatter."""
    return not new_yaml.strip() and find_frontmatter(body) is None and not misplaced_frontmatter("", body)


def original_offset(text: str, normalized: str, offset: int) -> int:
    """Map an offset in ``normalized`` (CRLF → LF) back to the same place in ``text``."""
    lines_before = normalized.count("\n", 0, offset)
    position = 0
    for _ in range(lines_before):
        position = text.index("\n", position) + 1
    return position + (offset - (normalized.rfind("\n", 0, offset) + 1))


def require_utf8(relative: str, raw: bytes) -> None:
    """Raise :class:`NotUtf8Note` for a note saved as UTF-16: every write, edit and link rewrite
    asks first. Written back as UTF-8 it would no longer be the file the person's editor saved;
    written as UTF-16 it would be a second encoding every edit path must keep (and the
    surrogateescape rewrite of links would not even find ``[[`` between its NUL bytes)."""
    encoding = utf16_encoding(raw)
    if encoding is not None:
        raise NotUtf8Note(relative, encoding)


def split_bom(raw: bytes) -> tuple[bool, str]:
    encoding = utf16_encoding(raw)
    if encoding is not None:
        raise FrontmatterError(f"file is saved as {encoding}, not UTF-8, and vaultmem writes only UTF-8; "
                               "re-save it as UTF-8 first")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if b"\0" in raw:  # an image or a PDF named .md: no editor re-saves it as UTF-8 (notes._not_utf8_problem)
            raise FrontmatterError(f"file is not a text note: not valid UTF-8 at byte {error.start} and it holds NUL "
                                   "bytes (a binary file named .md); give it its real extension, or write to a note") from None
        raise FrontmatterError(f"file is not valid UTF-8 at byte {error.start}; re-save it as UTF-8 first") from None
    return text.startswith(BOM), text.removeprefix(BOM)


def _load_block(yaml_text: str) -> dict[str, Any]:
    try:
        loaded = load_yaml_mapping(yaml_text)
    except YAML_LOAD_ERRORS as error:
        where, reason = yaml_failure(error)
        raise FrontmatterError(f"frontmatter does not load{where}: {reason}; fix the YAML by hand first") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise FrontmatterError(_not_a_mapping(yaml_text, loaded))
    return loaded


def _not_a_mapping(yaml_text: str, loaded: Any) -> str:
    """Why an edit refuses a block that loads but not as properties, in ``check``'s words and
    with its fix (notes.not_a_mapping_problems): ``aliases:[RFI, x]`` (no space after the colon)
    was refused as "not a mapping of keys to values", which names neither the line nor the fix."""
    said = not_a_mapping_problems("", yaml_text, loaded)
    if not said:  # text of another shape (a paragraph under a rule): check says nothing of it either
        return "frontmatter is not a mapping of keys to values; fix it by hand first"
    return f"frontmatter: {said[0].message}; {said[0].fix}, then try again (the file was not touched)"


def _refuse_repeated(yaml_text: str, set_values: Mapping[str, Any]) -> None:
    """A key to set that the block holds twice: which line to change is the person's call (YAML
    reads the last; Obsidian neither), and changing one left the other to decide what loads —
    refused with only "could not edit this frontmatter without changing other keys"."""
    lines: dict[str, list[int]] = {}
    for key, start, _stop in _entries(yaml_text.splitlines(keepends=True)):
        lines.setdefault(key, []).append(start + 2)  # the opening --- is line 1
    for key in set_values:
        if len(lines.get(key, ())) > 1:
            raise FrontmatterError(f"{key} is set {times_on_lines(lines[key])} in this frontmatter, so vaultmem "
                                   f"cannot tell which to change; remove one of them, then try again (the file was not touched)")


def _edit_block(yaml_text: str, before: Mapping[str, Any], set_values: Mapping[str, Any],
                remove: Iterable[str]) -> tuple[str, dict[str, Any]]:
    """The edited block, and what each key written in the person's own form loads as
    (a list of tags kept as a ``a, b`` string loads as that string)."""
    lines = yaml_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    entries = _entries(lines)
    pending = dict(set_values)
    removed = set(remove)
    loads_as: dict[str, Any] = {}
    out: list[str] = []
    cursor = 0
    for key, start, stop in entries:
        out.extend(lines[cursor:start])
        cursor = stop
        tail = _trailing_blank_or_comment(lines, start + 1, stop)
        if key in pending:
            value = pending.pop(key)
            entry = lines[start : stop - len(tail)]
            kept = _in_same_form(key, entry, before.get(key), value)
            out.append(_written_anew(key, entry, value) if kept is None else kept.text)
            if kept is not None:
                loads_as[key] = kept.loads_as
            out.extend(tail)
        elif key in removed:
            # Column-0 comments after a removed entry belong to the next key: keep them.
            out.extend(tail)
        else:
            out.extend(lines[start:stop])
    out.extend(lines[cursor:])
    out.extend(_render_set(key, value) for key, value in pending.items())
    return "".join(out), loads_as


def _in_same_form(key: str, lines: list[str], old: Any, value: Any) -> Rewritten | None:
    """A list the person wrote as ``[a, b]``, a block or an ``a, b`` string, written back so
    (list_forms.py); ``None``: written anew in Obsidian's style."""
    match = _TOP_LEVEL_KEY.match(lines[0])
    return in_same_form(key, lines, match.end(), old, value, render_scalar) if match else None


def _written_anew(key: str, entry: list[str], value: Any) -> str:
    """``key`` set to ``value`` in Obsidian's style, keeping the person's comment on the key's
    line (``title: Y  # chosen``, ``tags:  # mine`` over the new items). Any other comment in
    the entry has no place in the new lines: :class:`FrontmatterError`, never a silent loss."""
    rendered = _render_set(key, value)
    text = "".join(entry)
    comments = _comment_offsets(text)
    if not comments:
        return rendered
    first_line = entry[0].rstrip("\n")
    keys_own = comments[0] < len(first_line) and _comments_the_key(first_line, comments[0], len(entry) == 1)
    if keys_own and len(comments) == 1:
        line, rest = rendered.split("\n", 1)
        before = first_line[: comments[0]]
        spacing = before[len(before.rstrip(" \t")):] or " "  # as written
        return f"{line}{spacing}{first_line[comments[0]:]}\n{rest}"
    lost = comments[1] if keys_own else comments[0]
    comment = text[lost:].split("\n", 1)[0].strip()
    number = text.count("\n", 0, lost) + 1
    raise FrontmatterError(
        f"{key}: the comment {comment!r} (line {number} of {key}) has no place in the new value, which vaultmem "
        f"must write anew; move the comment to a line of its own above '{key}:' or remove it, then try again "
        "(the file was not touched)")


def _comments_the_key(first_line: str, comment: int, one_line: bool) -> bool:
    """Is the comment at ``comment`` on the key's line about the whole value? On a line that
    holds the whole entry, or right after the key (``tags:  # mine``, ``note: |  # why``) —
    not after the first item of a flow list over several lines: that item's, and it is gone."""
    match = _TOP_LEVEL_KEY.match(first_line)
    return match is not None and (one_line or _BLOCK_HEADER.fullmatch(first_line[match.end() : comment].strip()) is not None)


def _comment_offsets(text: str) -> list[int]:
    """Where each YAML comment in ``text`` starts: the first ``#`` on its line outside every
    token the scanner reads (a quoted or plain value holding ``#`` is one token; a block
    scalar's is its content, not its ``|`` line). Text the scanner cannot read: every line
    holding a ``#`` counts."""
    inside = [False] * len(text)
    try:
        tokens = list(yaml.scan(text, Loader=YAML_LOADER))  # the loader notes are read with (a tab: the C one takes it)
    except YAML_LOAD_ERRORS:
        tokens = []
    for token in tokens:
        start = token.start_mark.index
        if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
            header_end = text.find("\n", start)
            start = len(text) if header_end < 0 else header_end + 1
        for index in range(start, token.end_mark.index):
            inside[index] = True
    offsets: list[int] = []
    line_end = -1
    for index, char in enumerate(text):
        if char == "#" and not inside[index] and index > line_end:
            offsets.append(index)
            found = text.find("\n", index)
            line_end = len(text) if found < 0 else found  # a comment runs to the end of its line
    return offsets


def _render_set(key: str, value: Any) -> str:
    """A key the edit sets, or :class:`FrontmatterError` naming it (callers add the file)."""
    try:
        return render_value(key, value)
    except InvalidTimestamp as error:
        raise FrontmatterError(f"{key}: {error}") from None


def _entries(lines: list[str]) -> list[tuple[str, int, int]]:
    """(key, first line, line after the entry) for each top-level key of the block."""
    starts: list[tuple[str, int]] = []
    for number, line in enumerate(lines):
        match = _TOP_LEVEL_KEY.match(line)
        if match:
            key = match.group(1) if match.group(1) is not None else match.group(2) if match.group(2) is not None else match.group(3)
            starts.append((key.strip(), number))
    entries = []
    for index, (key, start) in enumerate(starts):
        stop = starts[index + 1][1] if index + 1 < len(starts) else len(lines)
        entries.append((key, start, stop))
    return entries


def _trailing_blank_or_comment(lines: list[str], start: int, stop: int) -> list[str]:
    """Column-0 comments and blank lines after a replaced entry belong to what follows."""
    tail: list[str] = []
    for line in reversed(lines[start:stop]):
        if line.strip() == "" or line.startswith("#"):
            tail.append(line)
        else:
            break
    return list(reversed(tail))


def _verify(before: Mapping[str, Any], new_yaml: str, set_values: Mapping[str, Any], remove: Iterable[str]) -> None:
    """Load the edited block back: exactly the requested change, keys in the same order."""
    removed = set(remove)
    expected_order = [key for key in before if key not in removed] + [key for key in set_values if key not in before]
    try:
        loaded = load_yaml_mapping(new_yaml)
    except YAML_LOAD_ERRORS as error:
        # The person's block loaded (it was loaded first): this edit broke it, most likely by
        # taking away an anchor (&x) another key's alias (*x) uses. Was: "does not load at
        # line N …; fix the YAML by hand first", a line of the edited block, blaming theirs.
        keys = ", ".join([*set_values, *removed])
        raise FrontmatterError(
            f"{keys}: the frontmatter would not load after this edit ({yaml_failure(error)[1]}): another key may use "
            "this one's value through a YAML alias (*name); change them by hand (the file was not touched)") from None
    after = loaded if isinstance(loaded, dict) else {}  # not a mapping: unlike `before`, refused below
    # A key the edit did not touch is compared as loaded, never normalised: its lines were
    # copied byte for byte, and normalising a date no UTC instant holds (9999-12-31T23:59-05:00)
    # would raise — refusing an edit of one key over the value of another.
    kept_same = all(after.get(key) == value for key, value in before.items() if key not in removed and key not in set_values)
    set_same = all(_normalized(after.get(key)) == _normalized(value) for key, value in set_values.items())
    if not (kept_same and set_same) or [str(key) for key in after] != expected_order:
        raise FrontmatterError(
            "vaultmem could not edit this frontmatter without changing other keys; "
            "edit it by hand (the file was not touched)"
        )


def _normalized(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _normalized(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalized(item) for item in value]
    if isinstance(value, datetime):
        return format_timestamp(value)
    return value


# ---------------------------------------------------------------- writes over a person's file
# The guarantee (adr/0014-racing-edits.md): every write over an existing note ends with
# either vaultmem's change on top of exactly the bytes it checked, or the person's bytes
# untouched and WriteConflict raised. Nothing is replaced and then checked too late: the
# old file is *swapped out* (renames.exchange), and only deleted once it is proven to be
# the version vaultmem checked and no process can still be writing into it; otherwise it
# is swapped back. Without an atomic exchange (Windows, some network file systems) the
# check comes right before a plain rename: the documented weaker fallback.


@dataclass(frozen=True)
class FileChange:
    """One file vaultmem changed: the bytes it checked and the bytes it left (for commits)."""

    path: str  # vault-relative POSIX, where the file is now (or was, when deleted)
    before: bytes | None  # what vaultmem checked and replaced, moved or deleted; None: it created the file
    after: bytes | None  # what it wrote (or moved) here; None: the file is gone
    moved_from: str | None = None  # for an archive move: the note's old path


def replace_if_unchanged(path: Path, data: bytes, expected_hash: str, relative: str, vault_root: Path) -> FileChange:
    """Write ``data`` over the note at ``path`` if, and only if, it still holds the bytes
    whose hash is ``expected_hash``; otherwise :class:`WriteConflict` and the file as the
    person left it. ``path`` is re-checked against ``vault_root`` here, at write time."""
    target = _write_target(path)
    with _naming_the_note(relative), _open_existing(target.parent, vault_root, relative) as folder:
        before = _swap_in(folder, target.name, data, expected_hash, relative)
    return FileChange(relative, before, data)


def move_if_unchanged(source: Path, targets: Iterable[tuple[str, Path]], expected_hash: str, relative: str,
                      vault_root: Path) -> tuple[str, bytes]:
    """Move the note at ``source`` to the first of ``targets`` (vault-relative, absolute)
    that does not exist yet, if it holds the bytes with ``expected_hash``; returns the
    target's relative path and the bytes moved. Otherwise :class:`WriteConflict`, and
    the person's file is back where it was (or, if they made a new one there meanwhile,
    kept at the named target)."""
    with _naming_the_note(relative):
        origin = _open_existing(source.parent, vault_root, relative)
    with origin:
        for target_relative, target in targets:
            # Named with where it was going: a refusal of the target's folder (an archive this
            # user may not write) was said of the note alone, "cannot write locked/n.md".
            with (_naming_the_note(relative, target_relative),
                  PinnedFolder.open(target.parent, vault_root, target_relative, create=True) as folder):
                try:
                    moved = _move_checked(origin, source.name, folder, target.name, expected_hash, relative, target_relative)
                except FileExistsError:
                    continue  # taken (an earlier archived copy): try the next name
                return target_relative, moved
    raise FileExistsError(errno.EEXIST, f"every archive name for {relative} is taken")


def delete_if_unchanged(path: Path, expected_hash: str, relative: str, vault_root: Path) -> bytes:
    """Delete the note at ``path`` if it holds the bytes with ``expected_hash``; returns
    them. Otherwise :class:`WriteConflict` and the person's file stays."""
    with _naming_the_note(relative), _open_existing(path.parent, vault_root, relative) as folder:
        _refuse_read_only(folder.regular_file_mode(path.name), relative)
        aside = folder.temp_name(path.name)
        try:
            # The private name is vaultmem's alone, so this plain rename replaces nothing.
            os.rename(folder.at(path.name), folder.at(aside), src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
        except FileNotFoundError:
            raise WriteConflict(relative, gone=True) from None
        removed = folder.holding(aside, expected_hash)
        if removed is None:
            kept = restore_private(folder, aside, folder, path.name, relative)
            raise WriteConflict(relative, kept)
        folder.unlink(aside)
        folder.sync()
    return removed


@contextmanager
def _naming_the_note(relative: str, moved_to: str | None = None) -> Iterator[None]:
    """An error of a step relative to a pinned folder names what that step saw — vaultmem's
    temp file (``.n.md.b8b7258a.tmp``) or the bare name (``n.md``) — so it names the note's
    vault path instead, and ``moved_to`` (the error's second file name) when it was being moved
    there; one that names a path with a folder (``_archive/notes``, a whole path), or is
    vaultmem's own, stays as it is."""
    try:
        yield
    except OSError as error:
        named = os.fsdecode(error.filename or "/")
        if isinstance(error, VaultmemError) or error.errno is None or "/" in named or os.path.isabs(named):
            raise
        raise OSError(error.errno, error.strerror, relative, None, moved_to) from error


def _open_existing(directory: Path, vault_root: Path, relative: str) -> PinnedFolder:
    try:
        return PinnedFolder.open(directory, vault_root, relative)
    except FileNotFoundError:
        raise WriteConflict(relative, gone=True) from None  # the note's folder is gone: so is the note


def refuse_read_only(path: Path, relative: str, *, replacing: bool = False) -> None:
    """:class:`ReadOnlyNote` for the note at ``path`` when its owner may not write it, as a
    write over it or its deletion would raise: for a dry run (``check``, ``expire --hard``,
    ``consolidate``) to say it, never promising what the write then refuses. ``replacing``: the
    write replaces the file (not a move or a delete), which a note with other names (hard links)
    refuses too (:class:`HardLinkedNote`). A file that is gone or no plain file is left to the
    write, which says what it finds."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISREG(info.st_mode):
        _refuse_read_only(stat.S_IMODE(info.st_mode), relative)
        if replacing:
            _refuse_hard_linked(info.st_nlink, relative)


def _refuse_hard_linked(names: int, relative: str) -> None:
    # A rename gives this name a new file and leaves every other name the old one: the note the
    # person linked into a second vault silently split in two (Obsidian and vim write such a
    # file in place, keeping its names; vaultmem writes only by atomic rename).
    if names > 1:
        raise HardLinkedNote(relative, names)


def _refuse_read_only(mode: int | None, relative: str) -> None:
    # The person's own protection: without this a note chmod 444 was replaced by `revise`
    # (the rename needs only the folder's permission) and deleted by `forget --hard`.
    if mode is not None and not mode & stat.S_IWUSR:
        raise ReadOnlyNote(relative, mode)


def _swap_in(folder: PinnedFolder, name: str, data: bytes, expected_hash: str, relative: str) -> bytes:
    """Put ``data`` at ``name``; returns the bytes it replaced (the checked ones)."""
    mode = folder.regular_file_mode(name)
    if mode is None:
        raise WriteConflict(relative, gone=not folder.exists(name))  # gone, or no longer a plain file
    _refuse_read_only(mode, relative)
    _refuse_hard_linked(folder.names_of(name), relative)
    temp, ours = folder.write_temp(name, data, mode)
    try:
        folder.owned_as(temp, name)
        renames.exchange(folder.fd, folder.at(temp), folder.at(name))
    except renames.Unsupported:
        return _replace_unswappable(folder, temp, name, expected_hash, relative)
    except FileNotFoundError:
        folder.unlink(temp)
        raise WriteConflict(relative, gone=True) from None
    except BaseException:
        folder.unlink(temp)  # no swap happened: the temp file holds only our bytes
        raise
    # `temp` now names what was at `name` a moment ago.
    replaced = folder.holding(temp, expected_hash)
    if replaced is not None:
        folder.unlink(temp)
        folder.sync()
        return replaced
    raise _swap_back(folder, temp, name, ours, data, relative)


def _swap_back(folder: PinnedFolder, temp: str, name: str, ours: int, data: bytes, relative: str) -> WriteConflict:
    """The swapped-out file is not the one vaultmem checked: give the person theirs back."""
    try:
        renames.exchange(folder.fd, folder.at(temp), folder.at(name))
    except FileNotFoundError:
        # The note was deleted or renamed after our swap: put their earlier version back.
        return WriteConflict(relative, restore_private(folder, temp, folder, name, relative))
    if folder.is_exactly(temp, ours, data):
        folder.unlink(temp)
        folder.sync()
        return WriteConflict(relative)
    # Someone wrote into (or replaced) our version while it was in place: both versions
    # are the person's now. One is at the note's name; the other is kept beside it.
    return WriteConflict(relative, keep_beside(folder, temp, name, relative))


def _replace_unswappable(folder: PinnedFolder, temp: str, name: str, expected_hash: str, relative: str) -> bytes:
    """The weaker fallback: check, then rename over. An edit landing between the two is lost."""
    current = folder.holding(name, expected_hash)
    if current is None:
        folder.unlink(temp)
        raise WriteConflict(relative)
    os.rename(folder.at(temp), folder.at(name), src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
    folder.sync()
    return current


def _move_checked(origin: PinnedFolder, name: str, folder: PinnedFolder, target: str, expected_hash: str,
                  relative: str, target_relative: str) -> bytes:
    try:
        renames.rename_noreplace(origin.fd, origin.at(name), folder.fd, folder.at(target))
    except renames.Unsupported:
        return _move_unswappable(origin, name, folder, target, expected_hash, relative, target_relative)
    except FileNotFoundError:
        raise WriteConflict(relative, gone=True) from None
    moved = folder.holding(target, expected_hash)
    if moved is not None:
        folder.sync()
        origin.sync()
        return moved
    # Not the version vaultmem checked: back under its own name, or kept where it is.
    try:
        rename_private(folder, target, origin, name)
    except FileExistsError:
        raise WriteConflict(relative, target_relative) from None
    raise WriteConflict(relative)


def _move_unswappable(origin: PinnedFolder, name: str, folder: PinnedFolder, target: str, expected_hash: str,
                      relative: str, target_relative: str) -> bytes:
    """Without an atomic no-replace rename: link, then take the name away privately and
    compare inodes, so a file saved over the note between the two is never deleted."""
    try:
        os.link(origin.at(name), folder.at(target), src_dir_fd=origin.fd, dst_dir_fd=folder.fd, follow_symlinks=False)
    except FileNotFoundError:
        raise WriteConflict(relative, gone=True) from None
    aside = origin.temp_name(name)
    os.rename(origin.at(name), origin.at(aside), src_dir_fd=origin.fd, dst_dir_fd=origin.fd)
    if origin.same_file(aside, folder, target):
        origin.unlink(aside)  # a second name of the archived file
    else:
        # A new file was saved at `name` between link and rename: it goes back, untouched.
        kept = restore_private(origin, aside, origin, name, relative)
        if folder.holding(target, expected_hash) is not None:
            folder.unlink(target)  # the version the person's save replaced
        raise WriteConflict(relative, kept)
    moved = folder.holding(target, expected_hash)
    if moved is None:
        try:
            rename_private(folder, target, origin, name)
        except FileExistsError:
            raise WriteConflict(relative, target_relative) from None
        raise WriteConflict(relative)
    folder.sync()
    origin.sync()
    return moved
