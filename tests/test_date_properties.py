"""A vault names the properties that date its notes: ``.vaultmem.toml`` ``[dates]`` (dating.py,
adr/0026). Trials found a Spanish vault dated by ``fecha:`` and ``creado:``, a German one by
``datum:``: undated notes to vaultmem, told only of ``date:``. Real files, the real index.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import run_cli, run_json, wait_until, write_file

from vaultmem import Vault
from vaultmem.config import CONFIG_FILE, VaultConfig, load_config
from vaultmem.dating import DateProperties, note_date, own_day
from vaultmem.errors import ConfigError
from vaultmem.lifecycle import from_epoch_us

NOW = "2026-12-01T12:00:00+00:00"
SPANISH = '[dates]\ndate = ["date", "fecha"]\ncreated = ["created", "creado"]\n'


def configure(root: Path, dates: str = "") -> None:
    write_file(root, CONFIG_FILE, 'embedder = "hashing"\n' + dates)


@pytest.fixture
def diario(vault_dir: Path) -> Path:
    """A Spanish vault: its own names for the day a note is about and when it was written."""
    configure(vault_dir, SPANISH)
    write_file(vault_dir, "Diario/Rodilla.md", "---\nfecha: 2026-11-28\n---\nKnee held up on the long run.\n")
    write_file(vault_dir, "Notas/Fisio.md", "---\ncreado: 2026-11-20T09:00:00+00:00\n---\nKnee physio, first session.\n")
    write_file(vault_dir, "Notas/Sin fecha.md", "Knee brace notes, no day anywhere.\n")
    return vault_dir


# Names no date line has (date_lines.py): unnamed, nothing dates these notes; named, they do. (`fecha`
# and `creado` date a note unnamed too, after its name: rule 6, test_a_named_property_dates_…)
OWN = '[dates]\ndate = ["date", "jour"]\ncreated = ["created", "écrit"]\n'


@pytest.fixture
def journal(vault_dir: Path) -> Path:
    """The diario vault with names of its own that no language's date line uses."""
    configure(vault_dir, OWN)
    write_file(vault_dir, "Diario/Rodilla.md", "---\njour: 2026-11-28\n---\nKnee held up on the long run.\n")
    write_file(vault_dir, "Notas/Fisio.md", "---\nécrit: 2026-11-20T09:00:00+00:00\n---\nKnee physio, first session.\n")
    write_file(vault_dir, "Notas/Sin fecha.md", "Knee brace notes, no day anywhere.\n")
    return vault_dir


def dated(root: Path, since: str, until: str) -> dict[str, str | None]:
    """A search by date in a fresh Vault (each one a command): the hits and their dates."""
    with Vault(root) as vault:
        return {hit.path: hit.date for hit in vault.search("knee", k=10, now=NOW, since=since, until=until)}


# ---------------------------------------------------------------- the setting


def test_unset_the_properties_are_date_and_created_as_before(vault_dir: Path) -> None:
    assert load_config(vault_dir).dates == VaultConfig().dates == DateProperties(("date",), ("created",))
    assert DateProperties().fingerprint == ""  # an index made before the setting was dated by these: not read again


def test_the_dates_table_names_the_properties_in_the_order_they_are_read(vault_dir: Path) -> None:
    configure(vault_dir, SPANISH)
    assert load_config(vault_dir).dates == DateProperties(("date", "fecha"), ("created", "creado"))


