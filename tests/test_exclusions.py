"""Excluded files are not notes (vaultmem/exclusions.py, issue 11 §4).

``.vaultmem.toml`` ``exclude = [globs]``, Obsidian's Excluded files (``.obsidian/app.json``
``userIgnoreFilters``) and the templates folders of the Templates and Templater plugins:
never indexed, checked, searched, consolidated, expired or rewritten. Real files, the real
CLI, real watchdog.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import NOW, run_cli, run_json, snapshot_files, wait_until, write_file

from vaultmem import Vault
from vaultmem.paths import VaultPaths
from vaultmem.watcher import Change

CONFIG = 'embedder = "hashing"\n'
OAT = "Maya takes oat milk in her coffee, never dairy, and a splash of cold water first."


def memory(body: str, layer: str = "L3", expires_at: str = "2099-01-01") -> str:
    return f"---\nlayer: {layer}\nexpires_at: {expires_at}\n---\n{body}\n"


def obsidian_excludes(root: Path, *entries: str) -> None:
    write_file(root, ".obsidian/app.json", json.dumps({"alwaysUpdateLinks": True, "userIgnoreFilters": list(entries)}))


def excluded(root: Path, *relatives: str, config: str = "") -> dict[str, bool]:
    """Which of these paths the vault's exclusions leave out (the scan agrees: see below)."""
    write_file(root, ".vaultmem.toml", config)
    from vaultmem.config import load_config

    paths = VaultPaths(root, "_archive", load_config(root).exclude)
    return {relative: not paths.is_note_path(relative) for relative in relatives}


