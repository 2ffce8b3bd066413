"""A Notion workspace exported as Markdown & CSV, opened as a vault (vaultmem/notion.py; adr/0032).

Notion puts each page's 32-hex id after its name (``Agenda wc 13th Dec
dd939924cf624f7d9117a383ae71c81d.md``) and writes a database page's properties as
``Key: value`` lines under its title, not YAML. Obsidian's Importer instead writes them as
YAML with Notion's names (``Created: 2022-01-26T09:12``). Found on a trial with a real export
(Joystream's Atlas workspace). Real files, the real CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli, run_json, snapshot_files, write_vault

from vaultmem import Vault
from vaultmem.errors import PathOutsideVault
from vaultmem.notion import notion_meta, path_without_page_ids, without_page_id

DEC = "Atlas/Meeting Notes/Agenda wc 13th Dec dd939924cf624f7d9117a383ae71c81d.md"
MAR = "Atlas/Meeting Notes/Agenda wc 16th Mar 4000a42088c4461a996cbe61342ac4f1.md"
PERSON = "Atlas/Atlas Home/Untitled/Bedeho Mender fb57dfbb7eca498497b913327f7db99d.md"
DEC_TEXT = ("# Agenda wc 13th Dec\n\nParticipants: Netguru Design, Klaudiusz\nCreated By: Dima\n"
            "Type: Weekly Tech-Design Sync\nCreated: December 13, 2021 7:54 PM\n"
            "Last Edited Time: December 21, 2021 12:28 PM\n\n# Agenda\n\n- [x]  Design Epics Roadmap view:")
MAR_TEXT = ("# Agenda wc 16th Mar\n\nParticipants: Netguru Design, Klaudiusz, Dima\nCreated By: Netguru Design\n"
            "Type: Weekly Tech-Design Sync\nCreated: March 16, 2022 11:52 AM\n"
            "Last Edited Time: March 16, 2022 12:20 PM\n\n# Agenda\n\n- [x]  Retrospective,")


def export(root: Path) -> Path:
    return write_vault(root, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        DEC: DEC_TEXT,
        MAR: MAR_TEXT,
        PERSON: "# Bedeho Mender\n\nAssociation: Jsgenesis\nRole: Product Owner (PO)",
    })


def test_a_notion_page_id_is_no_part_of_a_names_title_or_its_day() -> None:
    assert without_page_id("Agenda wc 13th Dec dd939924cf624f7d9117a383ae71c81d") == "Agenda wc 13th Dec"
    assert without_page_id("dd939924cf624f7d9117a383ae71c81d") == "dd939924cf624f7d9117a383ae71c81d"
    assert without_page_id("Release 2024-05-04 notes") == "Release 2024-05-04 notes"
    assert path_without_page_ids("Projects 1a2b3c4d5e6f708192a3b4c5d6e7f809/Q3 plan abcdefabcdefabcdefabcdefabcdefab.md") \
        == "Projects/Q3 plan.md"


def test_an_exported_page_is_titled_and_found_by_its_name_without_the_page_id(vault_dir: Path) -> None:
    root = export(vault_dir)
    run_cli(root, "index")
    hits = run_json(root, "search", "product owner", "-k", "3")
    assert isinstance(hits, list)
    assert [(hit["title"], hit["path"]) for hit in hits][:1] == [("Bedeho Mender", PERSON)]
    got = run_json(root, "get", "Agenda wc 13th Dec")
    assert isinstance(got, dict)
    assert got["path"] == DEC


def test_a_page_ids_digits_do_not_date_a_page_in_the_year_4000(vault_dir: Path) -> None:
    root = export(vault_dir)
    run_cli(root, "index")
    listed = run_json(root, "list", "--since", "3000-01-01")
    assert isinstance(listed, dict)
    assert listed["notes"] == []
    march = run_json(root, "list", "--since", "2022-03", "--until", "2022-03")
    assert isinstance(march, dict)
    assert [(note["path"], note["date"]) for note in march["notes"]] == [(MAR, "2022-03-16T11:52")]


def test_an_exported_pages_created_property_line_dates_it_without_writing_into_it(vault_dir: Path) -> None:
    root = export(vault_dir)
    before = snapshot_files(root)
    run_cli(root, "index")
    december = run_json(root, "list", "--since", "2021-12-01", "--until", "2021-12-31")
    assert isinstance(december, dict)
    assert [(note["path"], note["date"]) for note in december["notes"]] == [(DEC, "2021-12-13T19:54")]
    assert run_cli(root, "check").exit_code == 0
    after = snapshot_files(root)
    assert {path: after[path] for path in before} == before


def test_a_created_line_is_read_only_from_a_page_notion_named_and_only_as_a_time() -> None:
    assert notion_meta(DEC, DEC_TEXT) == {"created": "2021-12-13T19:54:00"}
    assert notion_meta("Meetings/Agenda wc 13th Dec.md", DEC_TEXT) == {}
    undated = DEC_TEXT.replace("December 13, 2021 7:54 PM", "13. Dezember 2021")
    assert notion_meta(DEC, undated) == {}
    prose = "# Agenda wc 13th Dec\n\nWe met. Created: December 13, 2021 7:54 PM\n"
    assert notion_meta(DEC, prose) == {}


def test_a_date_property_written_in_another_case_dates_the_note_as_the_importer_writes_it(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        "Webpack async.md": "---\nCreated: 2022-01-26T09:12\nLast Edited Time: 2022-01-26T09:12\n---\nyarn add -D babel-polyfill\n",
        "Both.md": "---\ncreated: 2023-05-04T10:00\nCreated: 2022-01-26T09:12\n---\ntwo spellings\n",
    })
    run_cli(root, "index")
    listed = run_json(root, "list")
    assert isinstance(listed, dict)
    assert {note["path"]: note["date"] for note in listed["notes"]} == {"Both.md": "2023-05-04T10:00", "Webpack async.md": "2022-01-26T09:12"}  # as written


def test_two_copies_of_an_exported_page_differing_only_by_page_id_are_planned_into_one(vault_dir: Path) -> None:
    text = ("# Backing up Orion database\n\nIt is recommended to schedule daily backups for the orion-db service, "
            "with a cron job that runs pg_dumpall every day at 9:00 AM CET into the backup directory.")
    first = "Ops/Backing up Orion database 775d36e8815d414ab1b3c246c26d155b.md"
    second = "Ops/Backing up Orion database 0123456789abcdef0123456789abcdef.md"
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', first: text, second: text})
    run_cli(root, "index")
    plan = run_json(root, "consolidate", "--any-note")
    assert isinstance(plan, dict)
    assert plan["different_numbers"] == 0
    assert [sorted(cluster["members"]) for cluster in plan["clusters"]] == [sorted([first, second])]


# Builders' archive (a trial on another Joystream export): a link as Notion writes it, escaped.
PROXY = "Builders/Archive/Proxy Product Owner Responsibilities 23e563c16cfc41f39f960b2d63e875c7.md"
RELATIONS = "Builders/Archive/Jsgenesis Relations 7a2cbd55bb08430cae90a09faaa810d1.md"
PROXY_LINK = "Proxy%20Product%20Owner%20Responsibilities%2023e563c16cfc41f39f960b2d63e875c7.md"


def linking_export(root: Path) -> Path:
    return write_vault(root, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        PROXY: "# Proxy Product Owner Responsibilities\n\nChecks the backlog daily.",
        RELATIONS: f"# Jsgenesis Relations\n\n[Proxy PO]({PROXY_LINK}) works with the JSG Product Owner.",
    })


def test_get_by_a_markdown_links_escaped_target_finds_the_note_it_links_to(vault_dir: Path) -> None:
    """Was: "no note matches" for the target an agent read in a link, beside the very note."""
    root = linking_export(vault_dir)
    got = run_json(root, "get", PROXY_LINK)
    assert isinstance(got, dict)
    assert got["path"] == PROXY
    in_folder = run_json(root, "get", "Builders/Archive/" + PROXY_LINK)
    assert isinstance(in_folder, dict)
    assert in_folder["path"] == PROXY


def test_a_write_by_an_escaped_link_target_acts_on_that_note_alone(vault_dir: Path) -> None:
    root = linking_export(vault_dir)
    run_cli(root, "index")
    before = snapshot_files(root)
    result = run_cli(root, "revise", PROXY_LINK, "--append", "Labels unclear tasks jsg-to-refine.")
    assert result.exit_code == 0, result.output
    after = snapshot_files(root)
    assert {path for path in after if after[path] != before.get(path)} == {PROXY}


def test_an_escaped_name_of_no_note_still_says_no_note_matches_as_written(vault_dir: Path) -> None:
    root = linking_export(vault_dir)
    result = run_cli(root, "get", "Nobody%20Here.md")
    assert result.exit_code != 0
    assert "no note matches 'Nobody%20Here.md'" in result.output


SYNC = "Builders/Archive/Meeting Notes/Weekly Sync 18 04 2022 5ed8a18fc3d24ea987c8da9211fc129c.md"
GOVERNANCE = ("Builders/Archive/Knowledge Base/NFT bugfix testing/NFT bugfix hours/"
              "Governance setup memberships, council, proposals t d4479672b33a436ba570157b693afe5d.md")
GOVERNANCE_TITLE = ("Governance setup: memberships, council, proposals to hire Content Lead, Membership Lead, "
                    "upgrade the runtime")
SHORT_NAMES = {
    SYNC: ("# Weekly Sync 18.04.2022\n\nCreated: April 18, 2022 3:02 PM\nType: Sync with Martin\n\n"
           "### Minutes\n\n1. JSG has no Full-time QAs"),
    GOVERNANCE: f"# {GOVERNANCE_TITLE}\n\nBuilder in charge: isonar\nTime spent: 4h",
}


def test_a_page_whose_file_name_shortens_its_title_is_titled_by_its_title_line(vault_dir: Path) -> None:
    """Was: hits titled `Governance setup memberships, council, proposals t` (Notion cuts a name
    at 50 characters and leaves `:` and `.` out of it) and `Weekly Sync 18 04 2022`."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', **SHORT_NAMES})
    before = snapshot_files(root)
    hits = run_json(root, "search", "how long did the governance setup take", "-k", "1")
    assert isinstance(hits, list)
    assert [(hit["title"], hit["path"]) for hit in hits] == [(GOVERNANCE_TITLE, GOVERNANCE)]
    listed = run_json(root, "list", "--since", "2022-04")
    assert isinstance(listed, dict)
    assert [(note["title"], note["date"]) for note in listed["notes"]] == [("Weekly Sync 18.04.2022", "2022-04-18T15:02")]
    after = snapshot_files(root)
    assert {path: after[path] for path in before} == before


