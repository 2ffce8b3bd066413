"""remember --supersedes: a newer fact retires the older one at once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import python_capped, run_cli, run_json, snapshot_files, utf16_bytes, write_file
from vaultmem import UsageError, Vault, WriteConflict, parse_timestamp
from vaultmem.errors import FrontmatterError, PathOutsideVault, VaultmemError
from vaultmem.notes import content_hash, read_note
from vaultmem.supersede import plan_retirement, retire

NOW = "2026-11-30T12:00:00+00:00"
LATER = "2026-11-30T12:00:01+00:00"
OLD = (
    "---\n"
    "id: standup-930\n"
    "title: Harbor standup at 9:30\n"
    "layer: L3\n"
    "owner: Maya  # ask her\n"
    "expires_at: 2027-02-01T00:00:00+00:00\n"
    "---\n"
    "The Harbor standup is at 9:30 in the Tejo meeting room.\n"
)


@pytest.fixture
def vault(vault_dir: Path, write_note, wordllama: object) -> Iterator[Vault]:
    write_note("work/standup-930.md", OLD)
    write_note("work/coffee.md", "---\nlayer: L3\nexpires_at: 2027-02-01\n---\nMaya takes oat milk.\n")
    with Vault(vault_dir, embedder=wordllama) as opened:  # type: ignore[arg-type]
        opened.index()
        yield opened


def paths_found(vault: Vault, query: str, **options: object) -> list[str]:
    return [hit.path for hit in vault.search(query, k=5, now=LATER, **options)]  # type: ignore[arg-type]


def test_supersede_hides_the_old_fact_from_search_at_once(vault: Vault) -> None:
    assert paths_found(vault, "Tejo meeting room")[0] == "work/standup-930.md"
    new = vault.remember("The Harbor standup moved to 9:45, same room.", layer="L3", supersedes=["standup-930"], now=NOW)
    assert "work/standup-930.md" not in paths_found(vault, "Tejo meeting room")
    assert paths_found(vault, "Tejo meeting room")[0] == new.path
    expired = [hit for hit in vault.search("Tejo meeting room", k=5, now=LATER, include_expired=True) if hit.expired]
    assert [hit.path for hit in expired] == ["work/standup-930.md"]


def test_one_note_to_supersede_may_be_given_as_a_string(vault: Vault) -> None:
    # Was refused ("supersedes takes a list of strings"): one id or path has one reading, never split.
    new = vault.remember("The Harbor standup moved to 9:45, same room.", layer="L3", supersedes="standup-930", now=NOW)
    assert [(old.id, old.path) for old in new.supersedes] == [("standup-930", "work/standup-930.md")]
    assert "work/standup-930.md" not in paths_found(vault, "Tejo meeting room")


def test_supersedes_none_is_none_and_another_type_is_refused_naming_the_argument(vault: Vault) -> None:
    # Was: supersedes=None (a wrapper passing on an argument it was not given) raised "'NoneType'
    # object is not iterable", and supersedes=5 "'int' object is not iterable": neither said which argument.
    new = vault.remember("Maya's locker is 27.", layer="L3", supersedes=None, now=NOW)
    assert new.supersedes == [] and (vault.root / new.path).is_file()
    for wrong in (5, [5], {"standup-930": True}.keys() | {7}):
        with pytest.raises(UsageError, match="supersedes takes a note's id or path, or a list of them"):
            vault.remember("The Harbor standup moved to 9:45.", layer="L3", supersedes=wrong, now=NOW)  # type: ignore[arg-type]
    assert "superseded_by" not in read_note(vault.root, "work/standup-930.md").meta


def test_the_old_note_records_its_successor_and_expires_now_keeping_everything_else(vault: Vault) -> None:
    before = (vault.root / "work/standup-930.md").read_bytes()
    new = vault.remember("The Harbor standup moved to 9:45.", layer="L3", supersedes=["work/standup-930.md"], now=NOW)
    after = (vault.root / "work/standup-930.md").read_bytes()
    assert after == before.replace(
        b"expires_at: 2027-02-01T00:00:00+00:00\n",
        f"expires_at: 2026-11-30T12:00:00+00:00\nsuperseded_by: {new.id}\n".encode(),
    )
    assert read_note(vault.root, new.path).meta["supersedes"] == ["standup-930"]
    assert [(old.id, old.path) for old in new.supersedes] == [("standup-930", "work/standup-930.md")]


def test_get_on_the_old_note_says_it_expired_and_what_superseded_it(vault: Vault) -> None:
    new = vault.remember("The Harbor standup moved to 9:45.", layer="L3", supersedes=["standup-930"], now=NOW)
    view = vault.get("standup-930", now=LATER)
    assert view.expired is True
    assert (view.superseded_by.id, view.superseded_by.path) == (new.id, new.path)  # type: ignore[union-attr]
    text = run_cli(vault.root, "get", "standup-930").stdout
    assert "EXPIRED at 2026-11-30T12:00:00+00:00" in text
    assert f"superseded by {new.id} ({new.path})" in text
    document = json.loads(run_cli(vault.root, "get", "standup-930", "--json").stdout)
    assert document["superseded_by"] == {"id": new.id, "path": new.path}


def test_an_earlier_expiry_is_kept(vault: Vault, write_note) -> None:
    write_note("old.md", "---\nlayer: L1\nexpires_at: 2026-11-29\n---\nalready expired\n")
    vault.index()
    vault.remember("newer", layer="L1", supersedes=["old"], now=NOW)
    assert read_note(vault.root, "old.md").meta["expires_at"] == parse_timestamp("2026-11-29").date()


def test_the_comment_on_the_old_notes_expiry_stays_or_the_supersede_is_refused_naming_the_file(vault: Vault, write_note) -> None:
    # `expires_at: 2027-02-01  # the trip` lost its comment to the retirement's `expires_at: now`.
    write_note("trip.md", "---\nlayer: L3\nexpires_at: 2027-02-01  # the trip\n---\nFlight at 7.\n")
    write_note("hotel.md", "---\nlayer: L3\nexpires_at:\n  # until checkout\n  2027-02-01\n---\nRoom 12.\n")
    vault.index()
    vault.remember("Flight moved to 9.", layer="L3", supersedes=["trip"], now=NOW)
    assert "expires_at: 2026-11-30T12:00:00+00:00  # the trip\n" in (vault.root / "trip.md").read_text(encoding="utf-8")
    before = snapshot_files(vault.root)
    with pytest.raises(FrontmatterError, match=r"^hotel\.md: expires_at: the comment '# until checkout' \(line 2 of expires_at\)"):
        vault.remember("Room 14 now.", layer="L3", supersedes=["hotel"], now=NOW)
    assert snapshot_files(vault.root) == before  # no new note either


def test_supersedes_is_repeatable_and_carries_what_the_old_notes_replaced(vault: Vault, write_note) -> None:
    write_note("older.md", "---\nlayer: L3\nexpires_at: 2027-01-01\nsupersedes: [ancient]\nmerged_from: [gone-dupe]\n---\nolder\n")
    vault.index()
    new = vault.remember("both replaced", layer="L3", supersedes=["standup-930", "older", "older.md"], now=NOW)
    assert read_note(vault.root, new.path).meta["supersedes"] == ["standup-930", "older", "ancient", "gone-dupe"]
    assert [old.path for old in new.supersedes] == ["work/standup-930.md", "older.md"]


def test_cli_supersedes_json(vault: Vault) -> None:
    result = run_cli(vault.root, "remember", "standup at 9:45", "--layer", "L3", "--supersedes", "standup-930", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["supersedes"] == [{"id": "standup-930", "path": "work/standup-930.md"}]
    assert document["version"] == content_hash((vault.root / document["path"]).read_bytes())[:16]


@pytest.mark.parametrize(
    ("note", "refusal"),
    [
        ("---\nlayer: L4\n---\nalways tea\n", "layer L4"),
        ("---\nlayer: L3\npermanent: true\n---\nalways tea\n", "permanent: true"),
        ("---\nlayer: L3\nexpires_at: 2026-12-01\nsuperseded_by: someone-else\n---\nold\n", "already superseded by someone-else"),
        # A person's page: retiring a daily note for one of its facts hid (and expire archived) the whole day.
        ("## Notes\n- call with mom\n- Japan flights LIS to HND, 780 euros\n", "it has no layer, so it is a note of yours"),
        ("---\nlayer: L9\n---\nold\n", "its layer 'L9' is none vaultmem knows"),
    ],
)
def test_a_note_that_cannot_be_retired_is_refused_and_nothing_is_written(vault: Vault, write_note, note: str, refusal: str) -> None:
    write_note("pref.md", note)
    vault.index()
    before = snapshot_files(vault.root)
    result = run_cli(vault.root, "remember", "now coffee", "--supersedes", "pref")
    assert result.exit_code == 2, result.output
    assert refusal in result.output
    assert snapshot_files(vault.root) == before


def test_superseding_a_utf16_note_is_refused_naming_its_encoding_and_nothing_is_written(vault: Vault) -> None:
    (vault.root / "pref.md").write_bytes(utf16_bytes("---\nlayer: L3\nexpires_at: 2027-02-01\n---\nalways tea\n", big_endian=True))
    vault.index()
    before = snapshot_files(vault.root)
    result = run_cli(vault.root, "remember", "now coffee", "--supersedes", "pref")
    assert result.exit_code == 1, result.output
    assert "pref.md is saved as UTF-16 BE, not UTF-8; nothing was written" in result.output
    assert snapshot_files(vault.root) == before


def test_an_unknown_note_writes_nothing(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    result = run_cli(vault.root, "remember", "new fact", "--supersedes", "nowhere", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["type"] == "NoteNotFound"
    assert snapshot_files(vault.root) == before


def test_after_expire_apply_the_old_id_resolves_to_its_successor(vault: Vault) -> None:
    new = vault.remember("The Harbor standup moved to 9:45.", layer="L3", supersedes=["standup-930"], now=NOW)
    report = vault.expire(apply=True, now=LATER)
    assert [entry.archived_to for entry in report.expired] == ["_archive/work/standup-930.md"]
    view = vault.get("standup-930", now=LATER)
    assert view.path == new.path
    assert view.resolved_from.as_dict() == {  # type: ignore[union-attr]
        "reference": "standup-930", "via": "supersedes", "archived": "_archive/work/standup-930.md",
        "notice": "'standup-930' is the id of the note this one superseded: that note was archived and is "
                  "_archive/work/standup-930.md now; get reads it by that path (read-only)"}


def test_a_conflict_while_retiring_undoes_the_retirements_and_the_new_note(vault: Vault, write_note) -> None:
    write_note("second.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nsecond\n")
    first_raw = (vault.root / "work/standup-930.md").read_bytes()
    second_raw = (vault.root / "second.md").read_bytes()
    write_note("new.md", "---\nid: NEW\n---\nnew\n")
    moment = parse_timestamp(NOW)
    retirements = [plan_retirement("work/standup-930.md", first_raw, "NEW", moment, graph=False),
                   plan_retirement("second.md", second_raw, "NEW", moment, graph=False)]
    write_note("second.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nsecond, edited by hand\n")  # the race
    with pytest.raises(WriteConflict):
        retire(vault.paths, retirements, lambda: (vault.root / "new.md").unlink(), "new.md")
    assert (vault.root / "work/standup-930.md").read_bytes() == first_raw  # retired, then put back
    assert b"edited by hand" in (vault.root / "second.md").read_bytes()
    assert not (vault.root / "new.md").exists()


def test_superseding_does_not_take_a_usage_error_for_a_permanent_new_note(vault: Vault) -> None:
    # The new note may itself be permanent: only the old ones must be able to expire.
    new = vault.remember("Always 9:45 from now on.", layer="L4", supersedes=["standup-930"], now=NOW)
    assert new.expires_at is None
    with pytest.raises(UsageError, match="already superseded"):
        vault.remember("again", layer="L3", supersedes=["work/standup-930.md"], now=NOW)


@pytest.mark.parametrize(
    ("note", "why", "revise"),
    [
        ("---\nlayer: L4\n---\nAlways tea in the morning.\n", "layer L4 (procedural)", ["--layer", "L3"]),
        ("---\nlayer: L3\npermanent: true\n---\nAlways tea in the morning.\n", "permanent: true", ["--no-permanent"]),
        ("---\nlayer: L4\npermanent: true\n---\nAlways tea in the morning.\n", "layer L4 (procedural) and permanent: true",
         ["--layer", "L3", "--no-permanent"]),
    ],
    ids=["L4", "permanent: true", "both"],
)
def test_a_note_that_never_expires_is_refused_with_the_revise_that_lets_it_retire(
        vault: Vault, write_note, note: str, why: str, revise: list[str]) -> None:
    """Retiring is expires_at = now, which an L4 or permanent note ignores: written, the old fact
    would go on answering. The refusal names the one revise after which superseding works; it
    said "--layer L3" for every case, which leaves a permanent: true note permanent."""
    write_note("pref.md", note)
    vault.index()
    before = snapshot_files(vault.root)
    refused = run_cli(vault.root, "remember", "Coffee in the morning now.", "--supersedes", "pref")
    assert refused.exit_code == 2, refused.output
    assert f"cannot supersede pref.md: it is {why}, so it never expires" in refused.output
    assert f"first revise it with {' and '.join(_flags(revise))} (its layer's expiry then applies), then supersede it" in refused.output
    assert "to keep one note of the fact, revise its --text in place (it still never expires)" in refused.output
    assert snapshot_files(vault.root) == before
    revised = run_cli(vault.root, "revise", "pref", *revise)
    assert revised.exit_code == 0, revised.output
    done = run_json(vault.root, "remember", "Coffee in the morning now.", "--supersedes", "pref")
    shown = run_json(vault.root, "get", "pref.md")
    assert (shown["expired"], shown["superseded_by"]["id"]) == (True, done["id"])  # type: ignore[index]
    assert "pref.md" not in [hit["path"] for hit in run_json(vault.root, "search", "tea in the morning")]  # type: ignore[union-attr,index]
    assert [problem for problem in run_json(vault.root, "check")["problems"] if problem["path"] == "pref.md"] == []  # type: ignore[index]


def _flags(arguments: list[str]) -> list[str]:
    """``["--layer", "L3", "--no-permanent"]`` as the refusal names them: ``--layer L3``, ``--no-permanent``."""
    spelled: list[str] = []
    for argument in arguments:
        if argument.startswith("--"):
            spelled.append(argument)
        else:
            spelled[-1] += f" {argument}"
    return spelled


def test_the_api_names_the_revise_by_its_arguments(vault: Vault, write_note) -> None:
    write_note("pref.md", "---\nlayer: L4\npermanent: true\n---\nAlways tea.\n")
    vault.index()
    with pytest.raises(UsageError, match="first revise it with layer L3 and permanent false "):
        vault.remember("Coffee now.", supersedes=["pref"], now=NOW)


def test_a_memory_that_supersedes_without_a_layer_keeps_the_layer_of_what_it_replaces(vault: Vault) -> None:
    """Was (a trial of an agent over weeks): the agent superseded its L3 note of an address with
    the new address and gave no layer; the new note was L2 and expired a week later, taking the
    address with it. The highest layer of the notes replaced is kept; one given still wins."""
    coffee = vault.remember("Maya takes oat milk, no sugar.", supersedes=["work/coffee.md"], now=NOW)
    assert (coffee.layer, coffee.expires_at) == ("L3", "2027-02-28T12:00:00+00:00")  # L3's 90 days
    short = vault.remember("Maya takes soy milk now.", layer="L1", supersedes=[coffee.path], now=NOW)
    assert short.layer == "L1"
    first = vault.remember("Parking spot P-17.", now=NOW)
    assert first.layer == "L2"  # nothing superseded: the default
    kept = vault.remember("Parking P-4, and Maya's soy milk.", supersedes=[first.path, short.path], now=NOW)
    assert kept.layer == "L2"  # the higher of L2 and L1
    shown = run_json(vault.root, "get", kept.path)
    assert shown["layer"] == "L2"


def test_a_memory_that_supersedes_without_tags_keeps_the_tags_of_what_it_replaces(vault: Vault, write_note) -> None:
    """Was (a trial on a people vault): the correction of a #contact note was written `tags: []`
    and no search by #contact found it. The tags of the notes replaced are kept, each once, the
    note's own #tags in its text with them; tags given still win."""
    write_note("people/dana-phone.md", "---\nlayer: L3\ntags: [contact, Dana]\n---\nDana's phone is 555-0100. #phone\n")
    write_note("people/dana-mail.md", "---\nlayer: L3\ntags: [dana, email]\n---\nDana's email is d@old.example.\n")
    vault.index()
    new = vault.remember("Dana's phone is 555-0199 and her email d@new.example.",
                         supersedes=["people/dana-phone.md", "people/dana-mail.md"], now=NOW)
    assert new.tags == ["contact", "Dana", "phone", "email"]
    assert "tags:\n  - contact\n  - Dana\n  - phone\n  - email\n" in (vault.root / new.path).read_text(encoding="utf-8")
    given = vault.remember("Dana's phone is 555-0142.", tags=["urgent"], supersedes=[new.path], now=NOW)
    assert given.tags == ["urgent"]