@pytest.fixture
def vault_with_private(vault_dir: Path) -> Path:
    """A memory, and a Private/ folder holding what would otherwise be indexed, warned
    about, merged and expired."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["Private/"]\n')
    write_file(vault_dir, "memories/oat.md", memory(OAT + " She said so twice in November."))
    write_file(vault_dir, "Private/oat-copy.md", memory(OAT))  # a near-duplicate of the memory
    write_file(vault_dir, "Private/old-flight.md", memory("Flight to Berlin, seat 14C.", "L1", "2026-11-01"))  # expired
    write_file(vault_dir, "Private/broken.md", "---\ntitle: Diary: day one: rain\n---\nA private diary entry about oat milk.\n")
    return vault_dir


# ---------------------------------------------------------------- which files are excluded


def test_obsidian_entries_are_path_prefixes_as_obsidian_reads_them(vault_dir: Path) -> None:
    obsidian_excludes(vault_dir, "Archive", "Inbox/", "")
    assert excluded(vault_dir, "Archive/x.md", "Archive 2020/y.md", "Archived.md", "Inbox/a.md", "Inbox.md",
                    "notes/Archive.md", "archive/lower.md") == {
        "Archive/x.md": True, "Archive 2020/y.md": True, "Archived.md": True,  # Obsidian's startsWith
        "Inbox/a.md": True, "Inbox.md": False, "notes/Archive.md": False,
        "archive/lower.md": False,  # case-sensitive, as in Obsidian; an empty entry excludes nothing
    }


def test_an_obsidian_entry_between_slashes_is_a_regex_searched_in_the_path(vault_dir: Path) -> None:
    obsidian_excludes(vault_dir, r"/\.draft\.md$/", r"/^Daily\/(?<year>2019|2020)-/")  # a JavaScript named group
    assert excluded(vault_dir, "notes/plan.draft.md", "Daily/2019-01-01.md", "Daily/2026-11-30.md", "notes/plan.md") == {
        "notes/plan.draft.md": True, "Daily/2019-01-01.md": True, "Daily/2026-11-30.md": False, "notes/plan.md": False,
    }


def test_vaultmem_toml_exclude_is_gitignore_style_and_vault_relative(vault_dir: Path) -> None:
    config = 'exclude = ["Private/", "*.excalidraw.md", "/Root only.md", "Drafts/**", "!Drafts/keep.md"]\n'
    assert excluded(vault_dir, "Private/a.md", "deep/Private/b.md", "Drawing.excalidraw.md", "x/y.excalidraw.md",
                    "Root only.md", "sub/Root only.md", "Drafts/one.md", "Drafts/keep.md", "notes/a.md", config=config) == {
        "Private/a.md": True, "deep/Private/b.md": True, "Drawing.excalidraw.md": True, "x/y.excalidraw.md": True,
        "Root only.md": True, "sub/Root only.md": False, "Drafts/one.md": True, "Drafts/keep.md": False, "notes/a.md": False,
    }


def test_the_scans_one_regex_decides_as_pathspec_does() -> None:
    import itertools

    import pathspec

    from vaultmem.exclusions import Exclusions

    globs = ["*.excalidraw.md", "Private/", "drafts/**", "/Root.md", "a/**/b", "**/tmp", "[Jj]ournal*", "x?.md", "# comment", "\\#hash.md"]
    paths = ["/".join(parts) for size in (1, 2, 3) for parts in itertools.product(
        ["Private", "drafts", "a", "b", "tmp", "Journal 1.md", "journal.md", "x1.md", "xx1.md", "Root.md", "n.excalidraw.md", "#hash.md", "note.md"], repeat=size)]
    spec = pathspec.GitIgnoreSpec.from_lines(globs)
    exclusions = Exclusions(globs)
    assert [exclusions.excludes(path) for path in paths] == [bool(spec.match_file(path)) for path in paths]


def test_a_bang_pattern_keeps_what_obsidians_settings_exclude(vault_dir: Path) -> None:
    # A trial: Excluded files held "processed/" (a person's 3,400 AI conversations, hidden from
    # Obsidian's search); `exclude = ["!processed/"]` was accepted and kept nothing.
    obsidian_excludes(vault_dir, "raw/", "processed/", r"/\.draft\.md$/")
    write_file(vault_dir, ".obsidian/templates.json", json.dumps({"folder": "Templates"}))
    config = 'exclude = ["!processed/", "!Templates/Meeting.md", "!keep.draft.md"]\n'
    assert excluded(vault_dir, "processed/CLAUDE/a.md", "raw/b.md", "Templates/Daily.md", "Templates/Meeting.md",
                    "notes/x.draft.md", "notes/keep.draft.md", "notes/plain.md", config=config) == {
        "processed/CLAUDE/a.md": False, "raw/b.md": True, "Templates/Daily.md": True, "Templates/Meeting.md": False,
        "notes/x.draft.md": True, "notes/keep.draft.md": False, "notes/plain.md": False,
    }
    for relative in ("processed/CLAUDE/a.md", "raw/b.md", "notes/plain.md"):
        write_file(vault_dir, relative, "Wine fixme stub messages in Lutris.\n")
    write_file(vault_dir, ".vaultmem.toml", CONFIG + config)
    with Vault(vault_dir) as vault:
        report = vault.index()
        assert sorted(report.added) == ["notes/plain.md", "processed/CLAUDE/a.md"]
        assert {hit.path for hit in vault.search("Wine fixme stub", k=5, now=NOW)} == {"notes/plain.md", "processed/CLAUDE/a.md"}


def test_the_scan_skips_what_the_rules_exclude_and_counts_it(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", 'exclude = ["*.excalidraw.md", "Drafts/**", "!Drafts/keep.md"]\n')
    write_file(vault_dir, ".obsidian/templates.json", json.dumps({"folder": "Meta/Templates"}))
    for relative in ("a.md", "b.excalidraw.md", "Drafts/one.md", "Drafts/keep.md", "Meta/Templates/Daily.md", "Meta/other.md",
                     "Meta/Templates/sub/Weekly.md", "Meta/Templates/.hidden/x.md", "Meta/Templates/picture.png"):
        write_file(vault_dir, relative, "text\n")
    from vaultmem.config import load_config

    scan = VaultPaths(vault_dir, "_archive", load_config(vault_dir).exclude).scan_vault()
    assert [stat.path for stat in scan.files] == ["Drafts/keep.md", "Meta/other.md", "a.md"]
    # The folder is skipped whole, its notes only counted (a hidden folder in it holds none).
    assert [(folder.path, folder.rule.pattern, folder.files) for folder in scan.excluded_folders] == [("Meta/Templates", "Meta/Templates", 2)]
    assert scan.excluded_files == 2  # b.excalidraw.md and Drafts/one.md ("!" forbids skipping Drafts/ whole)
    assert scan.excluded_notes == 4


def test_the_templates_folders_of_both_plugins_are_excluded_and_only_those(vault_dir: Path) -> None:
    write_file(vault_dir, ".obsidian/templates.json", json.dumps({"folder": "/Templates/"}))
    write_file(vault_dir, ".obsidian/plugins/templater-obsidian/data.json", json.dumps({"templates_folder": "Meta/Templater"}))
    assert excluded(vault_dir, "Templates/Daily.md", "Templates/sub/x.md", "Templates-old/y.md", "Meta/Templater/t.md",
                    "Meta/notes.md") == {
        "Templates/Daily.md": True, "Templates/sub/x.md": True, "Templates-old/y.md": False,
        "Meta/Templater/t.md": True, "Meta/notes.md": False,
    }


def test_the_unique_note_creator_s_template_is_no_note_from_the_next_command_on(vault_dir: Path) -> None:
    # Trial (s30, a public Zettelkasten): the core Unique note creator (once Zettelkasten
    # prefixer) makes each zettel from "Templates/Zettelkasken Note Template"; that template
    # was indexed, searched and listed as one of the vault's notes.
    write_file(vault_dir, "Templates/Zettel.md", "## Reflections\n\n\nSource: ")
    write_file(vault_dir, "202103131641 - An idea.md", "An idea, with its reflections and its source.\n")
    assert "2 added" in run_cli(vault_dir, "index").stdout
    write_file(vault_dir, ".obsidian/zk-prefixer.json", json.dumps({"template": "Templates/Zettel"}))
    indexed = run_cli(vault_dir, "index").stdout
    assert "1 removed" in indexed
    assert "Templates/Zettel.md (the Unique note creator's template 'Templates/Zettel.md')" in indexed
    assert excluded(vault_dir, "Templates/Zettel.md", "202103131641 - An idea.md") == {
        "Templates/Zettel.md": True, "202103131641 - An idea.md": False}


def test_a_unique_note_creator_setting_that_is_not_json_is_reported(vault_dir: Path) -> None:
    write_file(vault_dir, "Templates/Zettel.md", "## Reflections\n")
    write_file(vault_dir, ".obsidian/zk-prefixer.json", "{not json")
    result = run_cli(vault_dir, "check")
    assert result.exit_code == 1
    assert ".obsidian/zk-prefixer.json" in result.stdout and "its template is indexed as a note meanwhile" in result.stdout


def test_a_templates_folder_that_is_the_vault_root_excludes_nothing(vault_dir: Path) -> None:
    write_file(vault_dir, ".obsidian/templates.json", json.dumps({"folder": "/"}))
    assert excluded(vault_dir, "note.md", "folder/note.md") == {"note.md": False, "folder/note.md": False}


@pytest.mark.parametrize(("setting", "named"), [('exclude = "Private/"', "list"), ('exclude = ["!"]', "'!'"), ("exclude = [3]", "list")])
def test_a_bad_exclude_setting_is_an_error_naming_the_file_and_the_key(vault_dir: Path, setting: str, named: str) -> None:
    write_file(vault_dir, ".vaultmem.toml", setting + "\n")
    result = run_cli(vault_dir, "index")
    assert result.exit_code == 2  # a usage error
    assert ".vaultmem.toml: exclude:" in result.stderr and named in result.stderr


def test_a_regex_or_a_settings_file_vaultmem_cannot_read_is_reported_and_nothing_else_changes(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    obsidian_excludes(vault_dir, "/(unclosed/", "Private/")
    write_file(vault_dir, ".obsidian/templates.json", "{not json")
    write_file(vault_dir, "note.md", memory("A memory about the harbor."))
    write_file(vault_dir, "Private/p.md", "private\n")
    report = run_json(vault_dir, "check")
    problems = {(problem["path"], problem["field"]) for problem in report["problems"]}
    assert problems == {(".obsidian/app.json", "userIgnoreFilters"), (".obsidian/templates.json", "file")}
    assert report["files"] == 1  # the readable entry "Private/" is still applied
    indexed = run_json(vault_dir, "index")
    assert {(problem["path"], problem["field"]) for problem in indexed["problems"]} == problems


# ---------------------------------------------------------------- what excluded means, through the CLI


def test_excluded_files_are_never_indexed_checked_searched_consolidated_or_expired(vault_with_private: Path) -> None:
    root = vault_with_private
    private_before = {path: value for path, value in snapshot_files(root).items() if path.startswith("Private/")}
    index = run_cli(root, "index")
    assert index.exit_code == 0
    excluded_line = index.stdout.splitlines()[1]
    private = sorted(path for path in private_before if path.endswith(".md"))
    # The one folder holds every excluded file: the count is said once, not again beside it.
    assert excluded_line.startswith(f"not notes (excluded): {len(private)} file(s): Private/ (.vaultmem.toml's exclude")
    assert "broken.md" not in index.stdout  # never a warning about an excluded file
    assert run_json(root, "index")["excluded"] == {  # "files": 0 before, with the whole folder excluded
        "folders": [{"path": "Private", "source": ".vaultmem.toml's exclude", "pattern": "Private/", "files": len(private)}],
        "files": len(private), "rules": []}  # no file excluded one by one
    hits = run_json(root, "search", "oat milk coffee diary", "--include-expired", "-k", "10")
    assert [hit["path"] for hit in hits] == ["memories/oat.md"]
    check = run_json(root, "check")
    assert check["ok"] and check["files"] == 1
    assert run_json(root, "consolidate", "--all", "--any-note", "--threshold", "0.5")["clusters"] == []
    assert run_json(root, "expire", "--as-of", NOW)["expired"] == []
    assert run_cli(root, "expire", "--apply").exit_code == 0
    assert {path: value for path, value in snapshot_files(root).items() if path.startswith("Private/")} == private_before


def test_a_note_named_by_an_excluded_path_is_refused_with_the_rule(vault_with_private: Path) -> None:
    result = run_cli(vault_with_private, "get", "Private/oat-copy.md")
    assert result.exit_code == 1
    assert "Private/oat-copy.md is excluded by .vaultmem.toml's exclude 'Private/'" in result.stderr


def test_a_template_named_by_its_file_name_alone_is_refused_with_its_folder(vault_dir: Path) -> None:
    # A trial: `get "TPL-Evergreen Note"` said "no note matches" of a template in Templater's
    # folder: named by its path it said why, by the name Obsidian's template picker shows, not.
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, ".obsidian/plugins/templater-obsidian/data.json", '{"templates_folder": "00. System FILE/Template"}')
    write_file(vault_dir, "00. System FILE/Template/Notes/TPL-Evergreen Note.md", "# <% tp.file.title %>\n")
    write_file(vault_dir, "Evergreen/Systems beat goals.md", "Systems beat goals.\n")
    result = run_cli(vault_dir, "get", "tpl-evergreen note")
    assert result.exit_code == 1
    assert ("00. System FILE/Template/Notes/TPL-Evergreen Note.md is excluded by Templater's templates folder "
            "'00. System FILE/Template'") in result.stderr, result.stderr
    assert "no note matches 'Nothing here'" in run_cli(vault_dir, "get", "Nothing here").stderr


def test_remember_into_an_excluded_folder_is_refused(vault_with_private: Path) -> None:
    result = run_cli(vault_with_private, "remember", "A note that would never be found.", "--folder", "Private")
    assert result.exit_code == 2
    assert "excluded" in result.stderr
    assert sorted(path.name for path in (vault_with_private / "Private").iterdir()) == ["broken.md", "oat-copy.md", "old-flight.md"]


def test_link_rewriting_never_touches_an_excluded_file(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["Private/", "*.canvas"]\n')
    write_file(vault_dir, "memories/oat-long.md", memory(OAT + " She repeated it at the standup on Monday."))
    write_file(vault_dir, "memories/oat-short.md", memory(OAT))
    write_file(vault_dir, "Maya.md", "Her coffee: [[oat-short]].\n")
    write_file(vault_dir, "Private/diary.md", "Talked about [[oat-short]] today.\n")
    canvas = json.dumps({"nodes": [{"id": "1", "type": "file", "file": "memories/oat-short.md"}], "edges": []})
    write_file(vault_dir, "board.canvas", canvas)
    report = run_json(vault_dir, "consolidate", "--apply", "--threshold", "0.8")
    assert [cluster["members"] for cluster in report["clusters"]] == [["memories/oat-long.md", "memories/oat-short.md"]]
    assert report["links_rewritten"] == ["Maya.md"]
    assert (vault_dir / "Maya.md").read_text(encoding="utf-8") == "Her coffee: [[oat-long]].\n"
    assert (vault_dir / "Private/diary.md").read_text(encoding="utf-8") == "Talked about [[oat-short]] today.\n"
    assert (vault_dir / "board.canvas").read_text(encoding="utf-8") == canvas


def test_excluding_an_indexed_folder_drops_its_notes_at_the_next_search(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "memories/oat.md", memory(OAT))
    write_file(vault_dir, "Private/diary.md", "A private diary entry about oat milk in coffee.\n")
    assert run_cli(vault_dir, "index").exit_code == 0
    assert "Private/diary.md" in {hit["path"] for hit in run_json(vault_dir, "search", "oat milk diary")}
    obsidian_excludes(vault_dir, "Private/")  # set in Obsidian: Settings → Files and links → Excluded files
    assert "Private/diary.md" not in {hit["path"] for hit in run_json(vault_dir, "search", "oat milk diary")}
    assert "Private/diary.md" not in {row["path"] for row in run_json(vault_dir, "stale", "--days", "0")}
    obsidian_excludes(vault_dir)  # and taken out again
    assert "Private/diary.md" in {hit["path"] for hit in run_json(vault_dir, "search", "oat milk diary")}


# ---------------------------------------------------------------- a running watcher


@pytest.fixture
def watched(vault_dir: Path) -> Iterator[Vault]:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "memories/oat.md", memory(OAT))
    write_file(vault_dir, "Private/diary.md", "A private diary entry about oat milk in coffee.\n")
    with Vault(vault_dir) as vault, vault.watch(quiet=True):
        yield vault


def indexed(vault: Vault) -> set[str]:
    return {row.path for row in vault.store.notes.all()}


def test_a_running_watcher_drops_a_folder_the_person_excludes_and_takes_it_back(watched: Vault) -> None:
    root = watched.root
    assert "Private/diary.md" in indexed(watched)
    obsidian_excludes(root, "Private/")
    wait_until(lambda: "Private/diary.md" not in indexed(watched), what="the excluded note to leave the index")
    write_file(root, "Private/new.md", "Written while excluded.\n")  # its events are ignored too
    obsidian_excludes(root)
    wait_until(lambda: {"Private/diary.md", "Private/new.md"} <= indexed(watched), what="the notes to come back")
    write_file(root, ".vaultmem.toml", CONFIG + 'exclude = ["Private/**"]\n')
    wait_until(lambda: not any(path.startswith("Private/") for path in indexed(watched)), what=".vaultmem.toml's exclude")
    assert indexed(watched) == {"memories/oat.md"}


def test_the_watchers_line_for_an_excluded_note_says_its_file_is_still_there_and_why(vault_dir: Path) -> None:
    # A person's trial (s34): after adding Clippings/ to Obsidian's Excluded files, `watch`
    # printed "removed Clippings/…md" as for a deleted file.
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "Private/diary.md", "A private diary entry about oat milk in coffee.\n")
    write_file(vault_dir, "Notes/gone.md", "A note about to be deleted.\n")
    changes: list[Change] = []
    with Vault(vault_dir) as vault, vault.watch(quiet=True, on_change=changes.append):
        obsidian_excludes(vault_dir, "Private/")
        (vault_dir / "Notes/gone.md").unlink()
        wait_until(lambda: {change.path for change in changes if change.kind == "removed"} == {"Private/diary.md", "Notes/gone.md"},
                   what="both notes to leave the index")
    said = {change.path: str(change) for change in changes}
    assert said["Private/diary.md"] == ("removed Private/diary.md from the index (the file is still there: excluded by "
                                        "Obsidian's Excluded files 'Private/')")
    assert said["Notes/gone.md"] == "removed Notes/gone.md"


def test_index_names_a_few_files_excluded_one_by_one_with_the_rule_that_excludes_them(vault_dir: Path) -> None:
    """Was: "1 other file(s) matching exclude rules", naming neither the file nor the rule."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["*.excalidraw.md", "/Inbox.md"]\n')
    write_file(vault_dir, "kept.md", memory(OAT))
    write_file(vault_dir, "Inbox.md", "inbox\n")
    for name in ("e", "d", "c", "b", "a"):
        write_file(vault_dir, f"drawings/{name}.excalidraw.md", "drawing\n")
    document = run_json(vault_dir, "index")
    assert document["excluded"]["files"] == 6  # type: ignore[index]
    assert document["excluded"]["rules"] == [  # type: ignore[index]
        {"source": ".vaultmem.toml's exclude", "pattern": "/Inbox.md", "files": 1, "named": ["Inbox.md"]},
        {"source": ".vaultmem.toml's exclude", "pattern": "*.excalidraw.md", "files": 5,
         "named": ["drawings/a.excalidraw.md", "drawings/b.excalidraw.md", "drawings/c.excalidraw.md"]},
    ]
    line = next(line for line in run_cli(vault_dir, "index").stdout.splitlines() if line.startswith("not notes (excluded)"))
    assert line == ("not notes (excluded): 6 file(s): Inbox.md (.vaultmem.toml's exclude '/Inbox.md'), drawings/a.excalidraw.md, "
                    "drawings/b.excalidraw.md, drawings/c.excalidraw.md and 2 more (.vaultmem.toml's exclude '*.excalidraw.md')")


