"""A Dendron workspace as a vault (vaultmem/note_styles.py, exclusions.py, revision.py;
adr/0030-dendron-workspaces.md).

Shaped as a real workspace is (github.com/ngocuong0105/dendron-wiki): ``dendron.yml`` at the
workspace root lists its vaults (``workspace.vaults: [{fsPath: vault}]``), the notes live flat
in ``vault/`` named by their hierarchy (``engineering.GIT.md``), each opening with Dendron's
``id``, ``title``, ``desc``, ``updated`` and ``created`` (epoch milliseconds). Real files, the
real CLI and API.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import yaml
from helpers import run_cli, run_json, write_vault

from vaultmem import Vault

# dendron.yml as Dendron 0.95 writes it (config version 5), cut to the keys that place notes.
DENDRON_YML = "version: 5\nworkspace:\n    vaults:\n        -\n            fsPath: vault\n    journal:\n        dailyDomain: daily\n"
GIT_NOTE = ("---\nid: 78ld05rlq10336r34dz8sxc\ntitle: Git\ndesc: ''\nupdated: 1669241920793\ncreated: 1668288491690\n---\n\n"
            "# Commits and branches\n\nA commit records a snapshot of the tracked files.\n")
TEMPLATE = "---\nid: 2x0ttmpl\ntitle: Daily\ndesc: ''\nupdated: 1669241920793\ncreated: 1668288491690\n---\n\n## Todo for {{ title }}\n"


def workspace(root: Path) -> Path:
    return write_vault(root, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        "dendron.yml": DENDRON_YML,
        "vault/engineering.GIT.md": GIT_NOTE,
        "vault/templates.daily.md": TEMPLATE,
    })


def frontmatter(path: Path) -> dict[str, object]:
    text = path.read_text(encoding="utf-8")
    loaded = yaml.safe_load(text.split("---\n")[1])
    assert isinstance(loaded, dict)
    return loaded


def test_remember_writes_into_the_vault_folder_dendron_yml_names_with_dendrons_fields(vault_dir: Path) -> None:
    """Was: ``memories/<slug>.md`` at the workspace root, in no vault (Dendron never saw it), with
    ``created`` as an ISO time and no ``desc``/``updated``."""
    root = workspace(vault_dir)
    remembered = run_json(root, "remember", "The deploy key lives in the Ops vault of 1Password", "--layer", "L3")
    assert remembered["path"] == "vault/memories.the-deploy-key-lives-in-the-ops-vault.md"
    meta = frontmatter(root / remembered["path"])
    assert list(meta)[:5] == ["id", "title", "desc", "updated", "created"]
    assert (meta["id"], meta["title"], meta["desc"]) == (remembered["id"], "The deploy key lives in the Ops vault of 1Password", "")
    assert isinstance(meta["created"], int) and meta["updated"] == meta["created"]
    assert 10**12 <= meta["created"] < 10**13  # epoch milliseconds, as Dendron writes them
    page = run_json(root, "get", remembered["id"])
    assert (page["layer"], page["expires_at"], page["problems"]) == ("L3", remembered["expires_at"], [])
    assert page["created"] == datetime.fromtimestamp(meta["created"] / 1000, UTC).isoformat()


def test_remember_in_a_vault_inside_a_workspace_writes_at_the_vaults_root(tmp_path: Path) -> None:
    """The vault opened is one of the workspace's (``dendron.yml`` in the folder around it)."""
    write_vault(tmp_path, {"dendron.yml": DENDRON_YML})
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": 'embedder = "hashing"\n', "engineering.GIT.md": GIT_NOTE})
    remembered = run_json(root, "remember", "Rotate the staging TLS certificate in March")
    assert remembered["path"] == "memories.rotate-the-staging-tls-certificate-in-march.md"


def test_a_dendron_yml_that_lists_no_vault_inside_is_refused_by_name(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n',
                                   "dendron.yml": "version: 5\nworkspace:\n    vaults:\n        - fsPath: ../elsewhere\n"})
    refused = run_cli(root, "remember", "anything at all")
    assert refused.exit_code == 2, refused.output
    assert "dendron.yml lists no vault folder inside" in refused.output and "remember_dir" in refused.output
    assert not (root / "memories").exists()


def test_revise_bumps_updated_in_epoch_milliseconds_and_keeps_created(vault_dir: Path) -> None:
    """Was: ``updated: 1669241920793`` stayed as it was: Dendron showed and sorted the note as
    last changed in 2022, after vaultmem changed it."""
    root = workspace(vault_dir)
    moment = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    Vault(root).revise("Git", add_tags=["git"], now=moment)
    meta = frontmatter(root / "vault/engineering.GIT.md")
    assert meta["updated"] == int(moment.timestamp() * 1000)
    assert (meta["created"], meta["tags"]) == (1668288491690, ["git"])
    text = (root / "vault/engineering.GIT.md").read_text(encoding="utf-8")
    assert text.endswith(GIT_NOTE.split("---\n", 2)[2])  # the body byte for byte