def test_superseding_an_l4_note_with_a_deadline_says_why_it_cannot_be_superseded(vault: Vault) -> None:
    """An L4 note is never superseded (it would go on answering), and the refusal says so. With
    `ttl` and no layer the layer inherited from it was L4, and the call was refused instead as
    "layer L4 contradicts ttl" — naming a layer the caller never gave, and the wrong fix."""
    rule = vault.remember("Dana lives at 1 Oak Street.", layer="L4", title="Dana address", now=NOW)
    with pytest.raises(UsageError, match=r"cannot supersede memories/dana-address\.md: it is layer L4") as refused:
        vault.remember("Dana stays at 2 Elm Street this month.", ttl="30d", supersedes=[rule.path], now=NOW)
    assert "contradicts" not in str(refused.value)
    assert sorted(path.name for path in (vault.root / "memories").glob("*.md")) == ["dana-address.md"]


SUPERSEDE_UNDER_A_FILE_SIZE_LIMIT = (
    "import resource, sys\n"
    "from vaultmem import Vault\n"
    "vault = Vault(sys.argv[1])\n"
    "vault.index()  # the index's files exist before the limit\n"
    "limit = int(sys.argv[2])\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))\n"
    "try:\n"
    "    vault.remember('The Harbor standup moved to 10:00.', supersedes=['small.md', 'big.md'])\n"
    "except Exception as error:\n"
    "    print('refused:', type(error).__name__, error)\n"
)