def test_a_note_file_with_an_upper_case_extension_is_not_a_note_and_index_says_so(vault_dir: Path) -> None:
    """Was: `Note.MD` was skipped without a word and counted nowhere. It stays no note (only
    .md files are, as in Obsidian; adr/0020), and index names it with how to make it one."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["/Private.MD"]\n')
    write_file(vault_dir, "kept.md", memory(OAT))
    write_file(vault_dir, "Note.MD", memory("An upper-case note about the blue pot."))
    write_file(vault_dir, "sub/README.Md", "readme\n")
    write_file(vault_dir, "Private.MD", "excluded on purpose: not said\n")
    document = run_json(vault_dir, "index")
    assert document["skipped"]["files"] == 2  # type: ignore[index]
    assert [entry["path"] for entry in document["skipped"]["named"]] == ["Note.MD", "sub/README.Md"]  # type: ignore[index]
    assert "rename it to Note.md to make it one" in document["skipped"]["named"][0]["reason"]  # type: ignore[index]
    text = run_cli(vault_dir, "index").stdout
    assert "not notes (skipped): 2 file(s):\n  Note.MD: extension .MD, not .md" in text
    with Vault(vault_dir) as vault:
        assert [row.path for row in vault.store.notes.all()] == ["kept.md"]
        assert [hit.path for hit in vault.search("blue pot upper-case note", k=5, now=NOW)] == ["kept.md"]  # never read
        assert vault.check(now=NOW).ok  # not a note: no problem of the vault's notes


def test_a_folder_of_plain_text_notes_is_not_indexed_in_silence(vault_dir: Path) -> None:
    """Was: a Simplenote-style folder of `.txt` notes indexed as "0 added" and every search
    said "no matching notes" — an empty vault, to the person. They stay no notes (only .md
    files are, adr/0020); index names them with how to make them notes."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "Dentist.txt", "Dentist\n\nAppointment on 4 May with Dr Ruiz.\n")
    write_file(vault_dir, "trips/Lisbon.markdown", "# Lisbon\n")
    write_file(vault_dir, ".hidden.txt", "a hidden file: not said\n")
    document = run_json(vault_dir, "index")
    assert document["added"] == 0
    assert [entry["path"] for entry in document["skipped"]["named"]] == ["Dentist.txt", "trips/Lisbon.markdown"]  # type: ignore[index]
    text = run_cli(vault_dir, "index").stdout
    assert ("not notes (skipped): 2 file(s):\n  Dentist.txt: extension .txt, not .md: only .md files are notes; "
            "if it is a note, rename it to Dentist.md to make it one") in text
    assert "Lisbon.markdown: extension .markdown, not .md" in text