def test_the_file_name_without_the_page_id_still_names_a_page_titled_by_its_title_line(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', **SHORT_NAMES})
    for name, path in (("Weekly Sync 18 04 2022", SYNC), ("Weekly Sync 18.04.2022", SYNC),
                       ("Governance setup memberships, council, proposals t", GOVERNANCE)):
        got = run_json(root, "get", name)
        assert isinstance(got, dict)
        assert got["path"] == path, name


def test_a_title_line_the_file_name_does_not_spell_leaves_the_name_the_title() -> None:
    named = "Projects/Roadmap a1b2c3d4e5f60718293a4b5c6d7e8f90.md"
    assert "title" not in notion_meta(named, "# Roadmap\n\nOwner: Ana")
    assert "title" not in notion_meta(named, "# Q3 product roadmap and pricing\n\nOwner: Ana")  # not cut: another name
    assert "title" not in notion_meta("Projects/Roadmap 2.0.md", "# Roadmap: 2.0")  # no page id: not Notion's
    assert notion_meta(named.replace("Roadmap ", "Roadmap 2 0 "), "# Roadmap 2.0\n\nOwner: Ana") == {"title": "Roadmap 2.0"}


def test_a_date_range_as_notion_writes_it_dates_the_page_by_its_first_day(vault_dir: Path) -> None:
    """Was: undated, so `list --since` left out every meeting whose Date property was a range."""
    offsite = "Meetings/Offsite 1123456789abcdef0123456789abcdef.md"
    sprint = "Meetings/Sprint 3123456789abcdef0123456789abcdef.md"
    root = write_vault(vault_dir, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        offsite: "# Offsite\n\nDate: May 3, 2022 → May 5, 2022\nStatus: Done\n\nOffsite in Lisbon.",
        sprint: "# Sprint\n\nDate: 22/12/2021 → 31/12/2021\n\nSprint 4.",
        "Meetings/Later.md": "# Later\n\nDate: → soon\n\nNo day yet.",
    })
    listed = run_json(root, "list", "--since", "2021-12-01")
    assert isinstance(listed, dict)
    assert [(note["path"], note["date"]) for note in listed["notes"]] == [(offsite, "2022-05-03"), (sprint, "2021-12-22")]


