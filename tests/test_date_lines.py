"""A note dated by a line at its top (date_lines.py, dating.line_date; adr/0026 "A date line at
the note's top"): `Date de création : 2026-04-23` under the title, as notes made from templates
carry it in every language — read only in the opening block, only when nothing else dates the note."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli, write_file

from vaultmem import Vault
from vaultmem.config import CONFIG_FILE
from vaultmem.dating import DateProperties, note_date, own_day

NOW = "2026-12-01T12:00:00+00:00"


def configure(root: Path, extra: str = "") -> None:
    write_file(root, CONFIG_FILE, 'embedder = "hashing"\n' + extra)


def listed(root: Path, since: str = "1990") -> dict[str, str | None]:
    """``list --since`` through the API in a fresh Vault (one command): each listed note's date."""
    with Vault(root) as vault:
        return {note.path: note.date for note in vault.list_notes(k=100, now=NOW, since=since)}


# Each as a real vault's template writes it, in each language month_names.py reads.
LANGUAGE_FORMS = {
    "french.md": ("# Argent\n\n#finance #épargne\n\nDate de création : 2026-04-23\nLiens : [[Vision2030]]\n\n---\n\n"
                  "## Budget\n", "2026-04-23"),
    "french-italic.md": ("# Mail — Réclamations\n_Date : 14 novembre 2025_\n_Interlocutrice : Delphine_\n\n---\n", "2025-11-14"),
    "french-bold.md": ("# Rapport d'intervention\n\n**Date** : 09 avril 2026\n**Site** : KERJESQUEL\n", "2026-04-09"),
    "english-created.md": ("# Kickoff\nCreated: 2024-01-05\nTags: #work\n\nWe met the client.\n", "2024-01-05"),
    "english-link.md": ("# Standup\nDate: [[2024-01-06]]\n\nNotes.\n", "2024-01-06"),
    "english-bold-worded.md": ("# Retro\n**Date:** 7 January 2024\n**Attendees:** Ann, Bo\n\nWhat went well.\n", "2024-01-07"),
    "english-list.md": ("# Plan\n- Date: 2024-01-08\n- Owner: Ann\n\nThe plan.\n", "2024-01-08"),
    "dataview.md": ("# Idea\ncreated:: 2024-01-09\n\nAn idea.\n", "2024-01-09"),
    "spanish.md": ("# Reunión\nFecha: 05/02/2024\n\nAcuerdos.\n", "2024-02-05"),
    "spanish-created.md": ("# Receta\n*Fecha de creación:* 6 de febrero de 2024\n\nHarina.\n", "2024-02-06"),
    "german.md": ("# Besprechung\nErstellt am: 07.02.2024\n\nProtokoll.\n", "2024-02-07"),
    "german-datum.md": ("# Tagebuch\nDatum: 8. Februar 2024\n\nHeute.\n", "2024-02-08"),
    "russian.md": ("# Встреча\nСоздано: 2024-02-09\n\nИтоги.\n", "2024-02-09"),
    "russian-worded.md": ("# Дневник\nДата: 10 февраля 2024\n\nСегодня.\n", "2024-02-10"),
    "ukrainian.md": ("# Нотатка\nСтворено: 11.02.2024\n\nТекст.\n", "2024-02-11"),
    "portuguese.md": ("# Reunião\nData de criação: 12/02/2024\n\nTexto.\n", "2024-02-12"),
    "italian.md": ("# Riunione\nCreato il: 13/02/2024\n\nTesto.\n", "2024-02-13"),
    "turkish.md": ("# Toplantı\nOluşturulma tarihi: 14.02.2024\n\nMetin.\n", "2024-02-14"),
    "unaccented.md": ("# Sante\nDate de creation : 2024-02-15\n\nTexte.\n", "2024-02-15"),
    "after-frontmatter.md": ("---\ntags: [projet]\n---\n# Projet\nDate : 2024-02-16\n\nTexte.\n", "2024-02-16"),
}


def test_a_date_line_at_the_top_dates_the_note_in_each_language_form(vault_dir: Path) -> None:
    configure(vault_dir)
    for name, (text, _) in LANGUAGE_FORMS.items():
        write_file(vault_dir, name, text)
    assert listed(vault_dir) == {name: day for name, (_, day) in LANGUAGE_FORMS.items()}