@pytest.mark.parametrize(("dates", "field", "said"), [
    ('[dates]\ndate = "fecha"\n', "dates.date", 'write e.g. date = ["date", "fecha"]'),
    ("[dates]\ndate = []\n", "dates.date", "one property name or more"),
    ('[dates]\ndate = ["fecha", 3]\n', "dates.date", "one property name or more"),
    ('[dates]\ndate = ["fecha", " "]\n', "dates.date", "one property name or more"),
    ('[dates]\ndate = ["fecha", "fecha"]\n', "dates.date", "names fecha twice"),
    ('[dates]\ncreated = ["creado"]\n', "dates.created", 'keep it in the list, e.g. created = ["creado", "created"]'),
    ('[dates]\ndate = ["date", "creado"]\ncreated = ["creado", "created"]\n', "dates.date, dates.created", "both name creado"),
    ('[dates]\ndatum = ["datum"]\n', "dates.datum", "valid: dates.created, dates.date"),
    ('dates = ["fecha"]\n', "[dates]", "must be a table"),
])
def test_a_dates_setting_vaultmem_cannot_use_is_refused_naming_the_file_the_field_and_the_fix(
        vault_dir: Path, dates: str, field: str, said: str) -> None:
    configure(vault_dir, dates)
    with pytest.raises(ConfigError) as raised:
        load_config(vault_dir)
    assert raised.value.key == field and said in str(raised.value) and CONFIG_FILE in str(raised.value), str(raised.value)


def test_a_date_setting_written_above_the_tables_is_told_it_belongs_in_dates(vault_dir: Path) -> None:
    write_file(vault_dir, CONFIG_FILE, 'date = ["fecha"]\n')
    with pytest.raises(ConfigError, match=r"date belongs in \[dates\]"):
        load_config(vault_dir)


def test_check_reports_a_bad_dates_setting_as_its_problem(vault_dir: Path) -> None:
    configure(vault_dir, '[dates]\ncreated = ["creado"]\n')
    report = run_json(vault_dir, "check")
    assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [(CONFIG_FILE, "dates.created")]
    assert run_cli(vault_dir, "search", "knee", "--since", "7d").exit_code == 2  # every other command refuses it


# ---------------------------------------------------------------- dating by the named properties


def test_a_named_property_dates_the_note_in_its_order_and_created_ones_come_last() -> None:
    spanish = DateProperties(("date", "fecha"), ("created", "creado"))
    assert note_date({"día": "2026-11-28"}, "Rodilla.md") is None  # unnamed, and no date line's word: not read
    # Unnamed, `fecha` (a date line's word) dates a note nothing else dates (rule 6), after its name;
    # named, it is read first, as `date` is.
    unnamed = note_date({"fecha": "2026-11-28"}, "Diario/2026-11-20.md")
    assert unnamed is not None and unnamed.source == "file name"
    named = note_date({"fecha": "2026-11-28"}, "Diario/2026-11-20.md", properties=spanish)
    assert named is not None and named.source == "fecha"
    found = note_date({"fecha": "2026-11-28"}, "Rodilla.md", properties=spanish)
    assert found is not None and (found.moment.date().isoformat(), found.source, found.written) == ("2026-11-28", "fecha", False)
    both = note_date({"fecha": "2026-11-28", "date": "2026-11-27"}, "x.md", properties=spanish)
    assert both is not None and both.source == "date"  # the list's order
    passed_over = note_date({"date": "{{date}}", "fecha": "2026-11-28"}, "x.md", properties=spanish)
    assert passed_over is not None and passed_over.source == "fecha"  # a value that is no date is passed over
    by_name = note_date({"creado": "2026-11-20"}, "Diario/2026-11-28.md", properties=spanish)
    assert by_name is not None and by_name.source == "file name"  # when written: after the name
    written = note_date({"creado": "2026-11-20"}, "x.md", properties=spanish)
    assert written is not None and (written.source, written.written) == ("creado", True)


def test_a_date_from_a_named_created_property_is_no_day_the_note_records_for_consolidation() -> None:
    spanish = DateProperties(("date", "fecha"), ("created", "creado"))
    assert own_day({"fecha": "2026-11-28"}, "a.md", properties=spanish) == "2026-11-28"
    assert own_day({"creado": "2026-11-28"}, "b.md", properties=spanish) is None  # when it was written, as `created`