def test_a_date_line_whose_arrow_follows_no_day_is_dated_by_the_line_as_before_ranges_were_read(vault_dir: Path) -> None:
    """Was (review): only the text before the arrow was read, so an ordinary note's `Date: TBD →
    2022-05-10`, dated that day before, was undated, and `May 3 → May 10, 2022` too (no year)."""
    root = write_vault(vault_dir, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        "Launch.md": "Date: TBD → 2022-05-10\n\nThe launch.",
        "Trip.md": "Date: May 3 → May 10, 2022\n\nThe trip.",
        "Offsite.md": "Date: May 3, 2022 → May 5, 2022\n\nThe offsite.",
    })
    listed = run_json(root, "list", "--since", "2022-05-01", "--until", "2022-05-31")
    assert isinstance(listed, dict)
    assert {note["path"]: note["date"] for note in listed["notes"]} == {
        "Launch.md": "2022-05-10", "Trip.md": "2022-05-10", "Offsite.md": "2022-05-03"}


def test_a_created_time_written_in_the_workspaces_language_dates_the_page(vault_dir: Path) -> None:
    pages = {
        "Notes/Sync 1a2b3c4d5e6f708192a3b4c5d6e7f801.md": "Created time: 21. Juli 2023 15:29",
        "Notes/Réunion 1a2b3c4d5e6f708192a3b4c5d6e7f802.md": "Créé le: 3 mars 2023 16:12",
        "Notes/Reunión 1a2b3c4d5e6f708192a3b4c5d6e7f803.md": "Fecha de creación: 3 de marzo de 2023 4:12 PM",
        "Notes/Reunião 1a2b3c4d5e6f708192a3b4c5d6e7f804.md": "Criado em: 3 de março de 2023 16:12",
    }
    files = {path: f"# {without_page_id(path[6:-3])}\n\nTipo: Sync\n{line}\n\nWe met.\n" for path, line in pages.items()}
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', **files})
    run_cli(root, "index")
    listed = run_json(root, "list", "--since", "2023-03", "--until", "2023-07")
    assert isinstance(listed, dict)
    assert {note["path"]: note["date"] for note in listed["notes"]} == dict(zip(pages, [
        "2023-07-21T15:29", "2023-03-03T16:12", "2023-03-03T16:12", "2023-03-03T16:12"], strict=True))