def test_the_french_vaults_notes_are_found_by_list_since_and_search_by_date(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Travail.md", "# Travail\n\n#travail #labocea\n\nDate de création : 2026-04-23\n"
               "Liens : [[Vision2030]] | [[Argent]]\n\n---\n\n## Poste officiel\n\nTechnicien préleveur.\n")
    result = run_cli(vault_dir, "list", "--since", "2026-04", "--until", "2026-04")
    assert result.exit_code == 0, result.output
    assert "2026-04-23  Travail" in result.stdout, result.output
    with Vault(vault_dir) as vault:
        hits = vault.search("préleveur", k=5, now=NOW, since="2026-04-23", until="2026-04-23")
    assert [hit.path for hit in hits] == ["Travail.md"]
    assert hits[0].date == "2026-04-23"


def test_a_line_in_prose_or_below_it_does_not_date_the_note(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "top.md", "# Offsite\nDate: 2024-05-05\n\nWe met.\n")  # the rule is on: this one is dated
    write_file(vault_dir, "prose.md", "# Offsite\nWe talked for hours.\nthe date: 2024-05-05 we agreed on.\n")
    write_file(vault_dir, "paragraph.md", "We talked for hours about the offsite.\n\nDate: 2024-05-05\n")
    write_file(vault_dir, "subheading.md", "# Offsite\n## Details\nDate: 2024-05-05\n")
    write_file(vault_dir, "below-rule.md", "# Offsite\n\n---\n\nDate: 2024-05-05\n")
    write_file(vault_dir, "deep.md", "# Offsite\n" + "Key: value\n" * 20 + "Date: 2024-05-05\n")
    assert listed(vault_dir) == {"top.md": "2024-05-05"}


def test_a_date_line_after_a_symbol_or_under_the_heading_the_note_opens_with_dates_it(vault_dir: Path) -> None:
    configure(vault_dir)
    # As the Spanish journal (minguitof/300-days-of-code) writes its day: a `##` heading, then emoji lines.
    write_file(vault_dir, "039-day.md", "## 🚀 Día 15 – Bitácora de Reinicio\n\n📆 Fecha: 2025-07-12  \n"
               "🧠 Estado mental/emocional: Reflexivo, estable.  \n💤 Sueño: Dormí mejor.  \n\n---\n\n### ✨ Logros\n")
    write_file(vault_dir, "calendar.md", "# Call\n🗓️ Date: 2024-01-05\n\nNotes.\n")  # with its variation selector
    write_file(vault_dir, "alarm.md", "⏰ Created: 2024-01-06\n\nText.\n")
    write_file(vault_dir, "bold.md", "# Retro\n- 📅 **Date:** 7 January 2024\n")
    write_file(vault_dir, "third-level.md", "### Standup\nDate: 2024-01-08\n\nNotes.\n")
    assert listed(vault_dir) == {"039-day.md": "2025-07-12", "calendar.md": "2024-01-05", "alarm.md": "2024-01-06",
                                 "bold.md": "2024-01-07", "third-level.md": "2024-01-08"}


def test_a_tasks_due_date_or_a_section_under_a_second_heading_does_not_date_the_note(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "top.md", "## Offsite\n📅 Date: 2024-05-05\n")  # the rule is on: this one is dated
    write_file(vault_dir, "task.md", "# Chores\n- [ ] pay rent 📅 2026-12-05\n")  # the Tasks plugin's due date
    write_file(vault_dir, "task-first.md", "- [ ] pay rent 📅 2026-12-05\nDate: 2024-05-05\n")
    write_file(vault_dir, "bare-emoji.md", "# Chores\n📅 2026-12-05\n")  # no label: not a date line
    write_file(vault_dir, "two-headings.md", "## Offsite\n### Details\n📆 Date: 2024-05-05\n")
    write_file(vault_dir, "after-a-label.md", "Owner: Ann\n## Details\nDate: 2024-05-05\n")
    write_file(vault_dir, "prose.md", "## Offsite\nWe talked for hours.\n📆 Date: 2024-05-05\n")
    assert listed(vault_dir) == {"top.md": "2024-05-05"}


def test_a_label_that_is_no_date_word_or_a_value_that_is_no_day_does_not_date_the_note(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "dated.md", "# Tasks\nCréé le : 2026-05-01\n")
    write_file(vault_dir, "updated.md", "# Tasks\n_Mis à jour : 2026-05-05_\nUpdated: 2026-05-05\nDue: 2026-05-07\n")
    write_file(vault_dir, "placeholder.md", "# Fiche\n**Date** : [DATE] · **Opérateur** : [OP]\n")
    write_file(vault_dir, "template.md", "# Meeting\nDate: {{date}}\n\nAgenda.\n")
    assert listed(vault_dir) == {"dated.md": "2026-05-01"}