def test_search_and_list_by_date_find_notes_dated_by_the_vaults_own_properties(diario: Path) -> None:
    assert dated(diario, "2026-11-26", "2026-11-29") == {"Diario/Rodilla.md": "2026-11-28"}
    assert dated(diario, "2026-11-20", "2026-11-20") == {"Notas/Fisio.md": "2026-11-20T09:00:00+00:00"}
    with Vault(diario) as vault:
        listing = vault.list_notes(now=NOW, since="2026-11")
    assert [note.path for note in listing] == ["Diario/Rodilla.md", "Notas/Fisio.md"]
    result = run_cli(diario, "search", "knee", "--since", "2026-11-26", "--until", "2026-11-29", "--as-of", NOW)
    assert result.exit_code == 0 and "Diario/Rodilla.md" in result.stdout and "Notas/Fisio.md" not in result.stdout


def test_the_undated_warning_names_the_vaults_date_properties_and_the_setting(diario: Path) -> None:
    with Vault(diario) as vault:
        hits = vault.search("knee", k=10, now=NOW, since="2026-11")
    assert [warning for warning in hits.warnings if "without a date" in warning] == [
        "1 note without a date left out by since/until: a `date:` or `fecha:` property, a day in the file name or a "
        "`created:` or `creado:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)"]
    configure(diario)  # unset: the person is told where to name theirs
    with Vault(diario) as vault:
        hits = vault.search("knee", k=10, now=NOW, since="2026-11")
    assert any("a `date:` property, a day in the file name or a `created:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] "
               "names others)" in warning for warning in hits.warnings), hits.warnings


def test_explain_says_which_property_dated_the_note_or_which_named_ones_are_no_date(diario: Path) -> None:
    write_file(diario, "Notas/Plantilla.md", "---\nfecha: '{{date}}'\n---\nKnee template.\n")
    with Vault(diario) as vault:
        out = vault.explain("Diario/Rodilla.md", "knee", since="2026-11-29", now=NOW)
        undated = vault.explain("Notas/Plantilla.md", "knee", since="2026-11-01", now=NOW)
    assert any("its date is the day 2026-11-28 (from its fecha)" in reason for reason in out.reasons), out.reasons
    assert any('it has no date (fecha: "{{date}}" is not a date) — no date or fecha property, YYYY-MM-DD in its file name '
               "or created or creado property that reads as one" in reason for reason in undated.reasons), undated.reasons


# ---------------------------------------------------------------- changing the setting


def test_naming_the_properties_dates_the_notes_again_at_the_next_command_without_re_embedding(journal: Path) -> None:
    configure(journal)  # indexed as an older vaultmem, or before the setting was written
    with Vault(journal) as vault:
        vault.index()
    assert dated(journal, "2026-11-01", "2026-11-30") == {}
    configure(journal, OWN)
    with Vault(journal) as vault:
        assert vault.derived.made_under_other_rules()
        report = vault.index()
    # Any note may carry an old or a new name: every one is read again; no text changed, none re-embedded.
    assert sorted(report.updated) == ["Diario/Rodilla.md", "Notas/Fisio.md", "Notas/Sin fecha.md"] and report.embedded == 0
    assert dated(journal, "2026-11-01", "2026-11-30") == {"Diario/Rodilla.md": "2026-11-28",
                                                          "Notas/Fisio.md": "2026-11-20T09:00:00+00:00"}
    configure(journal, '[dates]\ndate = ["date", "jour"]\n')  # écrit no longer named: that note loses its date
    assert dated(journal, "2026-11-01", "2026-11-30") == {"Diario/Rodilla.md": "2026-11-28"}


def test_a_vault_open_when_the_setting_changes_dates_its_notes_by_the_new_one(journal: Path) -> None:
    """A long-lived process (the MCP server, ``watch``, a program) reads .vaultmem.toml again
    when it changes, as it does for ``exclude``: its answers follow the file."""
    configure(journal)
    with Vault(journal) as vault:
        assert [hit.path for hit in vault.search("knee", k=10, now=NOW, since="2026-11-28", until="2026-11-28")] == []
        configure(journal, OWN)
        assert [hit.path for hit in vault.search("knee", k=10, now=NOW, since="2026-11-28", until="2026-11-28")] == [
            "Diario/Rodilla.md"]