MARTIN = "Meetings/Sync with Martin 1a2b3c4d5e6f708192a3b4c5d6e7f805.md"
MARTIN_TEXT = "# Sync with Martin\n\nType: Sync with Martin\nTags: work, planning\nCreated: March 3, 2023 4:12 PM\n\nWe met.\n"


def test_a_property_a_notion_page_holds_on_its_line_is_not_set_again_in_yaml(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', MARTIN: MARTIN_TEXT})
    run_cli(root, "index")
    before = (root / MARTIN).read_bytes()
    for asked, line in ((("--set", "type=Sync"), "Type: Sync with Martin"), (("--unset", "TYPE"), "Type: Sync with Martin"),
                        (("--tag", "review"), "Tags: work, planning"), (("--set", "created=2024-01-01"), "Created: March 3")):
        refused = run_cli(root, "revise", MARTIN, *asked)
        assert refused.exit_code != 0, asked
        assert f"on its line '{line}" in refused.output
        assert "--text" in refused.output
        assert "nothing was changed" in refused.output
    assert (root / MARTIN).read_bytes() == before
    assert run_cli(root, "revise", MARTIN, "--set", "status=done").exit_code == 0  # a property it holds on no line
    assert (root / MARTIN).read_bytes() == b"---\nstatus: done\n---\n" + before


def test_a_property_line_taken_out_by_the_same_revise_that_sets_it_in_yaml_is_not_refused(vault_dir: Path) -> None:
    # Was: refused, telling to "take the line out of the text and ask again" — which this call did.
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', MARTIN: MARTIN_TEXT})
    run_cli(root, "index")
    text = "# Sync with Martin\n\nTags: work, planning\nCreated: March 3, 2023 4:12 PM\n\nWe met.\n"
    result = run_cli(root, "revise", MARTIN, "--text", text, "--set", "type=Sync")
    assert result.exit_code == 0, result.output
    assert (root / MARTIN).read_text(encoding="utf-8") == "---\ntype: Sync\n---\n" + text
    kept = run_cli(root, "revise", MARTIN, "--text", text + "More.\n", "--tag", "review")  # the Tags line stays: refused
    assert kept.exit_code != 0
    assert "on its line 'Tags: work, planning'" in kept.output


def test_unsetting_a_yaml_key_a_notion_page_also_holds_on_its_line_is_not_refused(vault_dir: Path) -> None:
    # Was: refused, "a YAML type beside it would make the page say two things" — of the very
    # YAML key whose removal leaves the page saying it once, on its line.
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', MARTIN: "---\ntype: Sync\n---\n" + MARTIN_TEXT})
    run_cli(root, "index")
    result = run_cli(root, "revise", MARTIN, "--unset", "type")
    assert result.exit_code == 0, result.output
    # The line alone says it, and no empty `---` pair is left on top: the page as Notion exported it.
    assert (root / MARTIN).read_text(encoding="utf-8") == MARTIN_TEXT


ORION = "# Backing up Orion database\n\nIt is recommended to schedule daily backups for the orion-db service, " \
        "with a cron job that runs pg_dumpall every day at 9:00 AM CET into the backup directory.\n"
ORIGINAL = "Ops/Backing up Orion database ffd36e8815d414ab1b3c246c26d155b7.md"
DUPLICATE = "Ops/Backing up Orion database 0123456789abcdef0123456789abcdef.md"
LINKERS = {
    "Ops/Runbook.md": "# Runbook\n\nBefore an upgrade see [[Backing up Orion database ffd36e8815d414ab1b3c246c26d155b7]].\n",
    "Ops/Checklist.md": "# Checklist\n\n- [backups](Backing%20up%20Orion%20database%20ffd36e8815d414ab1b3c246c26d155b7.md)\n",
    "Team/Onboarding.md": "# Onboarding\n\nRead [the backup page](../Ops/Backing%20up%20Orion%20database%200123456789abcdef0123456789abcdef.md).\n",
}


def copies_with_links(root: Path) -> Path:
    return write_vault(root, {".vaultmem.toml": 'embedder = "hashing"\n', ORIGINAL: ORION, DUPLICATE: ORION, **LINKERS})


def test_of_two_copies_of_a_page_the_one_other_notes_link_to_is_kept(vault_dir: Path) -> None:
    root = copies_with_links(vault_dir)
    run_cli(root, "index")
    plan = run_json(root, "consolidate", "--any-note")
    assert isinstance(plan, dict)
    [cluster] = plan["clusters"]
    assert cluster["members"] == [ORIGINAL, DUPLICATE]  # its path sorts last
    assert "more notes link to it (2; to " in cluster["why_kept"]


def test_the_dry_run_lists_the_files_whose_links_apply_will_rewrite(vault_dir: Path) -> None:
    root = copies_with_links(vault_dir)
    run_cli(root, "index")
    before = snapshot_files(root)
    plan = run_json(root, "consolidate", "--any-note")
    assert isinstance(plan, dict)
    assert plan["links_rewritten"] == ["Team/Onboarding.md"]
    assert snapshot_files(root) == before
    shown = run_cli(root, "consolidate", "--any-note")
    assert "would rewrite links in Team/Onboarding.md" in shown.output
    applied = run_json(root, "consolidate", "--any-note", "--apply")
    assert isinstance(applied, dict)
    assert applied["links_rewritten"] == plan["links_rewritten"]


def test_get_by_a_links_climbing_target_finds_the_one_note_it_can_be(vault_dir: Path) -> None:
    root = copies_with_links(vault_dir)
    (root / "Other/Ops").mkdir(parents=True)
    (root / "Other/Ops/Runbook.md").write_text("# Runbook\n\nAnother team's runbook.\n", encoding="utf-8")
    run_cli(root, "index")
    with Vault(root) as vault:
        # As Team/Onboarding.md links to it: escaped, and without its `.md`.
        assert vault.get("../Ops/Backing%20up%20Orion%20database%200123456789abcdef0123456789abcdef.md").path == DUPLICATE
        assert vault.get("../../Ops/Backing up Orion database 0123456789abcdef0123456789abcdef").path == DUPLICATE
        for unknown in ("../Ops/Runbook.md", "../../etc/passwd"):  # two notes end so; none does
            with pytest.raises(PathOutsideVault) as refused:
                vault.get(unknown)
            assert "a link's target" in str(refused.value)
            assert "path from the vault root" in str(refused.value)
        # A write acts on no reading of a link: it names the note, to be sent by its path.
        with pytest.raises(PathOutsideVault, match=f"one note's path ends so, '{DUPLICATE}'"):
            vault.revise("../Ops/Backing up Orion database 0123456789abcdef0123456789abcdef.md", add_tags=["ops"])
    assert (root / DUPLICATE).read_text(encoding="utf-8") == ORION