def test_a_day_and_month_in_numbers_are_read_day_first_only_by_a_label_whose_language_says_so(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "english.md", "# Call\nDate: 05/01/2024\n")  # 5 January or 1 May: not guessed
    write_file(vault_dir, "english-one-order.md", "# Call\nDate: 14/09/2026\n")  # no 14th month: one day
    write_file(vault_dir, "german.md", "# Anruf\nDatum: 05.01.2024\n")
    write_file(vault_dir, "no-day.md", "# Anruf\nDatum: 31.02.2024\n")
    assert listed(vault_dir) == {"english-one-order.md": "2026-09-14", "german.md": "2024-01-05"}


def test_a_property_and_a_name_still_win_over_a_date_line(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "by-date.md", "---\ndate: 2024-03-01\n---\n# A\nDate: 2024-01-05\n")
    write_file(vault_dir, "by-created.md", "---\ncreated: 2024-03-02\n---\n# B\nDate: 2024-01-05\n")
    write_file(vault_dir, "2024-03-03 Standup.md", "# C\nDate: 2024-01-05\n")
    write_file(vault_dir, "by-line.md", "---\ndate: '{{date}}'\n---\n# D\nDate: 2024-01-05\n")  # a property that is no date
    assert listed(vault_dir) == {"by-date.md": "2024-03-01", "by-created.md": "2024-03-02",
                                 "2024-03-03 Standup.md": "2024-03-03", "by-line.md": "2024-01-05"}


def test_a_date_line_is_read_before_a_created_line_as_a_date_property_is() -> None:
    body = "# Meeting\nCreated: 2024-01-01\nDate: {{date}}\nDate: 2024-01-05\n"
    found = note_date({}, "a.md", body=body)
    assert found is not None
    assert (found.moment.date().isoformat(), found.source, found.written) == (
        "2024-01-05", "`Date` line", False)
    created = note_date({}, "b.md", body="# Meeting\nCreated: 2024-01-01\n")
    assert created is not None
    assert (created.source, created.written, created.day) == ("`Created` line", True, True)


def test_a_date_line_is_the_notes_own_day_for_consolidation_and_a_created_line_is_not() -> None:
    assert own_day({}, "a.md", body="# Weekly\nDate: 2024-01-05\n") == "2024-01-05"
    assert own_day({}, "b.md", body="# Weekly\nCreated: 2024-01-05\n") is None


def test_the_vaults_dates_setting_names_date_line_labels_too(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "jour.md", "# Journal\nJour : 2024-01-05\n")
    write_file(vault_dir, "ajout.md", "# Idée\nAjouté : 2024-01-06\n")
    assert listed(vault_dir) == {}
    configure(vault_dir, '[dates]\ndate = ["date", "jour"]\ncreated = ["created", "ajouté"]\n')
    assert listed(vault_dir) == {"jour.md": "2024-01-05", "ajout.md": "2024-01-06"}  # re-dated at the next command
    properties = DateProperties(("date", "jour"), ("created", "ajouté"))
    written = note_date({}, "ajout.md", properties=properties, body="# Idée\nAjouté : 2024-01-06\n")
    assert written is not None
    assert written.written