def test_an_updated_written_as_an_iso_time_is_left_alone(vault_dir: Path) -> None:
    """Only Dendron's style is bumped: an ISO ``updated`` is the person's, in their own format."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n',
                                   "a.md": "---\nupdated: 2024-01-05\n---\nSome text\n"})
    Vault(root).revise("a", add_tags=["x"], now=datetime(2026, 12, 1, tzinfo=UTC))
    assert (root / "a.md").read_text(encoding="utf-8").startswith("---\nupdated: 2024-01-05\n")


def test_dendrons_templates_are_no_memories(vault_dir: Path) -> None:
    """Was: ``templates.daily.md`` was indexed and found as a memory ("Todo for {{ title }}")."""
    root = workspace(vault_dir)
    indexed = run_cli(root, "index")
    assert "vault/templates.daily.md (Dendron's templates 'templates.*')" in indexed.output
    assert "vault/templates.daily.md" not in [hit["path"] for hit in run_json(root, "search", "todo for title")]
    assert run_cli(root, "get", "templates.daily").exit_code != 0


def test_a_templates_note_outside_a_dendron_vault_is_a_note(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "templates.daily.md": TEMPLATE})
    run_cli(root, "index")
    assert [hit["path"] for hit in run_json(root, "search", "todo for title")] == ["templates.daily.md"]


def test_two_notes_sharing_an_id_are_not_advised_to_drop_the_id_dendron_needs(vault_dir: Path) -> None:
    """A trial on a Dendron vault (a note copied to a new name kept its ``id``): ``check``'s fix
    said "give each note its own id (or remove the id line to use the path)", and a Dendron
    note without its ``id`` is one Dendron's doctor flags and rewrites."""
    root = workspace(vault_dir)
    (root / "vault/engineering.git-copy.md").write_text(GIT_NOTE, encoding="utf-8")
    problems = [problem for problem in Vault(root).check().problems if problem.field == "id"]
    assert [problem.path for problem in problems] == ["vault/engineering.GIT.md", "vault/engineering.git-copy.md"]
    for problem in problems:
        assert problem.fix == "give each note its own id (Dendron needs one in every note: do not remove it)"


def test_outside_dendron_two_notes_sharing_an_id_may_still_drop_the_id_line(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "a.md": "---\nid: x1\n---\nA\n", "b.md": "---\nid: x1\n---\nB\n"})
    fixes = {problem.fix for problem in Vault(root).check().problems if problem.field == "id"}
    assert fixes == {"give each note its own id (or remove the id line to use the path)"}


def test_stats_counts_the_notes_sharing_an_id_as_notes_with_problems(vault_dir: Path) -> None:
    """The same trial: ``stats`` said "with problems: 0" while ``check`` listed two."""
    root = workspace(vault_dir)
    (root / "vault/engineering.git-copy.md").write_text(GIT_NOTE, encoding="utf-8")
    with Vault(root) as vault:
        vault.index()
        assert vault.stats().with_problems == len([problem for problem in vault.check().problems if problem.field == "id"]) == 2


def test_consolidate_bumps_the_kept_notes_updated_as_revise_does(vault_dir: Path) -> None:
    """A trial on a Dendron vault: ``consolidate --apply`` appended the merged note's line to the
    kept memory and left its ``updated`` at the day it was made, so Dendron sorted and published it
    as unchanged by the merge (``revise`` bumps it)."""
    memory = "---\nid: {id}\ntitle: {title}\ndesc: ''\nupdated: 1796295055000\ncreated: 1796295055000\nlayer: L3\nexpires_at: 2027-03-03T10:50:55+00:00\n---\n{text}\n"
    root = write_vault(vault_dir, {
        ".vaultmem.toml": 'embedder = "hashing"\n', "dendron.yml": DENDRON_YML,
        "vault/memories.group-meeting.md": memory.format(id="aaa1", title="Group meeting",
                                                         text="The group meeting moved to Thursday at 3 pm in room B305"),
        "vault/memories.group-meeting-room.md": memory.format(id="aaa2", title="Group meeting room",
                                                              text="The group meeting moved to Thursday at 3 pm in room B305, bring slides"),
    })
    moment = datetime(2026, 12, 3, 11, 0, tzinfo=UTC)
    report = Vault(root).consolidate(apply=True, now=moment)
    [entry] = report.merged
    meta = frontmatter(root / entry.canonical)
    assert meta["updated"] == int(moment.timestamp() * 1000)
    assert (meta["created"], meta["merged_from"]) == (1796295055000, ["aaa1"])
