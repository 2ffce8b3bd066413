"""A documentation vault of long notes, assembled from manuals installed on this machine.

Nothing is downloaded and nothing is copied into the repository: the vault is built at
run time from

- the GNU manuals in ``/usr/share/info`` (coreutils, diffutils, findutils, grep, sed,
  gzip, wget, bc, ed, bzip2, time, readline, gnupg, gettext; GNU Free Documentation
  License 1.3), one note per chapter: the chapter's sections become ``##`` headings and
  their subsections ``###``, menus are dropped and ``*note X::`` becomes "see X";
- npm's own documentation in ``/usr/lib/node_modules/npm/docs/content`` (Markdown,
  Artistic License 2.0), one note per page, unchanged.

A chapter of coreutils holds several commands (``Summarizing files``: wc, sum, cksum,
md5sum ...), so the answer to "how do I count the words in a file" is one section of a
note several thousand words long. Questions (``docs.json``) name the note and the
heading of the answering section; the set refuses to run when a named section is
missing from the vault it built (another version of a manual), instead of scoring
questions whose answer is not there.
"""

from __future__ import annotations

import gzip
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .model import PreparedSet, Question, read_questions, vault_digest

INFO_DIR = Path("/usr/share/info")
NPM_DOCS = Path("/usr/lib/node_modules/npm/docs/content")
QUESTIONS = Path(__file__).resolve().parent / "docs.json"
MANUALS = ("coreutils", "diffutils", "find", "grep", "sed", "gzip", "wget", "bc", "ed", "bzip2", "time",
           "rluserman", "gnupg", "gettext")
SKIPPED_CHAPTERS = re.compile(r"(Free Documentation License|General Public License|Licenses|Index|index|Copying)")
UNDERLINES = {"*": 1, "=": 2, "-": 3, ".": 4}
_NODE_HEADER = re.compile(r"^File: [^,]+,\s+Node: ([^,\n]+)")
_NUMBER = re.compile(r"^(?:Appendix\s+)?(?:[0-9A-Z]+(?:\.[0-9]+)*)\s+")
_NOTE_REF = re.compile(r"\*[Nn]ote\s+([^:]+?)::")
_NOTE_REF_NAMED = re.compile(r"\*[Nn]ote\s+([^:]+?):\s*[^.,]*[.,]")
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]]+')


class DocsSourceMissing(RuntimeError):
    pass


@dataclass
class Chapter:
    manual: str
    title: str
    lines: list[str]


def prepare(workdir: Path) -> PreparedSet:
    vault = workdir / "docs"
    notes = build_docs_vault(vault)
    questions = load_questions(vault)
    return PreparedSet("docs", vault, questions, {
        "notes": notes, "sources": [str(INFO_DIR), str(NPM_DOCS)],
        "licenses": "GNU manuals: GFDL 1.3; npm docs: Artistic License 2.0",
        "vault_sha256": vault_digest(vault),  # equal digests: the same notes, whatever the machine
    })



def build_docs_vault(vault: Path) -> int:
    """Write the vault (replacing any previous build); return how many notes it holds."""
    missing = [str(path) for path in (INFO_DIR, NPM_DOCS) if not path.is_dir()]
    if missing:
        raise DocsSourceMissing(f"the docs set is built from manuals installed on this machine and {', '.join(missing)} is missing; run without it (--sets sample,kepano,conversations)")
    if vault.exists():
        shutil.rmtree(vault)
    count = 0
    for manual in MANUALS:
        for chapter in info_chapters(manual):
            _write(vault / manual / f"{_safe(chapter.title)}.md", chapter_note(chapter))
            count += 1
    for page in sorted(NPM_DOCS.rglob("*.md")):
        _write(vault / "npm" / page.relative_to(NPM_DOCS), page.read_text(encoding="utf-8"))
        count += 1
    return count


def load_questions(vault: Path) -> list[Question]:
    questions = read_questions(QUESTIONS)
    for question in questions:
        _check_answer(vault, question)
    return questions


def _check_answer(vault: Path, question: Question) -> None:
    for answer in question.answers:
        note = vault / answer
        if not note.is_file():
            raise DocsSourceMissing(f"{QUESTIONS.name}: {question.text!r} names {answer}, which this machine's manuals do not produce; the installed manual differs from the one the question was written for")
        if question.section and not has_heading(note.read_text(encoding="utf-8"), question.section):
            raise DocsSourceMissing(f"{QUESTIONS.name}: {question.text!r} names the section {question.section!r} of {answer}, which is not there; the installed manual differs from the one the question was written for")


def has_heading(text: str, heading: str) -> bool:
    return any(line.lstrip("#").strip() == heading for line in text.splitlines() if line.startswith("#"))


# -- GNU info → Markdown


def info_chapters(manual: str) -> list[Chapter]:
    chapters: list[Chapter] = []
    for node in _info_nodes(manual):
        lines = node.splitlines()
        header = _NODE_HEADER.match(lines[0]) if lines else None
        if header is None or header.group(1).strip() == "Top":
            continue
        body = _drop_menu(lines[1:])
        level, title, rest = _node_title(body)
        if level is None:
            continue
        if level == 1:
            chapters.append(Chapter(manual, title, []))
            chapters[-1].lines.extend(rest)
        elif chapters:
            chapters[-1].lines.extend(["", "#" * min(level, 4) + " " + title, "", *rest])
    return [chapter for chapter in chapters if not SKIPPED_CHAPTERS.search(chapter.title)]


def chapter_note(chapter: Chapter) -> str:
    text = "\n".join(chapter.lines)
    text = _NOTE_REF.sub(r"see \1", text)
    text = _NOTE_REF_NAMED.sub(r"see \1.", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return f"---\nsource: {chapter.manual}.info\nlicense: GFDL-1.3\n---\n# {chapter.title}\n\n{text}\n"


def _info_nodes(manual: str) -> list[str]:
    parts = sorted(INFO_DIR.glob(f"{manual}.info-*.gz"), key=lambda path: int(path.name.split("-")[-1].split(".")[0]))
    files = parts or [INFO_DIR / f"{manual}.info.gz"]
    if not files[0].is_file():
        raise DocsSourceMissing(f"{files[0]} is missing: the docs set needs the {manual} manual (Debian package of {manual}, with its info pages)")
    return "".join(_read_gzip(path) for path in files).split("\x1f\n")


def _read_gzip(path: Path) -> str:
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as stream:
        return stream.read()


def _drop_menu(lines: list[str]) -> list[str]:
    for number, line in enumerate(lines):
        if line.startswith("* Menu:"):
            return lines[:number]
    return lines


def _node_title(lines: list[str]) -> tuple[int | None, str, list[str]]:
    for number in range(len(lines) - 1):
        underline = lines[number + 1]
        if lines[number].strip() and underline and len(set(underline)) == 1 and underline[0] in UNDERLINES \
                and len(underline) >= len(lines[number].rstrip()) - 1:
            return UNDERLINES[underline[0]], _NUMBER.sub("", lines[number].strip()), lines[number + 2:]
    return None, "", lines


def _safe(title: str) -> str:
    name = " ".join(_UNSAFE.sub(" ", title).replace("‘", "").replace("’", "").replace("'", "").split())
    return name.strip(" .") or "untitled"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