# ---------------------------------------------------------------- check


def test_check_reports_a_named_date_property_that_is_not_a_date(diario: Path) -> None:
    write_file(diario, "Notas/Roto.md", "---\nfecha: el martes\ncreado: ayer\n---\nKnee.\n")
    report = run_json(diario, "check")
    problems = {(problem["path"], problem["field"]): problem for problem in report["problems"]}
    assert set(problems) == {("Notas/Roto.md", "fecha"), ("Notas/Roto.md", "creado")}, problems
    said = problems[("Notas/Roto.md", "fecha")]
    assert said["message"].startswith("fecha is 'el martes', which is not a date: --since/--until")
    assert "or leave fecha out of [dates] in .vaultmem.toml" in said["fix"]
    assert problems[("Notas/Roto.md", "creado")]["message"].startswith("creado is 'ayer', which is not a date")
    with Vault(diario) as vault:  # as the index keeps them: the note's hits and get say it too
        assert [problem["field"] for problem in vault.get("Notas/Roto.md").problems] == ["fecha", "creado"]
    configure(diario)  # unnamed: a property like any other, nobody's date
    assert run_json(diario, "check")["problems"] == []


def test_a_named_date_property_of_another_day_than_the_daily_notes_name_is_reported_under_its_name(vault_dir: Path) -> None:
    configure(vault_dir, '[dates]\ndate = ["datum"]\n')
    write_file(vault_dir, ".obsidian/daily-notes.json", json.dumps({"folder": "Journal", "format": "DD.MM.YYYY"}))
    write_file(vault_dir, "Journal/12.10.2023.md", "---\ndatum: 2024-02-04\n---\nDonnerstag.\n")
    problems = run_json(vault_dir, "check")["problems"]
    assert [(problem["path"], problem["field"]) for problem in problems] == [("Journal/12.10.2023.md", "datum")], problems
    assert problems[0]["message"].startswith("datum is 2024-02-04, the day 2024-02-04, but the note's name is 2023-10-12")
    assert "set datum: 2023-10-12 or remove it" in problems[0]["fix"]


def test_a_running_watcher_dates_the_notes_again_when_the_setting_changes(journal: Path) -> None:
    configure(journal)

    def day(vault: Vault, path: str) -> str | None:
        row = next(row for row in vault.store.notes.all() if row.path == path)
        return None if row.dated_us is None else from_epoch_us(row.dated_us).date().isoformat()

    with Vault(journal) as vault, vault.watch(quiet=True):
        assert day(vault, "Diario/Rodilla.md") is None
        configure(journal, OWN)  # no command run: the watcher hears the settings file
        wait_until(lambda: day(vault, "Diario/Rodilla.md") == "2026-11-28", what="the note to be dated by its jour")


def test_check_says_a_date_property_holding_a_template_command_is_one_that_never_ran(diario: Path) -> None:
    # A trial: `Date-creation: <% tp.file.creation_date() %>` in a GTD note made from a Templater
    # template without Templater; check said only "write it as 2026-11-30".
    write_file(diario, ".vaultmem.toml", 'embedder = "hashing"\n[dates]\ndate = ["date", "fecha"]\n'
               'created = ["created", "creado", "Date-creation"]\n')
    write_file(diario, "Notas/GTD.md", "---\nDate-creation: <% tp.file.creation_date() %>\n---\nGTD, \n")
    write_file(diario, "Notas/Otro.md", "---\nfecha: \"{{date}}\"\n---\nKnee.\n")
    problems = {(problem["path"], problem["field"]): problem for problem in run_json(diario, "check")["problems"]}
    for said in (problems[("Notas/GTD.md", "Date-creation")], problems[("Notas/Otro.md", "fecha")]):
        assert "a template's command that never ran" in said["message"], said
        assert said["fix"].startswith("write the day it was made"), said