def test_a_retirement_the_disk_refuses_undoes_the_others_and_the_new_note(vault_dir: Path, write_note) -> None:
    # Was: the new note stayed, small.md stayed retired (expires_at now, superseded_by) and
    # big.md did not — an OSError (a full disk, a read-only folder) was not undone, only a
    # WriteConflict, and the error told the agent not to remember it again.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    small = write_note("small.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    # 6 MB of blank lines: a retirement the limit refuses, in an index that stays small.
    big = write_note("big.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n" + " \n" * 3_000_000)
    before = {path.name: path.read_bytes() for path in (small, big)}
    result = python_capped(SUPERSEDE_UNDER_A_FILE_SIZE_LIMIT, str(vault_dir), str(len(before["big.md"]) // 2))
    assert "refused: OSError" in result.stdout, (result.stdout, result.stderr)
    assert "written to" not in result.stdout  # not "the note was written …: do not remember it again"
    assert {path.name: path.read_bytes() for path in (small, big)} == before
    assert sorted(path.name for path in vault_dir.rglob("*.md")) == ["big.md", "small.md"]


@pytest.mark.parametrize("memories_there", [False, True])
def test_an_undone_remember_removes_the_folder_it_made_and_keeps_one_that_was_there(
        vault_dir: Path, write_note, memories_there: bool) -> None:
    # Was: the note went, and the memories/ folder it was the first note of stayed, empty.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    old = write_note("old.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    if memories_there:
        (vault_dir / "memories").mkdir()
    old.chmod(0o444)  # its retirement is refused (ReadOnlyNote): the remember is undone
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault, pytest.raises(PermissionError, match="old.md is read-only"):
        vault.remember("The standup moved to 10:00.", supersedes=["old.md"], now=NOW)
    assert (vault_dir / "memories").is_dir() is memories_there
    assert sorted(path.name for path in vault_dir.rglob("*.md")) == ["old.md"]
    assert snapshot_files(vault_dir) == before


def test_revise_of_a_superseded_note_at_the_shell_names_its_successor_not_a_ttl(vault_dir: Path) -> None:
    # The three-day agent trial's retired phone number, revised by its id: "give --ttl … to make it
    # current" would have made the old number answer again beside the new one.
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    old = run_json(vault_dir, "remember", "Sam's phone number is +351 912 000 111.", "--layer", "L3")
    new = run_json(vault_dir, "remember", "Sam's phone number is +351 913 222 333.", "--supersedes", old["id"])  # type: ignore[index]
    said = run_cli(vault_dir, "revise", old["id"], "--append", "Work phone too.")  # type: ignore[index]
    assert said.exit_code == 0, said.output
    assert f"superseded by {new['id']} ({new['path']}, \"{new['title']}\"), which holds the current fact" in said.output  # type: ignore[index]
    assert f"revise {new['path']} instead" in said.output and "--permanent" not in said.output  # type: ignore[index]


def test_a_new_fact_under_the_retired_ones_title_is_numbered_and_says_why_and_where_links_go(vault_dir: Path) -> None:
    # The new fact was written as dentist-phone-2.md beside the retired dentist-phone.md without a
    # word: the person's [[dentist-phone]] links kept opening the old number (adr/0019: it keeps -2).
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    old = run_json(vault_dir, "remember", "Dentist: +351 210 000 111", "--title", "Dentist phone", "--layer", "L3")
    said = run_cli(vault_dir, "remember", "Dentist: +351 210 999 222", "--title", "Dentist phone", "--supersedes", "Dentist phone")
    assert said.exit_code == 0, said.output
    assert (f"named dentist-phone-2.md: {old['path']}, the fact it replaces, keeps its file name") in said.output, said.output  # type: ignore[index]
    assert "a [[dentist-phone]] link opens the old fact — point it at [[dentist-phone-2]]" in said.output
    assert sorted(path.name for path in (vault_dir / "memories").glob("*.md")) == ["dentist-phone-2.md", "dentist-phone.md"]
    third = run_json(vault_dir, "remember", "Dentist: +351 210 555 333", "--title", "Dentist phone", "--supersedes",
                     "memories/dentist-phone-2.md")
    assert (third["path"], third["named_beside"]) == ("memories/dentist-phone-3.md", "memories/dentist-phone-2.md")  # type: ignore[index]
    other = run_json(vault_dir, "remember", "Dentist: +351 210 555 444", "--title", "Dentist number", "--supersedes",
                     third["path"])  # type: ignore[index]
    assert other["named_beside"] is None  # type: ignore[index]


def _superseded_twice(vault_dir: Path) -> tuple[dict, dict, dict]:  # type: ignore[type-arg]
    """Sam's phone, changed twice: the first number superseded by the second, that one by the third."""
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    first = run_json(vault_dir, "remember", "Sam's phone number is +351 912 000 111.", "--layer", "L3")
    second = run_json(vault_dir, "remember", "Sam's phone number is +351 913 222 333.", "--supersedes", first["id"])  # type: ignore[index]
    third = run_json(vault_dir, "remember", "Sam's phone number is +351 914 444 555.", "--supersedes", second["id"])  # type: ignore[index]
    return first, second, third  # type: ignore[return-value]


def test_revise_of_a_note_superseded_twice_at_the_shell_names_the_note_that_holds_the_fact_now(vault_dir: Path) -> None:
    # Was: "superseded by <second> …, which holds the current fact: revise <second> instead" —
    # the second number, retired itself by the third.
    first, second, third = _superseded_twice(vault_dir)
    said = run_cli(vault_dir, "revise", first["id"], "--append", "Work phone too.")
    assert said.exit_code == 0, said.output
    assert (f"superseded by {second['id']} ({second['path']}, \"{second['title']}\"), then by {third['id']} "
            f"({third['path']}, \"{third['title']}\"), which holds the current fact") in said.output, said.output
    assert f"revise {third['path']} instead" in said.output, said.output
    revised = run_json(vault_dir, "revise", first["id"], "--append", "Home phone.")
    assert revised["superseded_by"] == second["id"]  # type: ignore[index]
    assert revised["then_superseded_by"] == [{"id": third["id"], "path": third["path"], "title": third["title"]}]  # type: ignore[index]
    assert revised["succession_problem"] is None  # type: ignore[index]


def test_revise_of_a_note_on_a_superseded_by_loop_made_by_hand_says_so_and_returns(vault_dir: Path) -> None:
    # A superseded_by written by hand that leads back (first → second → third → first) must be
    # said, with where to fix it, not followed for ever nor named as "the current fact".
    first, second, third = _superseded_twice(vault_dir)
    newest = vault_dir / third["path"]
    newest.write_text(newest.read_text(encoding="utf-8").replace("---\n", f"---\nsuperseded_by: {first['id']}\n", 1),
                      encoding="utf-8")
    said = run_cli(vault_dir, "revise", first["id"], "--append", "Work phone too.")
    assert said.exit_code == 0, said.output
    assert "which holds the current fact" not in said.output and "instead" not in said.output, said.output
    assert (f"the superseded_by of {third['path']} names {first['id']} (this note): a loop, made by hand") in said.output, said.output
    assert f"fix superseded_by in {third['path']}" in said.output
    revised = run_json(vault_dir, "revise", second["id"], "--append", "Home phone.")
    assert f"names {second['id']} (this note)" in revised["succession_problem"]  # type: ignore[index]
    assert [step["path"] for step in revised["then_superseded_by"]] == [first["path"]]  # type: ignore[index]


def test_revise_of_a_superseded_note_names_its_successors_path_and_title_not_only_its_ulid(vault_dir: Path) -> None:
    # A trial (s34): "superseded by 01M8…, … revise 01M8… instead" left a person with a ULID to
    # grep the vault for; the JSON answer carries the successor's path and title too.
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    old = run_json(vault_dir, "remember", "Sam's phone number is +351 912 000 111.", "--layer", "L3")
    new = run_json(vault_dir, "remember", "Sam's phone number is +351 913 222 333.", "--supersedes", old["id"])  # type: ignore[index]
    revised = run_json(vault_dir, "revise", old["id"], "--append", "Work phone too.")  # type: ignore[index]
    assert (revised["superseded_by"], revised["superseded_by_path"], revised["superseded_by_title"]) == (  # type: ignore[index]
        new["id"], new["path"], new["title"])  # type: ignore[index]
    assert run_cli(vault_dir, "forget", new["path"]).exit_code == 0  # type: ignore[index]
    said = run_cli(vault_dir, "revise", old["id"], "--append", "Home phone.")  # type: ignore[index]
    assert f"superseded by {new['id']} (no longer in the vault)" in said.output, said.output  # type: ignore[index]


def test_a_folder_swapped_for_a_symlink_mid_supersede_removes_the_new_note_and_names_both(
        vault_dir: Path, write_note, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: only a WriteConflict or an OSError undid the remember; a folder swapped for a symlink
    # out of the vault between the new note's write and the retirement (PathOutsideVault, a
    # ValueError) left the new note beside the old fact, which went on answering.
    import shutil

    from vaultmem import remembering

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("work/standup.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    outside = tmp_path / "outside-work"
    real_write = remembering.write_new_note

    def write_then_swap(*args: object, **kwargs: object) -> object:
        written = real_write(*args, **kwargs)  # type: ignore[arg-type]
        shutil.copytree(vault_dir / "work", outside)  # the same bytes: only containment can tell
        shutil.rmtree(vault_dir / "work")
        (vault_dir / "work").symlink_to(outside)
        return written

    monkeypatch.setattr(remembering, "write_new_note", write_then_swap)
    with Vault(vault_dir) as vault:
        vault.index()
        with pytest.raises(PathOutsideVault) as refused:
            vault.remember("The standup moved to 10:00.", title="Standup at ten", supersedes=["work/standup.md"], now=NOW)
    assert not (vault_dir / "memories").exists()  # the new note, and the folder made for it, gone
    assert list(vault_dir.rglob("*.md")) == []  # nothing beside the symlinked work/
    assert b"superseded_by" not in (outside / "standup.md").read_bytes()
    said = " ".join([str(refused.value), *getattr(refused.value, "__notes__", [])])
    assert "work/standup.md" in said and "memories/standup-at-ten.md" in said and "was removed" in said
    # At the shell too: the note is said after the error, in the text and in --json.
    shutil.rmtree(outside)
    (vault_dir / "work").unlink()
    write_note("work/standup.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    shell = run_cli(vault_dir, "remember", "The standup moved to 10:00.", "--title", "Standup at ten",
                    "--supersedes", "work/standup.md", "--json")
    assert shell.exit_code == 2  # PathOutsideVault, as before: its kind is kept
    message = json.loads(shell.stdout)["error"]["message"]
    assert "resolves outside the vault" in message
    assert "the new note memories/standup-at-ten.md was removed" in message
    assert not (vault_dir / "memories").exists()


def test_an_undo_whose_folder_was_swapped_for_a_symlink_still_removes_the_new_note(
        vault_dir: Path, write_note, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: the undo of a retirement made (a/one.md) caught WriteConflict and OSError only; its folder
    # swapped for a symlink out meanwhile (PathOutsideVault) stopped the undo before the new note
    # was removed, which then stood beside two old facts.
    import shutil

    from vaultmem import supersede

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("a/one.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    two = write_note("b/two.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is on Mondays.\n")
    outside = tmp_path / "outside-a"
    real_replace = supersede.replace_if_unchanged

    def replace_then_swap(path: Path, *args: object, **kwargs: object) -> object:
        changed = real_replace(path, *args, **kwargs)  # type: ignore[arg-type]
        if path.name == "one.md" and not outside.exists():  # one.md retired: now its folder goes
            shutil.copytree(vault_dir / "a", outside)
            shutil.rmtree(vault_dir / "a")
            (vault_dir / "a").symlink_to(outside)
            two.chmod(0o444)  # and the second retirement is refused (ReadOnlyNote)
        return changed

    monkeypatch.setattr(supersede, "replace_if_unchanged", replace_then_swap)
    with Vault(vault_dir) as vault:
        vault.index()
        with pytest.raises(VaultmemError, match=r"a/one\.md stay retired .* although the new note was removed"):
            vault.remember("The standup moved to 10:00 on Tuesdays.", title="Standup at ten",
                           supersedes=["a/one.md", "b/two.md"], now=NOW)
    assert not (vault_dir / "memories").exists()


def test_a_ctrl_c_as_a_retirement_lands_puts_that_note_back_too(
        vault_dir: Path, write_note, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: a Ctrl-C that arrived after a retirement's rename but before retire() counted it done
    # (its write returning) undid only the ones counted: the old note stayed retired
    # (superseded_by a note that was then removed) and the note said "nothing was written".
    from vaultmem import supersede

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    old_raw = write_note("work/standup.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n").read_bytes()
    real_replace = supersede.replace_if_unchanged
    interrupted: list[Path] = []

    def replace_then_ctrl_c(path: Path, *args: object, **kwargs: object) -> object:
        changed = real_replace(path, *args, **kwargs)  # type: ignore[arg-type]
        if not interrupted:  # the retirement is on disk: the person's Ctrl-C arrives now
            interrupted.append(path)
            raise KeyboardInterrupt
        return changed

    monkeypatch.setattr(supersede, "replace_if_unchanged", replace_then_ctrl_c)
    with Vault(vault_dir) as vault:
        vault.index()
        with pytest.raises(KeyboardInterrupt) as stopped:  # not swallowed
            vault.remember("The standup moved to 10:00.", title="Standup at ten", supersedes=["work/standup.md"], now=NOW)
    assert interrupted and interrupted[0].name == "standup.md"
    assert (vault_dir / "work/standup.md").read_bytes() == old_raw  # put back, as the note says
    assert not (vault_dir / "memories").exists()
    assert "nothing was written" in " ".join(getattr(stopped.value, "__notes__", []))


def test_a_ctrl_c_whose_undo_stops_half_way_stays_a_ctrl_c_and_names_what_stayed(
        vault_dir: Path, write_note, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: when the undo after a Ctrl-C could not put an old note back (the person edited it
    # meanwhile), its VaultmemError replaced the KeyboardInterrupt: the Ctrl-C became an
    # ordinary error (an MCP server or a caller's loop went on as if a tool had merely failed).
    from vaultmem import supersede

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    one = write_note("a/one.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    write_note("b/two.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is on Mondays.\n")
    real_replace = supersede.replace_if_unchanged

    def edit_one_then_ctrl_c(path: Path, *args: object, **kwargs: object) -> object:
        if path.name == "two.md":
            one.write_bytes(one.read_bytes() + b"A line the person added.\n")  # after its retirement
            raise KeyboardInterrupt
        return real_replace(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(supersede, "replace_if_unchanged", edit_one_then_ctrl_c)
    with Vault(vault_dir) as vault:
        vault.index()
        with pytest.raises(KeyboardInterrupt) as stopped:
            vault.remember("The standup moved to 10:00.", title="Standup at ten", supersedes=["a/one.md", "b/two.md"],
                           now=NOW)
    said = " ".join(getattr(stopped.value, "__notes__", []))
    assert "a/one.md stay retired" in said
    assert not (vault_dir / "memories").exists()


def test_revise_of_a_note_whose_own_superseded_by_names_two_notes_by_hand_does_not_call_them_gone(vault_dir: Path) -> None:
    # A fork written by hand in the revised note itself (superseded_by: [second, third]): revise
    # said "superseded by <second> (no longer in the vault)", with second right there in the vault.
    first, second, third = _superseded_twice(vault_dir)
    oldest = vault_dir / first["path"]
    oldest.write_text(oldest.read_text(encoding="utf-8").replace(
        f"superseded_by: {second['id']}\n", f"superseded_by: [{second['id']}, {third['id']}]\n"), encoding="utf-8")
    said = run_cli(vault_dir, "revise", first["id"], "--append", "Work phone too.")
    assert said.exit_code == 0, said.output
    assert "no longer in the vault" not in said.output and "instead" not in said.output, said.output
    assert f"superseded by {second['id']} ({second['path']}, \"{second['title']}\")" in said.output, said.output
    assert f"{first['path']} is superseded by several notes ({second['id']}, {third['id']})" in said.output, said.output
    revised = run_json(vault_dir, "revise", first["id"], "--append", "Home phone.")
    assert (revised["superseded_by"], revised["superseded_by_path"]) == (second["id"], second["path"])  # type: ignore[index]


def test_a_new_fact_whose_own_title_ends_in_a_number_is_not_said_to_be_numbered_beside_the_one_it_retires(vault_dir: Path) -> None:
    # named_beside took any "-<digits>" ending for vaultmem's numbering: "Tax return 2025" retiring
    # "Tax return 2024" was said to be "named tax-return-2025.md: … keeps its file name", though
    # tax-return-2025 is its title's own name and no file was in its way.
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    old = run_json(vault_dir, "remember", "Tax return filed on 2025-04-30.", "--title", "Tax return 2024", "--layer", "L3")
    said = run_cli(vault_dir, "remember", "Tax return filed on 2026-04-28.", "--title", "Tax return 2025",
                   "--supersedes", old["path"])  # type: ignore[index]
    assert said.exit_code == 0, said.output
    assert "keeps its file name" not in said.output, said.output
    newer = run_json(vault_dir, "remember", "Tax return filed on 2027-04-29.", "--title", "Tax return 2025",
                     "--supersedes", "memories/tax-return-2025.md")
    assert (newer["path"], newer["named_beside"]) == ("memories/tax-return-2025-2.md", "memories/tax-return-2025.md")  # type: ignore[index]


def test_forget_by_the_old_path_or_id_of_a_superseded_archived_note_forgets_nothing(vault_dir: Path) -> None:
    # An agent trial (s38): the old id, after expire --apply, resolved to the newer note, and
    # forget archived it — "forget my old address" lost the new one. The old path (s38: it now
    # opens the newer note, as the id does) is refused the same way.
    write_file(vault_dir, ".vaultmem.toml", 'embedder = "hashing"\n')
    old = run_json(vault_dir, "remember", "Dana lives in Lisbon.", "--layer", "L3")
    new = run_json(vault_dir, "remember", "Dana lives in Madrid.", "--layer", "L3", "--supersedes", old["id"])  # type: ignore[index]
    assert run_cli(vault_dir, "expire", "--apply").exit_code == 0
    before = snapshot_files(vault_dir)
    for reference in (old["id"], old["path"]):  # type: ignore[index]
        refused = run_cli(vault_dir, "forget", reference)
        assert refused.exit_code == 1, refused.output
        assert f"names a note that {new['path']} superseded: it was archived and is _archive/{old['path']} now" in refused.stderr  # type: ignore[index]
        assert "Nothing was forgotten" in refused.stderr and f"To forget the newer fact, name {new['path']}" in refused.stderr  # type: ignore[index]
    assert snapshot_files(vault_dir) == before
    assert run_json(vault_dir, "get", old["path"])["path"] == new["path"]  # type: ignore[index]


WORKSHOP_ONLINE = "Friday workshop moves online because of the train strike on Thursday and Friday."
WORKSHOP_CANCELLED = "The Friday cartography workshop is cancelled this week (not online after all); next session is 2026-12-11."


def test_with_include_expired_the_note_that_replaced_another_ranks_above_it(vault_dir: Path, write_note, wordllama: object) -> None:
    # An agent trial: recall("is the workshop on friday happening", include_expired=true) put the
    # retired "moves online" note first (0.72), the cancellation that replaced it second (0.64).
    write_note("Daily/2026-12-02.md", "# Notes\nThe train strike is on Thursday and Friday, so the Friday workshop moves online.\n")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        old = vault.remember(WORKSHOP_ONLINE, layer="L2", now="2026-12-03T10:00:00+00:00")
        new = vault.remember(WORKSHOP_CANCELLED, supersedes=[old.id], now="2026-12-03T10:38:54+00:00")
        hits = vault.search("is the workshop on friday happening", k=3, include_expired=True, now="2026-12-03T10:39:00+00:00")
        assert [hit.path for hit in hits[:2]] == [new.path, old.path]
        assert hits[1].expired and f"superseded by {new.id} ({new.path})" in hits[1].warnings
        assert hits[0].score >= hits[1].score  # sorted by score, a caller still reads the successor first
        told = vault.explain(old.path, "is the workshop on friday happening", k=3, include_expired=True,
                             now="2026-12-03T10:39:00+00:00")
        assert told.rank["fused"] == 2 and told.in_answer  # explain ranks it where search shows it
        assert any("it ranks right under that note" in reason for reason in told.reasons), told.reasons
        # Without include_expired nothing changes: the retired note is not in the answer at all.
        assert old.path not in [hit.path for hit in vault.search("is the workshop on friday happening", k=3,
                                                                 now="2026-12-03T10:39:00+00:00")]


def test_with_include_expired_a_retired_note_the_query_names_keeps_its_score_and_its_successor_stands_in(
        vault_dir: Path, write_note, wordllama: object) -> None:
    # A trial (s41): recall("Priya morning meetings", include_expired=true) showed the retired note
    # that says exactly that at 0.06, capped under its successor's 0.06 (the new note is about
    # food), and called the answer "confident: the best score is 0.06".
    write_note("Daily/2026-12-03.md", "Called mom about the birthday dinner. Priya owns the charts of the quarterly report.\n")
    write_note("Daily/2026-12-04.md", "Call with Priya about the Lisbon offsite; renewed the passport online.\n")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        old = vault.remember("Priya prefers morning meetings, never before 9:00; she is vegetarian and allergic to cashews.",
                             layer="L2", now="2026-12-03T10:00:00+00:00")
        found_before = vault.search("Priya morning meetings", k=3, now="2026-12-03T10:30:00+00:00")
        assert found_before[0].path == old.path
        new = vault.remember("Priya now eats fish (pescatarian since November); still allergic to cashews.", layer="L3",
                             supersedes=[old.id], now="2026-12-03T10:38:54+00:00")
        hits = vault.search("Priya morning meetings", k=3, include_expired=True, now="2026-12-03T10:39:00+00:00")
        assert [hit.path for hit in hits[:2]] == [new.path, old.path]
        # The retired note keeps what the query earned it (not the successor's score), and the
        # successor standing in for it shows the same: sorted by score, the successor is read first.
        assert hits[1].score >= 0.5 and hits[0].score == hits[1].score, [(hit.path, hit.score) for hit in hits]
        assert hits[2].score < hits[1].score
        told = vault.explain(new.path, "Priya morning meetings", k=3, include_expired=True, now="2026-12-03T10:39:00+00:00")
        assert told.score["fused"] == hits[0].score
        assert any("stands in for it" in reason for reason in told.reasons), told.reasons


def test_successors_first_moves_only_a_note_that_replaces_one_ranked_above_it() -> None:
    from vaultmem.supersede import successors_first

    def order(ranked: list[int], pairs: list[tuple[int, int]]) -> list[int]:
        return successors_first(ranked, pairs, lambda label: label)

    assert order([1, 2, 3], [(3, 1)]) == [3, 1, 2]  # the successor takes the retired note's place, which goes right under it
    assert order([3, 2, 1], [(3, 1)]) == [3, 2, 1]  # already above: the retired note is not pulled up beside it
    assert order([1, 2, 3, 4], [(4, 2), (4, 1), (2, 1)]) == [4, 2, 1, 3]  # a chain: the newest first, then in turn
    assert order([1, 2, 3], [(2, 1), (1, 2)]) == [1, 2, 3]  # a loop written by hand: the order stays
    assert order([1, 2], [(3, 1)]) == [1, 2]  # a successor not in the answer: nothing moves


def test_the_successor_brought_into_the_answer_does_not_push_out_the_hit_ranked_above_the_retired_note() -> None:
    # s42 review: the answer [top hit, retired note] at k=2, the successor ranked 4th, left out the
    # top hit (the "lowest-ranked" note that was neither of the pair) while k=1 kept it.
    from vaultmem.supersede import with_successors

    def answer(ranked: list[int], k: int, pairs: list[tuple[int, int]]) -> list[int]:
        return with_successors(ranked, k, pairs, lambda label: label)[0]

    assert answer([1, 2, 3, 4], 2, [(4, 2)]) == [1, 2, 4]  # the answer grows: the top hit owes nothing to the pair
    assert answer([1, 2, 3, 4, 5], 3, [(5, 2)]) == [1, 2, 5]  # a note under the retired one still gives way
    assert answer([2, 1, 3, 4], 2, [(4, 2)]) == [2, 4]  # the retired note first: as before


def test_a_loop_of_supersedes_written_by_hand_lifts_no_score_and_explain_says_no_note_stands_in(
        vault_dir: Path, write_note, wordllama: object) -> None:
    # s42 review: A supersedes B and B supersedes A (by hand, neither retired). B, which the query
    # barely names, was pulled in under A and shown at A's score, explain saying of it "ranked right
    # above it and scored as it is"; and at k=2 the best hit (C) was left out for the pair.
    write_note("A.md", "---\nid: aaa\nsupersedes: bbb\n---\nPriya prefers morning meetings, never before nine.\n")
    write_note("B.md", "---\nid: bbb\nsupersedes: aaa\n---\nThe cafeteria serves fish on Fridays.\n")
    write_note("C.md", "Priya and the morning standup about meetings.\n")
    write_note("D.md", "Meetings with the bank in the morning.\n")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        hits = vault.search("Priya morning meetings", k=3)
        assert [hit.path for hit in hits[:2]] == ["C.md", "A.md"], [(hit.path, hit.score) for hit in hits]
        scores = {hit.path: hit.score for hit in hits}
        assert "B.md" in scores and scores["B.md"] < scores["A.md"] / 10, scores
        told = vault.explain("B.md", "Priya morning meetings", k=3)
        assert not any("stands in for it" in reason for reason in told.reasons), told.reasons
        assert [hit.path for hit in vault.search("Priya morning meetings", k=2)][:1] == ["C.md"]


LOCKER_AND_GYM = "---\nid: maya-gym\nlayer: L3\nexpires_at: 2027-02-01\n---\nMaya's locker is 14; her gym is Fitness Hut.\n"


def test_remember_names_what_the_superseded_note_said_that_the_new_one_does_not(vault_dir: Path, write_note,
                                                                              wordllama: object) -> None:
    # An agent trial: a note of two facts (the day and the fee of the Japanese lessons) superseded by
    # a note of one hid both, and nothing in remember's answer said so.
    write_note("memories/maya-gym.md", LOCKER_AND_GYM)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        new = vault.remember("Maya's locker is 27 now.", supersedes=["maya-gym"], now=NOW)
    assert [(left.id, left.path, left.statements, left.more) for left in new.unsaid] == [
        ("maya-gym", "memories/maya-gym.md", ["Maya's locker is 14", "her gym is Fitness Hut."], 0)]
    assert new.as_dict()["unsaid"] == [{"id": "maya-gym", "path": "memories/maya-gym.md",
                                        "statements": ["Maya's locker is 14", "her gym is Fitness Hut."], "more": 0}]
    said = new.unsaid[0].words()
    assert '"her gym is Fitness Hut."' in said and "remember it again" in said
    shown = run_cli(vault_dir, "remember", "Maya's gym is Fitness Hut.", "--supersedes", new.path).stdout
    assert f'  unsaid: {new.path}, superseded, said what this note does not: "Maya\'s locker is 27 now."' in shown, shown


def test_unsaid_of_a_big_log_superseded_by_another_takes_time_linear_in_the_texts() -> None:
    """Each old statement was looked for as a substring of the whole new text: a 680 KB log
    superseded by another took 2.2 s of CPU, this 1.3 MB one ~9 s (``remember`` holds the vault's
    write lock meanwhile), a 5 MB one minutes. Thread CPU time, as the parsers' guards count."""
    from vaultmem.supersede import unsaid

    old = "".join(f"Reading {number} of sensor {number * 7} was nominal.\n" for number in range(32000))
    new = "".join(f"Reading {number} of probe {number * 7} was high.\n" for number in range(32000))
    started = time.thread_time()
    left = unsaid(old, new + "Reading 5 of sensor 35 was nominal.")
    assert time.thread_time() - started < 3.0
    assert left.statements[:2] == ("Reading 0 of sensor 0 was nominal.", "Reading 1 of sensor 7 was nominal.")
    assert left.more == 32000 - 1 - len(left.statements)


def test_a_new_note_that_says_everything_the_old_one_did_leaves_nothing_unsaid(vault: Vault) -> None:
    # Case, punctuation, list markers and a filler word aside; the new note may say more.
    new = vault.remember("- the harbor standup is at 9:30 in Tejo meeting room\n- Bring the tide charts.", layer="L3",
                         supersedes=["standup-930"], now=NOW)
    assert new.unsaid == [] and new.as_dict()["unsaid"] == []


def test_unsaid_lists_at_most_ten_statements_and_counts_the_rest() -> None:
    from vaultmem.supersede import UNSAID_SHOWN, unsaid

    old = "## Trip\n" + "\n".join(f"- Stop {number} is in town {number}." for number in range(UNSAID_SHOWN + 3))
    left = unsaid(old, "Stop 0 is in town 0.")
    assert left.statements == tuple(f"Stop {number} is in town {number}." for number in range(1, UNSAID_SHOWN + 1))
    assert left.more == 2
    # Headings and a code block's fence lines state nothing; the code's own lines are compared as lines.
    assert unsaid("# Backup\n```bash\nrestic backup ~/vault\n```\n", "Backups now run with borg.").statements == (
        "restic backup ~/vault",)


def test_a_fact_negated_before_its_words_is_unsaid() -> None:
    # A review (s41): "not" stood before the statement's only word that is no filler, and
    # "She is not vegetarian anymore." was read as saying "She is vegetarian." — the old fact was
    # not listed, and an agent was not asked whether it still holds.
    from vaultmem.supersede import unsaid

    assert unsaid("She is vegetarian.", "She is not vegetarian anymore.").statements == ("She is vegetarian.",)
    assert unsaid("Tom never drinks coffee.", "Tom no longer never drinks coffee.").statements == ("Tom never drinks coffee.",)
    # A negation the old statement holds too is no change; nor is a rewording without one.
    assert unsaid("Tom never drinks coffee.", "Tom still never drinks coffee.").statements == ()
    assert unsaid("She is vegetarian.", "She is still vegetarian.").statements == ()


def test_a_negation_written_out_or_drawn_together_is_a_rewording_not_an_unsaid_fact() -> None:
    # s42 review: "She isn't vegetarian." superseded by "She is not vegetarian." was listed as
    # unsaid (the contraction's one word matched neither "is" nor "not"), and an agent was asked
    # to remember again a fact the new note states.
    from vaultmem.supersede import unsaid

    assert unsaid("She isn't vegetarian.", "She is not vegetarian.").statements == ()
    assert unsaid("Tom does not drive.", "Tom doesn't drive.").statements == ()
    assert unsaid("Ana can't swim.", "Ana cannot swim.").statements == ()
    # The negation still counts: one added or taken away is a changed fact.
    assert unsaid("She is vegetarian.", "She isn't vegetarian anymore.").statements == ("She is vegetarian.",)
    assert unsaid("Tom doesn't drive.", "Tom drives.").statements == ("Tom doesn't drive.",)


def test_every_contracted_negation_counts_as_one_and_keeps_its_verb() -> None:
    # s43 review: "couldn't", "shouldn't", "hasn't" … were no negation (the list named only nine
    # contractions), so "Ben couldn't come." superseded by "Ben could not come." was listed as unsaid;
    # and every contraction was read as "not" alone, so "Ben mustn't smoke." replaced by "Ben needn't
    # smoke." — another fact — was taken as said, where "must not" / "need not" written out is not.
    from vaultmem.supersede import unsaid

    assert unsaid("Ben couldn't come.", "Ben could not come.").statements == ()
    assert unsaid("Ben should not call.", "Ben shouldn't call.").statements == ()
    assert unsaid("The flat hasn't got a lift.", "The flat has not got a lift.").statements == ()
    assert unsaid("Ben mustn't smoke.", "Ben needn't smoke.").statements == ("Ben mustn't smoke.",)
    assert unsaid("Ben could come.", "Ben couldn't come.").statements == ("Ben could come.",)

def test_a_fact_reworded_with_its_when_or_where_moved_is_said(vault: Vault) -> None:
    # s41's leftovers: "On Tuesdays Priya swims" superseded by "Priya swims on Tuesdays." was listed as
    # unsaid — the words compared in order only — and the agent was asked to remember again what it
    # had just written.
    from vaultmem.supersede import unsaid

    assert unsaid("On Tuesdays Priya swims.", "Priya swims on Tuesdays.").statements == ()
    assert unsaid("In Lisbon, Maya works at Talkdesk.", "Maya works at Talkdesk in Lisbon.").statements == ()
    assert unsaid("On Tuesdays Priya does not swim.", "Priya does not swim on Tuesdays.").statements == ()
    # Not a free bag of words: a negation more, a word more, another day or the roles swapped stay unsaid.
    assert unsaid("On Tuesdays Priya swims.", "Priya does not swim on Tuesdays.").statements == ("On Tuesdays Priya swims.",)
    assert unsaid("On Mondays the meeting is at 9.", "The meeting is at 9:30 on Mondays.").statements == (
        "On Mondays the meeting is at 9.",)
    assert unsaid("On Tuesdays Priya swims.", "Priya swims on Thursdays.").statements == ("On Tuesdays Priya swims.",)
    assert unsaid("Priya pays Sam.", "Sam pays Priya.").statements == ("Priya pays Sam.",)
    # Through remember's answer too.
    old = vault.remember("On Tuesdays Priya swims. Her coach is Rui.", layer="L3", now=NOW)
    new = vault.remember("Priya swims on Tuesdays.", layer="L3", supersedes=[old.id], now=NOW)
    assert [list(entry.statements) for entry in new.unsaid] == [["Her coach is Rui."]]
