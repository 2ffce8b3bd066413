"""Paths stay inside the vault; the scan sees exactly the notes vaultmem should index."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import NOW, SAMPLE_VAULT, run_cli, write_file
from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from mcp_client import run, serve, text_of
from vaultmem.errors import PathOutsideVault, UsageError
from vaultmem.paths import VaultPaths, is_temp_name


@pytest.fixture
def paths(vault_dir: Path) -> VaultPaths:
    return VaultPaths(vault_dir, "_archive")


# ---------------------------------------------------------------- refusing paths outside the vault


@pytest.mark.parametrize(
    "relative",
    ["../outside.md", "notes/../../outside.md", "..", "/etc/passwd", "..\\outside.md", "", "   ", "a\x00b.md"],
)
def test_a_path_that_leaves_the_vault_is_refused(paths: VaultPaths, relative: str) -> None:
    with pytest.raises(PathOutsideVault) as caught:
        paths.resolve_inside(relative)
    assert isinstance(caught.value, ValueError)
    assert repr(relative) in str(caught.value) or relative.strip() == ""


def test_an_absolute_path_inside_the_vault_is_still_refused(paths: VaultPaths, vault_dir: Path) -> None:
    # Callers hand vault-relative paths; an absolute one is a mistake even if it points inside.
    with pytest.raises(PathOutsideVault):
        paths.resolve_inside(str(vault_dir / "note.md"))


def test_an_absolute_path_inside_the_vault_is_refused_naming_its_vault_path_not_as_outside(
        paths: VaultPaths, vault_dir: Path, tmp_path: Path) -> None:
    """A trial over MCP: get('/…/vault/Daily/2026-11-24.md') said the path "resolves outside the
    vault '/…/vault'" — a path inside that very folder. It names the path to use instead; one
    that leads out (itself or through a link) is still said to lead out."""
    (vault_dir / "Daily").mkdir()
    (tmp_path / "secrets").mkdir()
    (vault_dir / "linked").symlink_to(tmp_path / "secrets", target_is_directory=True)
    with pytest.raises(PathOutsideVault) as caught:
        paths.resolve_inside(str(vault_dir / "Daily" / "2026-11-24.md"))
    assert str(caught.value) == (f"path {str(vault_dir / 'Daily' / '2026-11-24.md')!r} is absolute: give its path "
                                 "from the vault root instead, 'Daily/2026-11-24.md'")
    for leading_out in (str(tmp_path / "secrets" / "keys.md"), str(vault_dir / "linked" / "keys.md"), str(vault_dir)):
        with pytest.raises(PathOutsideVault, match="resolves outside the vault"):
            paths.resolve_inside(leading_out)


@pytest.mark.parametrize(("relative", "names"), [
    ("21.01/..", "names the vault's top folder, which is no note"),
    ("Work/../Ideas.md", "names 'Ideas.md' once the '..' is taken away"),
    ("Work\\..\\Ideas.md", "names 'Ideas.md' once the '..' is taken away"),
])
def test_a_path_whose_dots_stay_inside_the_vault_is_refused_for_its_dots_not_as_outside(
        paths: VaultPaths, relative: str, names: str) -> None:
    """Was (stop 37's leftover): `get "21.01/.."` said the path "resolves outside the vault" — it
    is the vault's own top folder, and `Work/../Ideas.md` is `Ideas.md`: wrong words for a bad
    reference. Still refused (a NOTE never holds '..'), saying what it names instead."""
    with pytest.raises(PathOutsideVault) as caught:
        paths.resolve_inside(relative)
    assert str(caught.value) == (f"path {relative!r} holds '..': a NOTE is named without it, and this {names}. "
                                 "Give the note's path from the vault root (or its name or id)")


def test_a_path_into_the_vault_not_written_from_its_root_is_a_usage_error_on_every_surface(
        vault_dir: Path, tmp_path: Path) -> None:
    """Was (stop 38's leftover): `get "21.01/.."` got a clear message but the kind
    `PathOutsideVault` — over MCP `PathOutsideVault: path '21.01/..' holds '..'`, in `--json`
    `"type": "PathOutsideVault"` — which sends an agent looking for a vault it is in. It is a
    usage error (fix the argument): `UsageError` over MCP and in `--json`, exit 2, and still
    caught as a path refused as given (a PathOutsideVault) by the library. A path that leaves
    the vault keeps its kind."""
    write_file(vault_dir, "21.01/x.md", "---\nlayer: L3\n---\nhello\n")
    write_file(vault_dir, "Ideas.md", "top\n")
    absolute = str(vault_dir / "Ideas.md")
    for given in ("21.01/..", "21.01/../Ideas.md", absolute):
        with pytest.raises(UsageError) as caught:
            Vault(vault_dir).get(given)
        assert isinstance(caught.value, PathOutsideVault) and caught.value.kind == "UsageError", given
    with pytest.raises(UsageError, match="folder 'memories/../people' holds '..'"):
        Vault(vault_dir).remember("a memory", folder="memories/../people", now=NOW)
    shell = run_cli(vault_dir, "get", "--json", "21.01/..")
    assert shell.exit_code == 2 and json.loads(shell.stdout)["error"]["type"] == "UsageError", shell.output
    out = run_cli(vault_dir, "get", "--json", "../../etc/passwd")
    assert out.exit_code == 2 and json.loads(out.stdout)["error"]["type"] == "PathOutsideVault", out.output

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "mcp.log") as served:
            inside = await served.session.call_tool("get", {"note": "21.01/../Ideas.md"})
            assert inside.is_error and "get: UsageError: path '21.01/../Ideas.md' holds '..'" in text_of(inside)
            outside = await served.session.call_tool("get", {"note": "../../etc/passwd"})
            assert outside.is_error and "get: PathOutsideVault: " in text_of(outside)

    run(scenario)


def test_a_symlinked_folder_pointing_out_of_the_vault_is_refused(paths: VaultPaths, vault_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secrets"
    outside.mkdir()
    (outside / "keys.md").write_text("secret", encoding="utf-8")
    (vault_dir / "linked").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathOutsideVault, match="linked/keys.md"):
        paths.resolve_inside("linked/keys.md")
    with pytest.raises(PathOutsideVault):
        paths.resolve_inside("linked/new-note.md")  # not even a file that does not exist yet


def test_a_symlinked_file_pointing_out_of_the_vault_is_refused(paths: VaultPaths, vault_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.md"
    target.write_text("x", encoding="utf-8")
    (vault_dir / "note.md").symlink_to(target)
    with pytest.raises(PathOutsideVault):
        paths.resolve_inside("note.md")


def test_a_symlink_that_stays_inside_the_vault_is_allowed(paths: VaultPaths, vault_dir: Path) -> None:
    (vault_dir / "real").mkdir()
    (vault_dir / "real" / "note.md").write_text("x", encoding="utf-8")
    (vault_dir / "alias").symlink_to(vault_dir / "real", target_is_directory=True)
    assert paths.resolve_inside("alias/note.md") == vault_dir / "alias" / "note.md"


def test_ordinary_paths_resolve_under_the_root(paths: VaultPaths, vault_dir: Path) -> None:
    assert paths.resolve_inside("people/João Silva.md") == vault_dir / "people" / "João Silva.md"
    assert paths.resolve_inside("new/folder/not-yet.md") == vault_dir / "new" / "folder" / "not-yet.md"
    assert paths.resolve_inside("a/./b.md") == vault_dir / "a" / "b.md"


def test_a_vault_reached_through_a_symlink_still_contains_its_notes(tmp_path: Path) -> None:
    real = tmp_path / "real-vault"
    real.mkdir()
    (real / "note.md").write_text("x", encoding="utf-8")
    link = tmp_path / "vault-link"
    link.symlink_to(real, target_is_directory=True)
    assert VaultPaths(link, "_archive").resolve_inside("note.md") == link / "note.md"


# ---------------------------------------------------------------- ignore rules and the scan


@pytest.mark.parametrize(
    ("relative", "is_note"),
    [
        ("note.md", True),
        ("folder/sub/note.md", True),
        ("Área de trabalho/café ☕.md", True),
        ("_archive_old/note.md", True),
        ("projects/_archive/note.md", True),  # only the top-level archive folder is skipped
        (".obsidian/snippets/notes.md", False),
        (".git/notes.md", False),
        (".trash/deleted.md", False),
        (".vaultmem/x.md", False),
        (".hidden/note.md", False),
        ("folder/.hidden/note.md", False),
        ("_archive/old.md", False),
        ("_archive/2026/old.md", False),
        ("note.txt", False),
        ("canvas.canvas", True),  # an Obsidian canvas: its cards' text (adr/0033)
        ("boards/.hidden.canvas", False),
        ("canvas.canvas.tmp", False),
        ("note.md~", False),
        (".note.md.swp", False),
        (".#note.md", False),
        ("note.md.tmp", False),
        ("4913", False),
    ],
)
def test_ignore_rules(paths: VaultPaths, relative: str, is_note: bool) -> None:
    assert paths.is_note_path(relative) is is_note


def test_a_custom_archive_folder_is_ignored_instead_of_the_default(vault_dir: Path) -> None:
    paths = VaultPaths(vault_dir, "Archive/vaultmem")
    assert not paths.is_note_path("Archive/vaultmem/old.md")
    assert paths.is_note_path("Archive/kept-by-hand.md")
    assert paths.is_note_path("_archive/old.md")


def test_temp_names() -> None:
    assert is_temp_name(".note.md.abc123.tmp")  # what a write killed half-way leaves
    assert not is_temp_name("note.md")


def test_an_office_owner_file_and_a_libreoffice_lock_beside_a_note_are_no_notes(vault_dir: Path) -> None:
    # A trial on a synced vault: Office's `~$Climbing gym.md` (a half-written copy) was indexed,
    # and ranked fifth for "my locker number at the climbing gym" with "The climbing gym is Boulder".
    write_file(vault_dir, "Notes/Climbing gym.md", "My locker at the climbing gym is number 27.\n")
    write_file(vault_dir, "Notes/~$Climbing gym.md", "My locker at the climb")
    write_file(vault_dir, "Notes/.~lock.Climbing gym.md#", ",Jane,laptop,03.12.2026 12:34,file:///home/jane;")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert [hit.path for hit in vault.search("locker at the climbing gym", k=5, now=NOW)] == ["Notes/Climbing gym.md"]
    assert is_temp_name("~$Climbing gym.md") and not is_temp_name("$Climbing gym.md")


def test_an_icloud_placeholder_is_named_by_index_and_check_as_a_note_not_downloaded(vault_dir: Path) -> None:
    # A trial: iCloud's `.Wedding planning.md.icloud` (the note not yet on this Mac) was passed
    # over in silence: `get "Wedding planning"` said no note matches, and check said nothing.
    write_file(vault_dir, "Inbox.md", "Buy oat milk\n")
    write_file(vault_dir, "Notes/.Wedding planning.md.icloud", "bplist00")
    write_file(vault_dir, "Notes/Kyoto.md", "Temples\n")
    write_file(vault_dir, "Notes/.Kyoto.md.icloud", "bplist00")  # downloaded since: the note is here
    write_file(vault_dir, ".obsidian/.app.json.icloud", "bplist00")  # not a note's
    reason = ("Wedding planning.md is in iCloud Drive but not downloaded to this device (an iCloud placeholder: its "
              "text is not here, so it is not searched); download it (Finder or Files: Download Now, or `brctl "
              "download` on its path), then index again")
    index = json.loads(run_cli(vault_dir, "index", "--json").stdout)
    check = json.loads(run_cli(vault_dir, "check", "--json").stdout)
    assert index["skipped"] == check["skipped"] == {
        "files": 1, "named": [{"path": "Notes/.Wedding planning.md.icloud", "reason": reason}]}
    assert f"  Notes/.Wedding planning.md.icloud: {reason}" in run_cli(vault_dir, "check").stdout.splitlines()


def test_scan_finds_exactly_the_notes_with_their_stat(paths: VaultPaths, vault_dir: Path, write_note) -> None:
    wanted = ["Inbox.md", "people/João Silva.md", "Área de trabalho/café ☕ notes.md", "deep/a/b/c.md"]
    for relative in wanted:
        write_note(relative, "# note\n")
    for relative in [".obsidian/snippets/notes.md", ".git/x.md", ".trash/y.md", ".hidden/z.md", "_archive/old.md",
                     "attachments/diagram.txt", "note.md~", ".note.md.swp", "4913"]:
        write_note(relative, "# ignored\n")
    found, issues = paths.scan()
    assert [stat.path for stat in found] == sorted(wanted)
    assert issues == []
    joao = next(stat for stat in found if stat.path == "people/João Silva.md")
    real = (vault_dir / "people" / "João Silva.md").stat()
    assert (joao.mtime_ns, joao.size) == (real.st_mtime_ns, real.st_size)


def test_scan_reports_a_symlinked_note_pointing_outside(paths: VaultPaths, vault_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("x", encoding="utf-8")
    (vault_dir / "leak.md").symlink_to(outside)
    found, issues = paths.scan()
    assert found == []
    assert [(issue.path, "outside" in issue.reason) for issue in issues] == [("leak.md", True)]


def test_scan_reports_symlinked_notes_in_a_loop_as_a_loop_not_as_a_link_to_a_file_that_does_not_exist(
        paths: VaultPaths, vault_dir: Path) -> None:
    # s35 review: a.md → b.md → a.md was reported "symlink to b.md, which does not exist", of a b.md
    # that is right there: the person went looking for a missing file.
    (vault_dir / "a.md").symlink_to("b.md")
    (vault_dir / "b.md").symlink_to("a.md")
    (vault_dir / "self.md").symlink_to("self.md")
    found, issues = paths.scan()
    assert found == []
    assert sorted((issue.path, issue.reason) for issue in issues) == [
        ("a.md", "symlink in a loop (it leads back to itself); not indexed"),
        ("b.md", "symlink in a loop (it leads back to itself); not indexed"),
        ("self.md", "symlink in a loop (it leads back to itself); not indexed")]
    assert all("does not exist" not in issue.fix for issue in issues)


def test_scan_indexes_a_symlinked_note_once_at_its_real_path_without_calling_it_a_problem(paths: VaultPaths, vault_dir: Path, write_note) -> None:
    write_note("real/hub.md", "# Hub\n")
    (vault_dir / "hub-link.md").symlink_to(vault_dir / "real" / "hub.md")
    found, issues = paths.scan()
    assert [stat.path for stat in found] == ["real/hub.md"]
    assert issues == []  # nothing is lost: the note is indexed at its real path


def test_scan_does_not_index_a_symlink_to_a_note_in_an_ignored_folder(paths: VaultPaths, vault_dir: Path, write_note) -> None:
    write_note("_archive/old.md", "# Old\n")
    (vault_dir / "old-link.md").symlink_to(vault_dir / "_archive" / "old.md")
    found, issues = paths.scan()
    assert found == []
    assert [(issue.path, "_archive/old.md" in issue.reason and "does not index" in issue.reason) for issue in issues] == [
        ("old-link.md", True)
    ]


def test_scan_does_not_descend_into_a_symlinked_folder(paths: VaultPaths, vault_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "other"
    outside.mkdir()
    (outside / "foreign.md").write_text("x", encoding="utf-8")
    (vault_dir / "linked").symlink_to(outside, target_is_directory=True)
    found, _ = paths.scan()
    assert found == []


def test_scan_of_the_sample_vault_has_its_39_notes_its_canvas_and_never_obsidian() -> None:
    found, issues = VaultPaths(SAMPLE_VAULT, "_archive").scan()
    relative = [stat.path for stat in found]
    assert len(relative) == 40
    assert issues == []
    assert "people/João Silva.md" in relative and "Open questions.md" in relative
    assert [path for path in relative if not path.endswith(".md")] == ["attachments/harbor-overview.canvas"]
    assert not any(path.startswith((".obsidian/", ".vaultmem/")) for path in relative)


def test_relative_gives_vault_relative_posix(paths: VaultPaths, vault_dir: Path) -> None:
    assert paths.relative(vault_dir / "people" / "João Silva.md") == "people/João Silva.md"
    assert paths.relative(os.fspath(vault_dir / "a.md")) == "a.md"


def test_a_file_name_that_is_not_utf8_is_reported_not_a_crash(paths: VaultPaths, vault_dir: Path) -> None:
    with open(os.path.join(os.fsencode(vault_dir), b"caf\xe9.md"), "wb") as handle:  # a Latin-1 name from an old zip
        handle.write(b"# Cafe\n")
    (vault_dir / "ok.md").write_text("ok\n", encoding="utf-8")
    found, issues = paths.scan()
    assert [stat.path for stat in found] == ["ok.md"]
    assert [issue.path for issue in issues] == ["caf\ufffd.md"]
    assert "UTF-8" in issues[0].reason


def test_a_name_that_is_not_utf8_is_told_to_be_renamed_not_to_have_its_permissions_fixed(vault_dir: Path) -> None:
    with open(os.path.join(os.fsencode(vault_dir), b"caf\xe9.md"), "wb") as handle:  # a Latin-1 name from an old zip
        handle.write(b"# Cafe\n")
    os.mkdir(os.path.join(os.fsencode(vault_dir), b"r\xe9sum\xe9s"))
    (vault_dir / "ok.md").write_text("ok\n", encoding="utf-8")
    result = run_cli(vault_dir, "check", "--json")
    problems = {problem["path"]: problem for problem in json.loads(result.stdout)["problems"]}
    assert set(problems) == {"caf\ufffd.md", "r\ufffdsum\ufffds"}
    for problem in problems.values():
        assert problem["fix"].startswith("rename it to a UTF-8 name")  # was: "fix the file or its permissions"


def test_a_vault_whose_own_folder_is_hidden_still_has_its_notes_scanned(tmp_path: Path) -> None:
    root = tmp_path / ".agent-memory"
    (root / "people").mkdir(parents=True)
    (root / "people" / "rui.md").write_text("# Rui\n", encoding="utf-8")
    found, issues = VaultPaths(root, "_archive").scan()
    assert [stat.path for stat in found] == ["people/rui.md"] and issues == []


# ---------------------------------------------------------------- ids are opaque tokens, paths stay inside


@pytest.mark.parametrize("odd_id", ["../../outside/secret", "/etc/passwd", "a/../../b", "..", "C:\\\\notes\\\\x"])
def test_a_note_whose_id_looks_like_a_path_out_is_reachable_by_that_id(vault_dir: Path, write_note, odd_id: str, tmp_path: Path) -> None:
    from helpers import run_cli
    from vaultmem import Vault

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("notes/odd.md", f"---\nid: {json_quote(odd_id)}\nlayer: L4\n---\nThe note with the odd id.\n")
    (tmp_path / "outside").mkdir(exist_ok=True)
    (tmp_path / "outside" / "secret.md").write_text("not the vault's\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        assert vault.get(odd_id).path == "notes/odd.md"  # was: refused as a path outside the vault
        assert vault.get("notes/odd").id == odd_id  # and by its path, as before
    result = run_cli(vault_dir, "get", odd_id, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["path"] == "notes/odd.md"


def test_a_path_out_that_is_no_notes_id_is_still_refused(vault_dir: Path, write_note) -> None:
    from vaultmem import Vault

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("notes/odd.md", "---\nid: ../../outside/secret\nlayer: L4\n---\nodd\n")
    with Vault(vault_dir) as vault:
        vault.index()
        for reference in ("../../outside/other", "/etc/passwd", "notes/../../x"):
            with pytest.raises(PathOutsideVault):
                vault.get(reference)


def json_quote(text: str) -> str:
    return json.dumps(text)


def test_a_gardens_node_modules_readmes_are_never_notes_and_explain_says_why(vault_dir: Path, write_note) -> None:
    """Was (a trial on a Hugo/Quartz garden): after `npm install`, node_modules/*/README.md
    were indexed and searched as the person's notes."""
    from helpers import run_cli

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("content/tocbot.md", "I use tocbot for the table of contents.\n")
    write_note("node_modules/tocbot/README.md", "# Tocbot\n\nBuilds a table of contents.\n")
    write_note("quartz/node_modules/x/docs/guide.md", "A guide.\n")
    found, _ = VaultPaths(vault_dir, "_archive").scan()
    assert [stat.path for stat in found] == ["content/tocbot.md"]
    explained = run_cli(vault_dir, "explain", "node_modules/tocbot/README.md", "tocbot", "--json")
    assert explained.exit_code == 0, explained.output
    assert "node_modules/" in json.loads(explained.stdout)["reasons"][0]