def test_a_text_file_among_notes_is_not_advised_to_become_one(vault_dir: Path) -> None:
    """An attachment's diagram.txt or a requirements.txt beside the notes is no note to
    rename: other formats are named only when they are at least as many as the notes
    (the sample vault's attachments/diagram.txt was named on every index and check)."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "a.md", "# A\n")
    write_file(vault_dir, "b.md", "# B\n")
    write_file(vault_dir, "attachments/diagram.txt", "boxes and arrows\n")
    document = run_json(vault_dir, "index")
    assert document["added"] == 2 and document["skipped"]["named"] == []  # type: ignore[index]
    assert "diagram.txt" not in run_cli(vault_dir, "check").stdout


def test_a_linked_upper_case_note_file_is_judged_as_a_link_and_a_rule_is_shown_as_written(vault_dir: Path,
                                                                                           tmp_path: Path) -> None:
    # A review: Sec.MD linked to a file outside the vault was reported nowhere; a rule with a
    # glob's escapes was shown as a repr, its backslashes doubled.
    outside = write_file(tmp_path, "outside/secret.MD", "outside the vault\n")
    (vault_dir / "Sec.MD").symlink_to(outside)
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["/a\\\\[1\\\\].md"]\n')
    write_file(vault_dir, "a[1].md", memory(OAT))
    (vault_dir / "real").mkdir()
    write_file(vault_dir, "real/a.md", memory(OAT))
    (vault_dir / "Archive.MD").symlink_to(vault_dir / "real")  # a linked folder: no upper-case note file
    (vault_dir / "Link.MD").symlink_to(vault_dir / "real" / "a.md")  # read at its real path: nothing lost
    document = run_json(vault_dir, "index")
    assert document["skipped"]["named"] == []  # type: ignore[index]  # renaming none of them makes a note
    assert [(problem["path"], problem["message"]) for problem in document["problems"]] == [  # type: ignore[union-attr]
        ("Sec.MD", "symlink points outside the vault; not indexed")]
    assert "(.vaultmem.toml's exclude '/a\\[1\\].md')" in run_cli(vault_dir, "index").stdout


def test_a_rule_holding_a_quote_or_a_line_break_is_shown_with_escapes() -> None:
    from vaultmem.exclusions import Rule

    assert str(Rule(".vaultmem.toml's exclude", "/a\\[1\\].md")) == ".vaultmem.toml's exclude '/a\\[1\\].md'"
    assert str(Rule(".vaultmem.toml's exclude", "it's/")) == '.vaultmem.toml\'s exclude "it\'s/"'
    assert str(Rule(".vaultmem.toml's exclude", "a\nb")) == '.vaultmem.toml\'s exclude "a\\nb"'


def test_the_excluded_line_counts_each_folder_only_when_there_are_several(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG + 'exclude = ["Private/", "Drafts/"]\n')
    write_file(vault_dir, "note.md", "A note.\n")
    for name in ("a", "b"):
        write_file(vault_dir, f"Private/{name}.md", "private\n")
    write_file(vault_dir, "Drafts/c.md", "draft\n")
    line = next(line for line in run_cli(vault_dir, "index").stdout.splitlines() if line.startswith("not notes"))
    assert line.startswith("not notes (excluded): 3 file(s): ") and "Private/ (2 file(s); " in line, line
    assert "Drafts/ (1 file(s); " in line, line


def test_check_names_an_exclude_pattern_whose_brackets_kept_it_from_excluding_the_folder_so_named(tmp_path: Path) -> None:
    # A trial on a campaign vault: exclude = ["[assets]/"] excluded nothing (gitignore reads `[assets]`
    # as one of the letters a, s, e, t) and neither index nor check said a word.
    root = tmp_path / "vault"
    write_file(root, "[assets]/templates/NPC.md", "# {{Name}}\n")
    write_file(root, "Draft1.md", "A draft.\n")
    write_file(root, "NPCs/Seamus.md", "An apprentice.\n")
    write_file(root, ".vaultmem.toml", 'embedder = "hashing"\nexclude = ["[assets]/", "Draft[0-9].md", "[Oo]ld/"]\n')
    checked = run_cli(root, "check", "--json")
    problems = json.loads(checked.stdout)["problems"]
    assert checked.exit_code == 1
    # Only the pattern a folder of the vault is spelled like: Draft[0-9].md excludes Draft1.md, and
    # [Oo]ld/ names no folder there is (a pattern written ahead of its files is no mistake).
    assert [(problem["path"], problem["field"]) for problem in problems] == [(".vaultmem.toml", "exclude")]
    assert "'[assets]/' excludes no file" in problems[0]["message"]
    assert "[assets]/templates/NPC.md" in problems[0]["message"]
    assert "exclude = ['\\[assets]/']" in problems[0]["fix"]
    write_file(root, ".vaultmem.toml", "embedder = \"hashing\"\nexclude = ['\\[assets]/', \"Draft[0-9].md\"]\n")
    fixed = run_cli(root, "check", "--json")
    assert fixed.exit_code == 0, fixed.stdout
    assert excluded(root, "[assets]/templates/NPC.md", "NPCs/Seamus.md", config="exclude = ['\\[assets]/']") == {
        "[assets]/templates/NPC.md": True, "NPCs/Seamus.md": False}


def test_a_quarto_book_is_not_indexed_as_its_readme_in_silence(vault_dir: Path) -> None:
    """Was (a trial on a docs folder): a Quarto book — chapters in `.qmd`, a README in `.md` —
    indexed as "1 added" and said nothing of its chapters; R Markdown's `.Rmd` and MDX's `.mdx`
    went the same way. They stay no notes; index names them, with what renaming them costs."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "README.md", "# Field guide\n\nBuild with `quarto render`.\n")
    write_file(vault_dir, "index.qmd", "---\ntitle: Preface\n---\n\nWhy this book.\n")
    write_file(vault_dir, "chapters/tides.qmd", "# Tides\n\n::: {.callout-note}\nSpring tides.\n:::\n")
    write_file(vault_dir, "analysis.Rmd", "# Analysis\n")
    write_file(vault_dir, "docs/intro.mdx", "import Tabs from '@theme/Tabs';\n\n# Intro\n")
    document = run_json(vault_dir, "index")
    assert document["added"] == 1
    named = {entry["path"]: entry["reason"] for entry in document["skipped"]["named"]}  # type: ignore[index]
    assert document["skipped"]["files"] == 4  # type: ignore[index]
    assert sorted(named) == ["analysis.Rmd", "chapters/tides.qmd", "docs/intro.mdx"]  # the first three named
    assert named["chapters/tides.qmd"] == (
        "extension .qmd (a Quarto source), not .md: only .md files are notes; to search it, rename it to tides.md "
        "(check first that your site's build still finds it: Quarto treats the two extensions differently)")
    assert "(an R Markdown source)" in named["analysis.Rmd"] and "(an MDX source)" in named["docs/intro.mdx"]
    assert "not notes (skipped): 4 file(s):" in run_cli(vault_dir, "index").stdout