def test_check_names_the_day_a_date_typed_with_a_letter_o_for_a_zero_means(vault_dir: Path) -> None:
    # s43 realvault: `date: 2026-12-O2` (a capital O) in a meeting note; check's fix said "write it as
    # 2026-11-30", a day that has nothing to do with the note, as if vaultmem had guessed it.
    configure(vault_dir)
    write_file(vault_dir, "Notes/Meeting with Priya.md", "---\ndate: 2026-12-O2\n---\nCoffee with Priya.\n")
    write_file(vault_dir, "Notes/Standup.md", "---\ndate: 2O26-l1-2O\n---\nStandup.\n")
    problems = {problem["path"]: problem for problem in run_json(vault_dir, "check")["problems"]}
    assert problems["Notes/Meeting with Priya.md"]["fix"].startswith(
        "write it as 2026-12-02 (it has the letter O where a digit goes)"), problems
    assert problems["Notes/Standup.md"]["fix"].startswith(
        "write it as 2026-11-20 (it has the letters O and l where digits go)"), problems


def test_check_guesses_no_day_for_a_date_that_is_no_day_with_its_letters_read_as_digits(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Notes/Later.md", "---\ndate: 2026-13-O2\n---\nSomething.\n")
    problem = run_json(vault_dir, "check")["problems"][0]
    assert problem["fix"].startswith("write it as 2026-11-30, 2026-11-30T09:00 or [[2026-11-30]]"), problem


# ---------------------------------------------------------------- a property that holds a year
# adr/0026 "A date property that holds a year": a trial with a researcher's Zotero-imported
# vault, whose papers say `date: 2011` (or `year: 2011`, with [dates] date = ["year"]).

PAPERS = {
    "literature/@Bell1985.md": "---\ncitekey: Bell1985\nyear: 1985\nadded: 2026-05-29\n---\nDisappointment in decisions.\n",
    "literature/@Gul1991.md": "---\ncitekey: Gul1991\nyear: '1991'\nadded: 2026-05-30\n---\nDisappointment aversion.\n",
    "literature/@Koszegi2006b.md": "---\ncitekey: Koszegi2006b\nyear: 2006\nadded: 2026-05-30\n---\nDisappointment and expectations.\n",
}


@pytest.mark.parametrize(("value", "period", "first"), [(2011, "2011", "2011-01-01"), ("'2011'", "2011", "2011-01-01"),
                                                        ("2011-03", "2011-03", "2011-03-01"),
                                                        ("2026-W09", "2026-W09", "2026-02-23"),
                                                        ("2026-Q1", "2026-Q1", "2026-01-01")])
def test_a_date_property_holding_a_year_or_another_period_dates_the_note_as_that_span(
        value: object, period: str, first: str) -> None:
    """Was: `date: 2011` "is 2011, which is not a date" — a problem on every imported paper, and
    the paper out of every search by date, though --since 2011 reads that year."""
    import yaml

    found = note_date(yaml.safe_load(f"date: {value}"), "papers/Some paper.md")
    assert found is not None and found.span is not None
    assert (found.span.name, found.moment.date().isoformat(), found.source) == (period, first, "date")


@pytest.mark.parametrize("value", ["20110101", "'2026-W54'", "'2026-03 Budget'", "2026.5", "'0000'", "true"])
def test_a_date_property_holding_no_period_is_still_not_a_date(value: str) -> None:
    import yaml

    assert note_date(yaml.safe_load(f"date: {value}"), "papers/Some paper.md") is None


def test_papers_dated_by_their_year_are_listed_and_searched_by_year_and_check_is_quiet(vault_dir: Path) -> None:
    configure(vault_dir, '[dates]\ndate = ["year"]\ncreated = ["added", "created"]\n')
    for relative, text in PAPERS.items():
        write_file(vault_dir, relative, text)
    assert run_json(vault_dir, "check")["problems"] == []  # was: "year is 1985, which is not a date" on each
    with Vault(vault_dir) as vault:
        listing = vault.list_notes(now=NOW, since="1985", until="1992")
        assert [(note.path, note.date) for note in listing] == [("literature/@Gul1991.md", "1991"),
                                                                 ("literature/@Bell1985.md", "1985")]
        hits = vault.search("disappointment", k=5, now=NOW, since="2006", until="2006")
    assert [hit.path for hit in hits] == ["literature/@Koszegi2006b.md"]
    listed = run_cli(vault_dir, "list", "--since", "1985", "--until", "1992", "--as-of", NOW)
    assert listed.exit_code == 0 and listed.stdout.startswith("1991        ")


def test_year_is_no_date_property_until_the_vault_names_it(vault_dir: Path) -> None:
    """Guard: a paper's year is not the day its note was written; vaultmem guesses no names."""
    configure(vault_dir)
    for relative, text in PAPERS.items():
        write_file(vault_dir, relative, text)
    with Vault(vault_dir) as vault:
        assert vault.list_notes(now=NOW, since="1985", until="1992") == []


KINDLE_BOOK = ("---\nkindle-sync:\n  bookId: '18394'\n  title: Man's Search for Meaning\n  author: Viktor E. Frankl\n"
               "  lastAnnotatedDate: '{day}'\n  highlightsCount: 21\n---\n# {title}\n\n## Highlight\n\n{text}\n")


def test_a_dotted_name_reaches_a_date_inside_a_mapping_property(vault_dir: Path) -> None:
    """The Kindle Highlights plugin keeps a book's only date inside its ``kindle-sync:`` block
    (a trial): ``date = ["kindle-sync.lastAnnotatedDate"]`` dates the notes by it, for list and
    explain; a top-level property of the whole dotted name still wins."""
    configure(vault_dir, '[dates]\ndate = ["kindle-sync.lastAnnotatedDate"]\n')
    write_file(vault_dir, "Books/Frankl.md", KINDLE_BOOK.format(day="2019-05-21", title="Man's Search", text="Suffering and meaning."))
    write_file(vault_dir, "Books/Walden.md", KINDLE_BOOK.format(day="2022-07-02", title="Walden", text="Quiet desperation."))
    listed = run_json(vault_dir, "list", "--since", "2019", "--until", "2019", "--json")
    assert [note["path"] for note in listed["notes"]] == ["Books/Frankl.md"]  # type: ignore[index]
    explained = run_cli(vault_dir, "explain", "Books/Walden", "desperation", "--since", "2019", "--until", "2019").output
    assert "its date is the day 2022-07-02 (from its kindle-sync.lastAnnotatedDate)" in explained
    properties = DateProperties(date=("kindle-sync.lastAnnotatedDate",))
    both = {"kindle-sync.lastAnnotatedDate": "2020-01-01", "kindle-sync": {"lastAnnotatedDate": "2019-05-21"}}
    found = note_date(both, "Books/x.md", properties=properties)
    assert found is not None
    assert found.moment.date().isoformat() == "2020-01-01"
    assert note_date({"kindle-sync": "2019-05-21"}, "Books/x.md", properties=properties) is None  # no mapping: no path


def test_check_reports_a_dotted_date_property_that_is_not_a_date(vault_dir: Path) -> None:
    configure(vault_dir, '[dates]\ndate = ["kindle-sync.lastAnnotatedDate"]\n')
    write_file(vault_dir, "Books/Frankl.md", KINDLE_BOOK.format(day="someday", title="Man's Search", text="Meaning."))
    output = run_cli(vault_dir, "check").output
    assert "kindle-sync.lastAnnotatedDate is 'someday', which is not a date" in output


def test_a_created_in_words_that_dates_the_note_is_no_check_problem_and_a_bad_one_gives_its_fix_once(vault_dir: Path) -> None:
    # A trial: `created: Sunday, January 5, 2026 at 8:15 PM` dated the note on 2026-01-05, while
    # check called it an invalid timestamp and said the fix twice ("use ISO-8601 such as ..." in
    # the message, "write an ISO date such as ..." as the fix).
    worded = "Sunday, January 5, 2026 at 8:15 PM"
    write_file(vault_dir, "Dinner.md", f"---\ncreated: {worded}\n---\nDinner with Ana.\n")
    write_file(vault_dir, "memories/plan.md", f"---\nlayer: L2\ncreated: {worded}\n---\nThe dinner plan.\n")
    write_file(vault_dir, "Knee.md", "---\ncreated: last tuesday\n---\nKnee.\n")
    dated = note_date({"created": worded}, "Dinner.md")
    assert dated is not None and dated.moment.date().isoformat() == "2026-01-05"
    problems = run_json(vault_dir, "check")["problems"]
    assert [problem["path"] for problem in problems if problem["field"] == "created"] == ["Knee.md"], problems
    [knee] = [problem for problem in problems if problem["field"] == "created"]
    assert "ISO" not in knee["message"] and knee["fix"].startswith("write an ISO date"), knee
    # check --fix counts the memory's TTL from that day too, not from the file's time.
    run_cli(vault_dir, "check", "--fix")
    assert "expires_at: 2026-01-12T00:00:00+00:00\n" in (vault_dir / "memories/plan.md").read_text(encoding="utf-8")


def test_check_says_a_created_holding_a_templater_command_is_one_that_never_ran(diario: Path) -> None:
    # A trial: a daily note made from a Templater template without Templater running kept
    # `created: <% tp.file.creation_date("YYYY-MM-DD") %>`, and check said only "invalid timestamp".
    write_file(diario, "Daily/2024-01-15.md", "---\ncreated: <% tp.file.creation_date(\"YYYY-MM-DD\") %>\ntags: [daily]\n"
               "---\n# <% tp.date.now(\"dddd, MMMM D\") %>\n\nRead chapter 3.\n")
    write_file(diario, "Daily/2024-01-16.md", "---\ncreated: last tuesday\n---\nKnee.\n")
    problems = {(problem["path"], problem["field"]): problem for problem in run_json(diario, "check")["problems"]}
    said = problems[("Daily/2024-01-15.md", "created")]
    assert "a template's command that never ran" in said["message"], said
    assert "Replace templates in the active file" in said["fix"], said
    plain = problems[("Daily/2024-01-16.md", "created")]
    assert "never ran" not in plain["message"] and plain["fix"].startswith("write an ISO date"), plain


def test_stale_counts_from_a_configured_created_name_beside_a_date(vault_dir: Path) -> None:
    """A trial (s37): `[dates] created = ["creado", "created"]` dated notes by `creado:` for search,
    but the index's `created_us` read `created` alone: a note with `fecha:` (what day it is about)
    and `creado:` (when it was written) was judged by its file's time, which a copy resets."""
    configure(vault_dir, '[dates]\ndate = ["date", "fecha"]\ncreated = ["creado", "created"]\n')
    reunion = write_file(vault_dir, "Reunión.md", "---\nfecha: 2026-11-20\ncreado: 2024-01-05\n---\nNotas de la reunión.\n")
    moment = from_epoch_us(1_796_000_000_000_000).timestamp()  # 2026-11-30: saved the day before NOW
    os.utime(reunion, (moment, moment))
    with Vault(vault_dir) as vault:
        vault.index()
        stale = {note.path: note for note in vault.stale(days=30, now=NOW)}
        assert stale["Reunión.md"].basis == "created", stale
        assert stale["Reunión.md"].since.startswith("2024-01-05"), stale["Reunión.md"]