def test_explain_says_a_date_line_dated_the_note(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Santé.md", "# Santé\n\n#santé #sport\n\nDate de création : 2026-04-23\n\nZone 2 rowing.\n")
    with Vault(vault_dir) as vault:
        out = vault.explain("Santé.md", "rowing", since="2026-05-01", now=NOW)
    assert any("its date is the day 2026-04-23 (from its `Date de création` line)" in reason for reason in out.reasons), out.reasons


def test_check_reports_nothing_about_date_lines(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "a.md", "# A\n\n#tag\n\nDate de création : 2026-04-23\nLiens : [[B]]\n\n---\n\nText.\n")
    write_file(vault_dir, "b.md", "# B\nDate: {{date}}\nCreated: 05/01/2024\n\nText.\n")
    result = run_cli(vault_dir, "check")
    assert result.exit_code == 0, result.output
    assert "a.md" not in result.output, result.output
    assert "b.md" not in result.output, result.output


@pytest.mark.parametrize("body", ["", "Plain prose from the first line.\n", "# Title\n\nProse.\n" * 2000])
def test_a_note_without_an_opening_block_is_not_dated_by_its_text(body: str) -> None:
    assert note_date({}, "x.md", body=body) is None


# YARLE's default template (its test data's `test-justText.md`): the note's text, then when it was
# created and updated, indented, at its end.
YARLE_DEFAULT = ("# Boiler service\n\nVaillant ecoTEC serviced by HeatRight, contract HR-20931.\n\n"
                 "    Created at: 2025-10-03T09:12:00+02:00\n    Updated at: 2025-10-05T10:00:00+02:00\n\n")


def test_an_evernote_note_exported_by_yarle_is_dated_by_the_created_line_that_ends_it(vault_dir: Path) -> None:
    """Every note of an Evernote export made with YARLE's default template was undated: left out of
    `list --since` and every search by date, though each ends with `Created at: …`."""
    configure(vault_dir)
    write_file(vault_dir, "Evernote/Boiler service.md", YARLE_DEFAULT)
    write_file(vault_dir, "own-created.md", "---\ncreated: 2020-01-01\n---\n" + YARLE_DEFAULT)  # its property wins
    write_file(vault_dir, "in-prose.md", "We serviced the boiler.\nCreated at: 2025-10-03\n")  # the last paragraph's
    write_file(vault_dir, "closing-date.md", "Signed by both parties.\n\nDate: 2025-10-03\n")  # a letter's day: not read
    write_file(vault_dir, "long.md", "Prose.\n\n" + "Key: value\n" * 9 + "Created at: 2025-10-03\n")  # no closing block
    assert listed(vault_dir) == {"Evernote/Boiler service.md": "2025-10-03T09:12:00+02:00", "own-created.md": "2020-01-01"}
    with Vault(vault_dir) as vault:
        [hit] = vault.search("boiler contract", k=1, now=NOW, since="2025-10-01", until="2025-10-31")
    assert hit.path == "Evernote/Boiler service.md"


def test_an_obsidian_footer_under_a_rule_is_a_closing_block_and_frontmatter_never_is(vault_dir: Path) -> None:
    """s36: a note that ends with a rule and its created line (``---`` / ``Created: 2026-03-01``, as
    Obsidian users write a footer) was undated, while YARLE's, under a blank line, was read. A rule
    counts as the block's edge only under a blank line with text above it: ``---`` right under a
    line is that line's heading (setext), and one with nothing above it is a frontmatter fence."""
    configure(vault_dir)
    files = {
        "Footer.md": "# Boiler\n\nServiced by HeatRight.\n\n---\nCreated: 2026-03-01\n",
        "Stars.md": "Serviced.\n\n***\nCreated at: 2026-03-02 09:12\nUpdated at: 2026-03-05 10:00\n",
        "Own property.md": "---\ncreated: 2020-01-01\n---\nServiced.\n\n---\nCreated: 2026-03-01\n",
        # Not read:
        "Setext.md": "# Boiler\n\nServiced.\n---\nCreated: 2026-03-01\n",  # `Serviced.` is an h2 heading
        "Unclosed.md": "---\ntitle: Boiler\nCreated: 2026-03-01\n",  # frontmatter whose fence never closes: check says so
        "Rule first.md": "\n---\nCreated: 2026-03-01\n",  # nothing above the rule: a fence, not a footer
        "Fenced.md": "Serviced.\n\n---\ncreated: 2026-03-01\ntags: [boiler]\n---\n",  # a YAML block, closed
        "Letter.md": "Signed by both parties.\n\n---\nDate: 2026-03-01\n",  # a closing day is a letter's
    }
    for relative, text in files.items():
        write_file(vault_dir, relative, text)
    assert listed(vault_dir) == {"Footer.md": "2026-03-01", "Stars.md": "2026-03-02T09:12", "Own property.md": "2020-01-01"}
    with Vault(vault_dir) as vault:
        problems = {problem.path for problem in vault.check().problems}
    assert "Footer.md" not in problems
    assert "Stars.md" not in problems
    assert "Unclosed.md" in problems  # "opened with --- but never closed", with its fix: not read as a footer


def test_a_closing_created_line_that_is_a_sentence_does_not_date_the_note(vault_dir: Path) -> None:
    """A meeting note whose last paragraph is `Created: a new repo for the 2024-01-01 release` was
    dated as written on that release day: a closing block is read for what a template or an exporter
    writes there, a day and its time alone, not a day a sentence names."""
    configure(vault_dir)
    write_file(vault_dir, "Standup.md", "# Standup\n\nWe agreed on the plan.\n\nCreated: a new repo for the 2024-01-01 release\n")
    write_file(vault_dir, "Tickets.md", "# Triage\n\nThree bugs.\n\nCreated at: 3 tickets, due May 4, 2023\n")
    write_file(vault_dir, "Worded.md", "# Boiler\n\nServiced.\n\nCreated at: Sunday, January 5, 2026 at 8:15 PM\n")
    write_file(vault_dir, "Linked.md", "# Boiler\n\nServiced.\n\nCreated: [[2025-10-04]]\nUpdated: 2025-10-05 10:00\n")
    write_file(vault_dir, "Stamped.md", "# Boiler\n\nServiced.\n\nCreated at: 2025-10-03 09:12 UTC\n")
    assert listed(vault_dir) == {"Worded.md": "2026-01-05", "Linked.md": "2025-10-04", "Stamped.md": "2025-10-03"}