def test_a_jupyter_books_notebooks_are_named_with_how_to_search_them(vault_dir: Path) -> None:
    """Was: a Jupyter Book of notebooks beside its intro page indexed as the one page, silent
    about the rest. A notebook is JSON: it is named with the export that makes a note, not a rename."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "intro.md", "# Ocean heat\n")
    write_file(vault_dir, "argo.ipynb", '{"cells": [], "nbformat": 4}\n')
    document = run_json(vault_dir, "index")
    assert document["added"] == 1
    [named] = document["skipped"]["named"]  # type: ignore[index]
    assert named == {"path": "argo.ipynb", "reason": (
        "extension .ipynb (a Jupyter notebook, JSON), not .md: only .md files are notes; to search it, keep a Markdown "
        "copy beside it (`jupytext --to md argo.ipynb` writes argo.md)")}


@pytest.mark.parametrize("settings", [".obsidian/app.json", ".obsidian/templates.json", ".obsidian/zk-prefixer.json"])
def test_an_obsidian_settings_file_nested_too_deeply_is_a_problem_not_a_traceback(vault_dir: Path, settings: str) -> None:
    write_file(vault_dir, "tea.md", memory("green tea"))
    write_file(vault_dir, settings, "[" * 100_000)  # was: RecursionError out of json.loads in every command
    result = run_cli(vault_dir, "index", "--json")
    assert result.exit_code == 0
    said = [problem for problem in json.loads(result.stdout)["problems"] if problem["path"] == settings]
    assert said
    assert said[0]["message"].startswith("nested too deeply to read")
    assert run_json(vault_dir, "search", "green tea")[0]["path"] == "tea.md"


def test_a_templates_folder_written_decomposed_on_disk_is_the_folder_the_settings_name(vault_dir: Path) -> None:
    """Was (s38, a Turkish vault): Templater's settings name `07 - Şablonlar` composed (NFC, as
    Obsidian writes paths); a Mac or a sync tool wrote the folder decomposed (`S` + U+0327). The
    template in it was a note, and check told the person to exclude the very folder they had named.
    An Excluded files prefix and a daily template are matched the same way."""
    composed, decomposed = "07 - \u015eablonlar", "07 - S\u0327ablonlar"
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, ".obsidian/plugins/templater-obsidian/data.json", json.dumps({"templates_folder": composed}))
    obsidian_excludes(vault_dir, "\u00d6zel/")
    write_file(vault_dir, f"{decomposed}/Not \u015eablonu.md", "---\ntarih: {{date}}\n---\n## \u00d6zet\n")
    write_file(vault_dir, "O\u0308zel/gizli.md", "Gizli bir not.\n")
    write_file(vault_dir, "Python/Demetler.md", "Demetler de\u011fi\u015ftirilemez.\n")
    listed = run_json(vault_dir, "list")
    assert isinstance(listed, dict)
    assert sorted(note["path"] for note in listed["notes"]) == ["Python/Demetler.md"]
    result = run_cli(vault_dir, "check")
    assert result.exit_code == 0, result.output
