"""Tasks, not notes (tasks.py, storage/tasks.py, task_dates.task_lines; adr/0026 "Tasks"): a
derived ``tasks`` table filled with each note, ``Vault.tasks``, CLI ``tasks``, MCP ``list_tasks``."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from helpers import run_cli, write_file, write_vault
from mcp_client import run, serve
from vaultmem import Vault
from vaultmem.dating import since_bound, until_bound
from vaultmem.errors import UsageError
from vaultmem.task_dates import TaskLine, task_days, task_lines

CONFIG = 'embedder = "hashing"\n'
NOW = "2025-12-10T12:00:00+00:00"  # a Wednesday
ACME = ("---\ntags: [client/acme]\n---\n# Acme\n\n"
        "- [ ] Send the proposal 📅 2025-12-16 #sales\n"
        "- [x] Kickoff call 📅 2025-12-15 ✅ 2025-12-16\n"
        "- [/] Draft the contract ⏳ 2025-12-09 📅 2025-12-08\n"
        "- [-] Old plan ❌ 2025-12-01\n"
        "- [ ] Weekly report 🔁 every week when done 📅 2025-12-12\n")
DAILY = ("- [ ] Call Dana [due:: 2025-12-17]\n"
         "- [x] Paid the rent [completion:: 2025-12-16]\n"
         "- [ ] Buy milk\n"
         "```tasks\nnot done\n- [ ] a query's example 📅 2025-12-11\n```\n"
         "%% - [ ] a hidden draft 📅 2025-12-11 %%\n")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Projects/Acme.md": ACME, "Daily/2025-12-09.md": DAILY})


def listed(root: Path, **asked: object) -> list[tuple[str, int]]:
    with Vault(root) as opened:
        return [(task.path, task.line) for task in opened.tasks(now=NOW, **asked)]  # type: ignore[arg-type]


def table_rows(root: Path) -> list[tuple[object, ...]]:
    """Every row of the tasks table with its note's path in place of its label, in order."""
    with sqlite3.connect(root / ".vaultmem" / "index.db") as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(tasks)") if row[1] != "note_label"]
        query = (f"SELECT notes.path, {', '.join('tasks.' + column for column in columns)} FROM tasks "
                 "JOIN notes ON notes.label = tasks.note_label ORDER BY notes.path, tasks.line")
        return list(db.execute(query))


def test_a_task_line_is_read_with_its_box_words_days_recurrence_and_tags() -> None:
    body = ("intro\n- [ ] Call Dana 📅 2024-03-15 ⏳ 2024-03-10 🔁 every week #client/acme\n"
            "> * [x] Sent ✅ 2024-03-16 [due:: 2024-03-14] (repeat:: every month)\r\n"
            "- [?] Ask about 2025-02-30 📅 2025-02-30\n")
    assert task_lines(body, body_line=3) == [
        TaskLine(4, " ", "Call Dana #client/acme", {"due": date(2024, 3, 15), "scheduled": date(2024, 3, 10)},
                 "every week", ("client/acme",)),
        TaskLine(5, "x", "Sent", {"done": date(2024, 3, 16), "due": date(2024, 3, 14)}, "every month", ()),
        TaskLine(6, "?", "Ask about 2025-02-30", {}, None, ()),  # no such day; an unknown box is open
    ]
    assert [task.status for task in task_lines("- [ ] a\n- [X] b\n- [-] c\n- [/] d\n- [>] e\n")] == [
        "open", "done", "cancelled", "open", "open"]


def test_no_task_is_read_from_code_a_tasks_query_block_a_comment_or_a_list_item_without_a_box() -> None:
    body = ("- plain item 📅 2025-12-11\n```\n- [ ] example\n```\n```tasks\nnot done\n- [ ] in the query\n```\n"
            "%% - [ ] hidden %%\n<!-- - [ ] html comment -->\n`- [ ] inline code`\n")
    assert task_lines(body) == []


def test_roam_researchs_todo_and_done_markers_are_open_and_done_tasks() -> None:
    """Was (a trial on a Roam Research export): `- {{[[TODO]]}} 学习[[Nginx]]` is how Roam's
    Markdown export writes a task, and `tasks` answered "No tasks" over eight of them."""
    body = ("- {{[[TODO]]}} 学习[[Nginx]]\n    - {{[[DONE]]}} 完成文稿 📅 2020-08-09 #upPlan\n- {{TODO}} short form\n"
            "- {{[[query]]: {and: [[TODO]]}}}\n- a {{[[TODO]]}} mid-line\n```\n- {{[[TODO]]}} in code\n```\n")
    assert task_lines(body) == [
        TaskLine(1, " ", "学习[[Nginx]]", {}, None, ()),
        TaskLine(2, "x", "完成文稿 #upPlan", {"due": date(2020, 8, 9)}, None, ("upPlan",)),
        TaskLine(3, " ", "short form", {}, None, ()),
    ]
    assert [task.status for task in task_lines(body)] == ["open", "done", "open"]


def test_a_roam_marker_with_a_stray_brace_is_still_the_task_it_says() -> None:
    """Was (a trial on a Roam export): `- {{{[[DONE]]}}}} Reeder 4限免了` (a block edited by hand
    around its marker) was no task at all; the words after the marker read as one. A marker with
    no words after it, or one braced by a query, stays no task."""
    body = ("- {{{[[DONE]]}}}} Reeder 4限免了 #[[app deals]]\n- {{[[TODO]]}}} 学习[[Netty]]\n- {{{[[DONE]]}}}}\n"
            "- {{[[query]]: {and: [[DONE]]}}}}\n")
    assert task_lines(body) == [
        TaskLine(1, "x", "Reeder 4限免了 #[[app deals]]", {}, None, ("app deals",)),
        TaskLine(2, " ", "学习[[Netty]]", {}, None, ()),
    ]


def test_roam_tasks_are_listed_by_the_tasks_surface(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG,
                                            "August 3rd, 2020.md": "- {{[[TODO]]}} 学习[[Netty]]\n- {{[[DONE]]}} Reeder 4限免了\n"})
    assert listed(root) == [("August 3rd, 2020.md", 1)]
    assert listed(root, status="done") == [("August 3rd, 2020.md", 2)]


LOGSEQ_JOURNAL = ("- TODO-list\n"
                  "\t- LATER Reread abstract algebra Galois theory part.\n"
                  "\t  :LOGBOOK:\n\t  CLOCK: [2022-12-15 Thu 09:47:52]\n\t  :END:\n"
                  "\t\t- No need to understand everything.\n"
                  "\t- LATER Try extensions for toric code ((639a7c9d-c8af-411a-9b3e-45e5cc6792af))\n"
                  "- NOW [#A] Write up the toric code count\n  SCHEDULED: <2022-12-16 Fri>\n  DEADLINE: <2022-12-20 Tue>\n"
                  "- DONE Read Kitaev's anyon paper\n- CANCELED Ask about the seminar\n- TODO\n"
                  "- the TODO word mid-line\n```\n- TODO in code\n```\n")


def test_logseq_task_markers_are_tasks_with_their_scheduled_and_deadline_days() -> None:
    """Was (s40, a public Logseq graph): a journal's ``- LATER …`` blocks and a page's ``- TODO
    Read Schwartz`` were no tasks, and ``tasks`` said "no tasks" over the graph."""
    assert task_lines(LOGSEQ_JOURNAL, logseq=True) == [
        TaskLine(2, " ", "Reread abstract algebra Galois theory part.", {}, None, ()),
        TaskLine(7, " ", "Try extensions for toric code", {}, None, ()),
        TaskLine(8, "/", "[#A] Write up the toric code count", {"scheduled": date(2022, 12, 16), "due": date(2022, 12, 20)},
                 None, ()),
        TaskLine(11, "x", "Read Kitaev's anyon paper", {}, None, ()),
        TaskLine(12, "-", "Ask about the seminar", {}, None, ()),
    ]
    assert [task.status for task in task_lines(LOGSEQ_JOURNAL, logseq=True)] == ["open", "open", "open", "done", "cancelled"]


def test_logseq_task_markers_are_tasks_in_a_graph_only(tmp_path: Path) -> None:
    """In a graph (``logseq/config.edn``) ``tasks`` lists them; in any other vault "- TODO list for
    the trip" stays words, as before."""
    graph = write_vault(tmp_path / "graph", {".vaultmem.toml": CONFIG, "logseq/config.edn": "{:meta/version 1}\n",
                                             "journals/2022_12_15.md": LOGSEQ_JOURNAL})
    assert listed(graph) == [("journals/2022_12_15.md", 8), ("journals/2022_12_15.md", 2), ("journals/2022_12_15.md", 7)]
    assert listed(graph, status="done") == [("journals/2022_12_15.md", 11)]
    plain = write_vault(tmp_path / "plain", {".vaultmem.toml": CONFIG, "journals/2022_12_15.md": LOGSEQ_JOURNAL})
    assert listed(plain) == []


def test_open_tasks_come_by_due_day_then_path_and_line_with_their_note_and_days(vault: Path) -> None:
    with Vault(vault) as opened:
        found = opened.tasks(now=NOW)
    assert [(task.path, task.line, task.status, task.text) for task in found] == [
        ("Projects/Acme.md", 8, "open", "Draft the contract"),  # [/] in progress is open
        ("Projects/Acme.md", 10, "open", "Weekly report"),
        ("Projects/Acme.md", 6, "open", "Send the proposal #sales"),
        ("Daily/2025-12-09.md", 1, "open", "Call Dana"),
        ("Daily/2025-12-09.md", 3, "open", "Buy milk"),  # no due day: last
    ]
    first = found[0].as_dict()
    assert (first["title"], first["box"], first["dates"]) == ("Acme", "/", {"due": "2025-12-08", "scheduled": "2025-12-09"})
    assert found[1].recurrence == "every week when done"
    assert found.more == 0 and found.warnings == []


def test_a_done_bound_asks_for_done_tasks_and_an_open_status_beside_it_is_refused(vault: Path) -> None:
    # "What did I finish on the 16th": the Tasks plugin's ✅ and Dataview's completion field.
    assert listed(vault, done_since="2025-12-16", done_until="2025-12-16") == [("Projects/Acme.md", 7), ("Daily/2025-12-09.md", 2)]
    assert listed(vault, status="done", done_since="2025-12-17") == []
    with Vault(vault) as opened, pytest.raises(UsageError, match="done_since/done_until ask for done tasks, not open ones"):
        opened.tasks(status="open", done_since="2025-12-16", now=NOW)


def test_every_status_is_asked_for_by_name_and_an_unknown_one_is_refused(vault: Path) -> None:
    assert listed(vault, status="cancelled") == [("Projects/Acme.md", 9)]
    assert len(listed(vault, status="all")) == 8
    with Vault(vault) as opened, pytest.raises(UsageError, match="status 'finished' is not a task status: give one of open, done"):
        opened.tasks(status="finished", now=NOW)


def test_overdue_is_the_open_tasks_due_before_today(vault: Path) -> None:
    # The kickoff call (due the 15th) is done, the 10th is today: only the contract (due the 8th) is late.
    assert listed(vault, status="overdue") == [("Projects/Acme.md", 8)]
    with Vault(vault) as opened:
        assert [task.line for task in opened.tasks(status="overdue", now="2025-12-17T09:00:00+00:00")] == [8, 10, 6]


def test_due_bounds_read_periods_as_search_does_next_week_included(vault: Path) -> None:
    assert listed(vault, due_since="next week", due_until="next week") == [
        ("Projects/Acme.md", 6), ("Daily/2025-12-09.md", 1)]  # Monday 15th to Sunday 21st, open only
    assert listed(vault, due_until="this week") == [("Projects/Acme.md", 8), ("Projects/Acme.md", 10)]
    with Vault(vault) as opened, pytest.raises(UsageError, match="due_since '2025-12-20' is after due_until '2025-12-01'"):
        opened.tasks(due_since="2025-12-20", due_until="2025-12-01", now=NOW)


def test_a_bound_that_is_no_date_is_refused_naming_the_tasks_own_option_not_searchs(vault: Path) -> None:
    """Was: `tasks --due-since garbage` said "--since 'garbage' is neither a date nor a
    duration", and `--done-until 2025-02-30` "--until …": options `tasks` does not have."""
    for option, value, said in (("--due-since", "garbage", "is neither a date nor a duration"),
                                ("--due-until", "2025-02-30", "names no day: February 2025 has 28 days"),
                                ("--done-since", "0d", "invalid duration '0d'"),
                                ("--done-until", "blah", "is neither a date nor a duration")):
        refused = run_cli(vault, "tasks", option, value, "--as-of", NOW)
        assert refused.exit_code == 2
        assert refused.stderr.startswith(f"Error: {option} '{value}'") and said in refused.stderr, refused.stderr
    with Vault(vault) as opened, pytest.raises(UsageError, match=r"^due_until 'someday' is neither a date"):
        opened.tasks(due_until="someday", now=NOW)


def test_this_week_is_the_vaults_week_when_its_calendar_starts_weeks_on_sunday(vault: Path) -> None:
    write_file(vault, ".obsidian/plugins/calendar/data.json", json.dumps({"weekStart": "sunday"}))
    write_file(vault, "Projects/Week.md", "- [ ] on Sunday 📅 2025-12-14\n- [ ] on Saturday 📅 2025-12-13\n")
    # Asked on Sunday the 14th: the week is the 14th to the 20th, not the ISO week that ends that day.
    with Vault(vault) as opened:
        found = opened.tasks(due_since="this week", due_until="this week", now="2025-12-14T12:00:00+00:00")
    assert [(task.path, task.text) for task in found] == [
        ("Projects/Week.md", "on Sunday"), ("Projects/Acme.md", "Send the proposal #sales"), ("Daily/2025-12-09.md", "Call Dana")]


def test_next_week_month_and_year_are_the_periods_after_this_one() -> None:
    now = datetime(2026, 12, 30, 12, tzinfo=UTC)
    spans = {words: (since_bound(words, now).day.date(), until_bound(words, now).day.date())
             for words in ("next week", "next-month", "Next_Year")}
    assert spans == {"next week": (date(2027, 1, 4), date(2027, 1, 10)), "next-month": (date(2027, 1, 1), date(2027, 1, 31)),
                     "Next_Year": (date(2027, 1, 1), date(2027, 12, 31))}


def test_a_tag_is_carried_by_the_task_line_or_its_notes_properties_not_by_another_lines_tag(vault: Path) -> None:
    assert listed(vault, tags=["#sales"]) == [("Projects/Acme.md", 6)]  # the #sales of line 6 tags no other task
    assert listed(vault, tags=["client"]) == [("Projects/Acme.md", 8), ("Projects/Acme.md", 10), ("Projects/Acme.md", 6)]
    assert listed(vault, tags=["client/acme", "sales"]) == [("Projects/Acme.md", 6)]


def test_an_empty_answer_by_tag_says_the_tag_is_on_other_lines_of_the_notes_or_nowhere(vault: Path) -> None:
    """A daily note's ``#finance`` meeting line does not tag its tasks; ``tasks --tag finance``
    said only "no tasks" while ``get`` listed #finance among that note's tags."""
    write_file(vault, "Daily/2025-12-08.md", "- [ ] Email Marco the budget\n\nBudget review with Marco. #finance\n")
    with Vault(vault) as opened:
        elsewhere = opened.tasks(tags=["finance"], now=NOW)
        misspelt = opened.tasks(tags=["financ"], now=NOW)
    assert list(elsewhere) == [] and elsewhere.warnings == [
        "1 task is in notes that carry #finance, only on other lines: a task takes the tags on its own line and in its "
        "note's `tags` property; put #finance on the task's line (or in the note's `tags`) to keep it"]
    assert list(misspelt) == [] and misspelt.warnings == [
        "no note carries the tag #financ at all (nor a tag under it); nearest tags: #finance"]
    printed = run_cli(vault, "tasks", "--tag", "finance")
    assert printed.exit_code == 0 and "carry #finance, only on other lines" in printed.output


def test_an_empty_answer_by_tags_that_tasks_carry_says_of_which_status_or_that_none_carries_them_all(vault: Path) -> None:
    """Review (s34): ``tasks --tag bills`` said only "no tasks" of a vault whose one #bills task was
    done, and ``--tag urgent --tag meeting`` of tasks carrying one tag each: no why."""
    write_file(vault, "bills.md", "- [x] Paid the water bill #bills ✅ 2025-12-01\n")
    write_file(vault, "home.md", "- [ ] Fix the sink #urgent\n")
    write_file(vault, "work.md", "- [ ] Agenda for Monday #meeting\n")
    with Vault(vault) as opened:
        done_only = opened.tasks(tags=["bills"], now=NOW)
        apart = opened.tasks(tags=["urgent", "meeting"], now=NOW)
    assert list(done_only) == [] and done_only.warnings == [
        "1 task carries #bills, of another status than open: ask for status all (--all) to see it"]
    assert list(apart) == [] and apart.warnings == [
        "no task carries both #urgent and #meeting: 1 task carries #urgent, 1 #meeting"]
    printed = run_cli(vault, "tasks", "--tag", "bills")
    assert printed.exit_code == 0 and "of another status than open" in printed.output


def test_an_empty_answer_by_tag_and_days_says_the_tasks_carrying_the_tag_are_of_other_days(vault: Path) -> None:
    """A trial (s34): ``tasks --overdue --tag bills`` said only "no tasks" of a vault whose #bills
    tasks were all due later, as if no task carried the tag."""
    write_file(vault, "bills.md", "- [ ] Pay the rent #bills 📅 2099-12-31\n- [ ] Pay the water bill #bills 📅 2099-01-15\n")
    write_file(vault, "paid.md", "- [x] Paid the gas #gas ✅ 2025-11-03\n")
    with Vault(vault) as opened:
        overdue = opened.tasks(status="overdue", tags=["bills"], now=NOW)
        next_week = opened.tasks(tags=["bills"], due_since="2025-12-15", due_until="2025-12-21", now=NOW)
        done_lately = opened.tasks(tags=["gas"], done_since="2025-12-01", now=NOW)
    assert list(overdue) == [] and overdue.warnings == [
        "2 open tasks carry #bills, but none is overdue (due before 2025-12-10): ask without the days (or with wider "
        "ones) to see them"]
    assert list(next_week) == [] and next_week.warnings == [
        "2 open tasks carry #bills, but none is due 2025-12-15..2025-12-21: ask without the days (or with wider ones) "
        "to see them"]
    assert list(done_lately) == [] and done_lately.warnings == [
        "1 done task carries #gas, but it is not done from 2025-12-01: ask without the days (or with wider ones) to see it"]
    printed = run_cli(vault, "tasks", "--overdue", "--tag", "bills")
    assert printed.exit_code == 0 and "carry #bills, but none is overdue" in printed.output, printed.output


def test_an_empty_answer_by_days_alone_says_the_tasks_are_of_other_days_or_have_no_such_day(tmp_path: Path) -> None:
    """s35: ``tasks --overdue``, ``--due-since today`` (no tag) said a bare "no tasks" of a vault
    whose tasks live outside daily notes and are all due later, as if it held none; the answers
    by tag and days said why."""
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Projects/Home.md": (
        "- [ ] Fix the roof 📅 2099-12-20\n- [ ] Sort the bills 📅 2099-02-01\n- [x] Paid the rent ✅ 2025-11-30\n")})
    undated = write_vault(tmp_path / "undated", {".vaultmem.toml": CONFIG, "Home.md": "- [ ] Call the plumber\n"})
    with Vault(root) as opened:
        overdue = opened.tasks(status="overdue", now=NOW)
        today = opened.tasks(due_since="today", due_until="today", now=NOW)
        done_lately = opened.tasks(done_since="2025-12-01", now=NOW)
        cancelled = opened.tasks(status="cancelled", due_since="2025-12-01", now=NOW)
    assert list(overdue) == [] and overdue.warnings == [
        "2 open tasks, but none is overdue (due before 2025-12-10): ask without the days (or with wider ones) to see them"]
    assert list(today) == [] and today.warnings == [
        "2 open tasks, but none is due on 2025-12-10: ask without the days (or with wider ones) to see them"]
    assert list(done_lately) == [] and done_lately.warnings == [
        "1 done task, but it is not done from 2025-12-01: ask without the days (or with wider ones) to see it"]
    assert list(cancelled) == [] and cancelled.warnings == [
        "2 tasks of another status than cancelled are due from 2025-12-01: ask for status all (--all) to see them"]
    with Vault(undated) as opened:
        never_due = opened.tasks(status="overdue", now=NOW)
    assert list(never_due) == [] and never_due.warnings == [
        "1 open task, but it is not overdue (due before 2025-12-10): ask without the days (or with wider ones) to see "
        "it; it has no due day (its own 📅 day or [due:: …])"]
    printed = run_cli(root, "tasks", "due today", "--as-of", NOW)  # a question's days: said instead of "as it was read"
    assert printed.exit_code == 0 and printed.stdout.splitlines() == [
        "read: due today → due 2025-12-10",
        "! 2 open tasks, but none is due on 2025-12-10: ask without the days (or with wider ones) to see them",
        "no tasks"], printed.output


def test_done_since_a_weekday_until_a_weekday_is_the_span_between_them_as_the_question_reads_it(tmp_path: Path) -> None:
    """s35 review: on Wednesday 2 December, ``--done-since monday --done-until friday`` was refused
    ("--done-since 'monday' is after --done-until 'friday'": the until bound, a done day's, was the
    last Friday), and on a Tuesday ``--due-since monday --due-until wednesday`` too, while the
    question "done between monday and friday" read the span."""
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Home.md": (
        "- [x] Old one ✅ 2026-11-27\n- [x] Monday's ✅ 2026-11-30\n- [x] Tuesday's ✅ 2026-12-01\n"
        "- [ ] Next Monday's 📅 2026-12-07\n- [ ] Next Wednesday's 📅 2026-12-09\n- [ ] Later 📅 2026-12-10\n")})
    wednesday, tuesday = datetime(2026, 12, 2, 12, tzinfo=UTC), datetime(2026, 12, 1, 12, tzinfo=UTC)
    with Vault(root) as opened:
        done = opened.tasks(done_since="monday", done_until="friday", now=wednesday)
        due = opened.tasks(due_since="monday", due_until="wednesday", now=tuesday)
    assert [task.text for task in done] == ["Monday's", "Tuesday's"]
    assert [task.text for task in due] == ["Next Monday's", "Next Wednesday's"]
    printed = run_cli(root, "tasks", "--done-since", "monday", "--done-until", "friday", "--as-of", wednesday.isoformat())
    assert printed.exit_code == 0 and "Tuesday's" in printed.stdout, printed.output


def test_query_words_are_found_in_the_tasks_words_or_its_notes_title_in_any_case(vault: Path) -> None:
    assert listed(vault, query="ACME report") == [("Projects/Acme.md", 10)]
    assert listed(vault, query="dana") == [("Daily/2025-12-09.md", 1)]
    assert listed(vault, query="dentist") == []


def test_tasks_of_an_expired_note_are_hidden_unless_asked_and_an_empty_answer_says_so(vault: Path) -> None:
    write_file(vault, "memories/trip.md", "---\nlayer: L1\nexpires_at: 2025-12-01\n---\n- [ ] Pack for Berlin 📅 2025-12-20\n")
    with Vault(vault) as opened:
        hidden = opened.tasks(query="berlin", now=NOW)
        shown = opened.tasks(query="berlin", include_expired=True, now=NOW)
    assert list(hidden) == [] and hidden.warnings == ["1 task of expired notes left out: ask with include_expired to see them"]
    assert [(task.path, task.text) for task in shown] == [("memories/trip.md", "Pack for Berlin")]


def test_k_cuts_the_answer_and_more_counts_the_rest(vault: Path) -> None:
    with Vault(vault) as opened:
        found = opened.tasks(k=2, now=NOW)
        assert [task.line for task in found] == [8, 10] and found.more == 3
        with pytest.raises(UsageError, match="k is how many tasks to give"):
            opened.tasks(k=0, now=NOW)


def test_the_rows_follow_an_edit_a_move_and_a_deletion_of_the_note(vault: Path) -> None:
    with Vault(vault) as opened:
        assert len(opened.tasks(status="all", now=NOW)) == 8
        write_file(vault, "Daily/2025-12-09.md", "A new line above.\n- [x] Call Dana ✅ 2025-12-10\n")
        assert [(task.line, task.status) for task in opened.tasks(query="dana", status="all", now=NOW)] == [(2, "done")]
        (vault / "Projects/Acme.md").rename(vault / "Projects/Acme Corp.md")
        assert {task.path for task in opened.tasks(status="all", now=NOW)} == {"Projects/Acme Corp.md", "Daily/2025-12-09.md"}
        (vault / "Projects/Acme Corp.md").unlink()
        assert [task.path for task in opened.tasks(status="all", now=NOW)] == ["Daily/2025-12-09.md"]
    assert [row[0] for row in table_rows(vault)] == ["Daily/2025-12-09.md"]


def test_excluded_notes_templates_and_the_archive_hold_no_tasks(vault: Path) -> None:
    write_file(vault, ".vaultmem.toml", CONFIG + 'exclude = ["Private/"]\n')
    write_file(vault, ".obsidian/templates.json", json.dumps({"folder": "Templates"}))
    for relative in ("Private/secret.md", "Templates/Daily.md", "_archive/old.md"):
        write_file(vault, relative, "- [ ] Not a task of the vault 📅 2025-12-11\n")
    assert listed(vault, query="vault", status="all") == []
    assert {row[0] for row in table_rows(vault)} == {"Projects/Acme.md", "Daily/2025-12-09.md"}


def test_a_rule_that_excludes_a_note_later_takes_its_tasks_out(vault: Path) -> None:
    assert listed(vault, query="dana") == [("Daily/2025-12-09.md", 1)]
    write_file(vault, ".vaultmem.toml", CONFIG + 'exclude = ["Daily/"]\n')
    assert listed(vault, query="dana") == []
    assert {row[0] for row in table_rows(vault)} == {"Projects/Acme.md"}


def test_deleting_the_index_and_indexing_again_gives_the_same_rows(vault: Path) -> None:
    write_file(vault, "Daily/2025-12-10.md", "> [!todo] Today\n> - [ ] Review the deck ⏳ 2025-12-10 #work\n")
    with Vault(vault) as opened:
        opened.index()
    before = table_rows(vault)
    assert len(before) == 9
    shutil.rmtree(vault / ".vaultmem")
    with Vault(vault) as opened:
        opened.index()
    assert table_rows(vault) == before
    with Vault(vault) as opened:
        opened.index(rebuild=True)
    assert table_rows(vault) == before


def test_an_index_made_before_the_tasks_table_is_filled_at_the_next_read(vault: Path) -> None:
    with Vault(vault) as opened:
        opened.index()
    before = table_rows(vault)
    with sqlite3.connect(vault / ".vaultmem" / "index.db") as db:  # the index as the previous version left it
        db.execute("DROP TABLE tasks")
        db.execute("DELETE FROM _migrations WHERE name IN ('013_tasks', '014_task_lanes')")
    assert listed(vault, query="dana") == [("Daily/2025-12-09.md", 1)]
    assert table_rows(vault) == before


def test_the_cli_lists_tasks_and_refuses_two_statuses(vault: Path) -> None:
    shown = run_cli(vault, "tasks", "--as-of", NOW)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0] == "2025-12-08  [/] Draft the contract  (scheduled 2025-12-09)  Projects/Acme.md:8"
    assert shown.stdout.splitlines()[-1] == "-           [ ] Buy milk  Daily/2025-12-09.md:3"
    done = run_cli(vault, "tasks", "--done-since", "2025-12-16", "--done-until", "2025-12-16", "--json", "--as-of", NOW)
    answer = json.loads(done.stdout)
    assert [(task["path"], task["line"], task["dates"]["done"]) for task in answer["tasks"]] == [
        ("Projects/Acme.md", 7, "2025-12-16"), ("Daily/2025-12-09.md", 2, "2025-12-16")]
    both = run_cli(vault, "tasks", "--open", "--done")
    assert both.exit_code == 2 and "--open and --done ask for different tasks" in both.stderr
    late = run_cli(vault, "tasks", "--overdue", "--done-since", "2025-12-16")
    assert late.exit_code == 2 and "--done-since/--done-until ask for done tasks, not overdue ones" in late.stderr
    found = run_cli(vault, "tasks", "acme", "--tag", "sales", "--due-until", "next week", "--as-of", NOW)
    assert found.stdout == "2025-12-16  [ ] Send the proposal #sales  Projects/Acme.md:6\n"


def test_list_tasks_over_mcp(vault: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serve(vault, tmp_path / "server.log") as served:
            answer = await served.call("list_tasks", status="all", query="acme", tags=["client"])
            assert [(task["line"], task["status"]) for task in answer["tasks"]] == [
                (8, "open"), (10, "open"), (7, "done"), (6, "open"), (9, "cancelled")]
            assert answer["tasks"][2]["dates"] == {"due": "2025-12-15", "done": "2025-12-16"}
            assert answer["more"] == 0
            done = await served.call("list_tasks", done_since="2025-12-16", done_until="2025-12-16")
            assert [task["path"] for task in done["tasks"]] == ["Projects/Acme.md", "Daily/2025-12-09.md"]
            refused = await served.error("list_tasks", status="open", done_since="2025-12-16")
            assert "done_since/done_until ask for done tasks, not open ones" in refused

    run(scenario)


TASKS_PLUGIN = ".obsidian/plugins/obsidian-tasks-plugin/data.json"
LIST = ("- [ ] Buy milk 📅 2025-12-11\n"
        "- [ ] Call Dana #task 📅 2025-12-12\n"
        "- [>] Forwarded the brief #task\n"
        "- [?] Is the venue booked? #task\n"
        "- [-] Still deciding on the caterer #task\n"
        "- [x] Sent the invite #task ✅ 2025-12-09\n")
STATUSES = {"globalFilter": "#task", "statusSettings": {
    "coreStatuses": [{"symbol": " ", "name": "Todo", "nextStatusSymbol": "x", "type": "TODO"},
                     {"symbol": "x", "name": "Done", "nextStatusSymbol": " ", "type": "DONE"}],
    "customStatuses": [{"symbol": ">", "name": "Forwarded", "nextStatusSymbol": "x", "type": "DONE"},
                       {"symbol": "?", "name": "Question", "nextStatusSymbol": " ", "type": "NON_TASK"},
                       {"symbol": "-", "name": "Deciding", "nextStatusSymbol": "x", "type": "IN_PROGRESS"}]}}


def statuses_of(root: Path) -> list[tuple[int, str, str]]:
    with Vault(root) as opened:
        return [(task.line, task.box, task.status) for task in opened.tasks(status="all", now=NOW)]


def test_the_tasks_plugins_global_filter_keeps_only_the_items_that_hold_it(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "List.md": LIST,
                                            TASKS_PLUGIN: json.dumps({"globalFilter": "#task"})})
    assert [line for line, _box, _status in statuses_of(root)] == [2, 3, 4, 5, 6]  # not line 1: no #task
    write_file(root, TASKS_PLUGIN, json.dumps({"globalFilter": ""}))  # unset again: every item, no re-index
    assert [line for line, _box, _status in statuses_of(root)] == [1, 2, 3, 4, 5, 6]


def test_the_tasks_plugins_custom_statuses_decide_done_open_and_which_boxes_are_no_tasks(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "List.md": LIST, TASKS_PLUGIN: json.dumps(STATUSES)})
    assert statuses_of(root) == [(2, " ", "open"), (3, ">", "done"), (5, "-", "open"), (6, "x", "done")]
    with Vault(root) as opened:
        assert [task.line for task in opened.tasks(status="cancelled", now=NOW)] == []
        assert [task.line for task in opened.tasks(status="done", now=NOW)] == [3, 6]


def test_a_tasks_plugin_settings_file_that_does_not_load_is_said_and_the_defaults_apply(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "List.md": LIST, TASKS_PLUGIN: '{"globalFilter": "#ta'})
    with Vault(root) as opened:
        found = opened.tasks(status="all", now=NOW)
    assert [task.line for task in found] == [1, 2, 3, 4, 5, 6]
    assert any(warning.startswith(f"{TASKS_PLUGIN} is not JSON") and "plugin's defaults" in warning
               for warning in found.warnings), found.warnings



@pytest.mark.parametrize("content", ["[" * 100_000, '{"globalFilter": ' + "1" * 5000 + "}"])
def test_a_tasks_plugin_settings_file_nested_too_deep_or_holding_a_huge_number_is_said_not_a_crash(
        tmp_path: Path, content: str) -> None:
    """json.loads raises RecursionError or a bare ValueError (no JSONDecodeError) for these:
    `tasks` crashed instead of saying the file and reading tasks by the plugin's defaults."""
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "List.md": LIST, TASKS_PLUGIN: content})
    with Vault(root) as opened:
        found = opened.tasks(status="all", now=NOW)
    assert [task.line for task in found] == [1, 2, 3, 4, 5, 6]
    assert any(warning.startswith(TASKS_PLUGIN) and "plugin's defaults" in warning for warning in found.warnings), found.warnings


BOARD = ("---\n\nkanban-plugin: basic\n\n---\n\n## Todo\n\n"
         "- [ ] Fix the garden gate @{2025-12-12} @@{10:00}\n"
         "- [ ] Order firewood @[[2025-12-15]]\n\n\n## Doing\n\n"
         "- [ ] Paint the shed #home\n\n\n## Done\n\n**Complete**\n"
         "- [x] Clean the gutters @{2025-12-01}\n\n\n"
         "%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n")


def test_a_kanban_cards_date_is_its_due_day_and_its_lane_is_shown_and_asked_by_query(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Home board.md": BOARD,
                                            "Plain.md": "- [ ] Email @{2025-12-12} is a handle here\n"})
    with Vault(root) as opened:
        every = opened.tasks(status="all", now=NOW)
        doing = opened.tasks(query="doing", now=NOW)
        due = opened.tasks(due_since="2025-12-12", due_until="2025-12-12", now=NOW)
    assert [(task.path, task.text, task.dates, task.lane) for task in every] == [
        ("Home board.md", "Clean the gutters", {"due": "2025-12-01"}, "Done"),
        ("Home board.md", "Fix the garden gate @@{10:00}", {"due": "2025-12-12"}, "Todo"),
        ("Home board.md", "Order firewood", {"due": "2025-12-15"}, "Todo"),
        ("Home board.md", "Paint the shed #home", {}, "Doing"),
        ("Plain.md", "Email @{2025-12-12} is a handle here", {}, None),  # not a board: no card date
    ]
    assert [task.text for task in doing] == ["Paint the shed #home"]
    assert [task.text for task in due] == ["Fix the garden gate @@{10:00}"]
    shown = run_cli(root, "tasks", "--as-of", NOW, "doing")
    assert shown.stdout.splitlines() == ["-           [ ] Paint the shed #home  (lane Doing)  Home board.md:15"]


def test_an_index_made_before_lanes_reads_its_boards_again(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Home board.md": BOARD})
    with Vault(root) as opened:
        opened.index()
    with sqlite3.connect(root / ".vaultmem" / "index.db") as db:  # as the previous version left it
        db.execute("ALTER TABLE tasks DROP COLUMN lane")
        db.execute("DELETE FROM _migrations WHERE name = '014_task_lanes'")
    with Vault(root) as opened:
        assert [task.lane for task in opened.tasks(status="all", now=NOW)] == ["Done", "Todo", "Todo", "Doing"]


# -- a question asked in words (task_query.py; adr/0026 "Tasks asked in words")


def asked(root: Path, query: str, now: str = NOW, **arguments: object) -> tuple[list[tuple[str, int]], str | None, list[str]]:
    with Vault(root) as opened:
        found = opened.tasks(query=query, now=now, **arguments)  # type: ignore[arg-type]
    return [(task.path, task.line) for task in found], found.read, found.warnings


def test_a_question_in_words_is_read_as_its_period_and_status_not_as_words_every_task_must_hold(vault: Path) -> None:
    # NOW is Wednesday 2025-12-10: this week is the 8th to the 14th, next week the 15th to the 21st.
    assert asked(vault, "what's due this week") == (
        [("Projects/Acme.md", 8), ("Projects/Acme.md", 10)], "due this week → due 2025-12-08..2025-12-14; not text: what's", [])
    assert asked(vault, "due next week")[0] == [("Projects/Acme.md", 6), ("Daily/2025-12-09.md", 1)]
    assert asked(vault, "overdue") == ([("Projects/Acme.md", 8)], "overdue → status overdue", [])
    assert asked(vault, "open tasks for acme") == (
        [("Projects/Acme.md", 8), ("Projects/Acme.md", 10), ("Projects/Acme.md", 6)],
        "open → status open; not text: tasks, for; matched as text: acme", [])
    assert asked(vault, "what's not done for Dana")[0] == [("Daily/2025-12-09.md", 1)]
    assert asked(vault, "what is due on 16 December 2025")[0] == [("Projects/Acme.md", 6)]
    assert asked(vault, "due before Friday")[0] == [("Projects/Acme.md", 8)]  # Friday the 12th: through the 11th
    assert asked(vault, "proposal due 2025-12")[0] == [("Projects/Acme.md", 6)]


def test_a_day_said_without_its_year_is_the_last_one_for_done_tasks_and_the_next_one_for_due_tasks(vault: Path) -> None:
    later = "2025-12-20T12:00:00+00:00"
    assert asked(vault, "what did I finish on the 16th", now=later) == (
        [("Projects/Acme.md", 7), ("Daily/2025-12-09.md", 2)],
        "finish on the 16th → done 2025-12-16; finish → status done; not text: what, did, I", [])
    assert asked(vault, "done on December 16", now=later)[0] == [("Projects/Acme.md", 7), ("Daily/2025-12-09.md", 2)]
    assert asked(vault, "due on the 16th")[1] == "due on the 16th → due 2025-12-16"  # from the 10th: this month's
    assert asked(vault, "due on the 16th", now=later)[1] == "due on the 16th → due 2026-01-16"


def test_a_month_said_without_its_year_is_the_next_one_for_due_tasks_and_the_last_one_for_done_tasks(vault: Path) -> None:
    """Was (s37, the README's example asked "what is due in December"): the month was a word every task had to
    hold, and no task did. After due, in, by … a month's name is that month, as a day without its year is."""
    assert asked(vault, "what is due in December") == (
        [("Projects/Acme.md", 8), ("Projects/Acme.md", 10), ("Projects/Acme.md", 6), ("Daily/2025-12-09.md", 1)],
        "due in December → due 2025-12-01..2025-12-31; not text: what, is", [])
    assert asked(vault, "due in november")[1] == "due in november → due 2026-11-01..2026-11-30"  # the next November
    later = "2026-01-05T12:00:00+00:00"
    assert asked(vault, "what did I finish in December", now=later)[:2] == (
        [("Projects/Acme.md", 7), ("Daily/2025-12-09.md", 2)],
        "finish in December → done 2025-12-01..2025-12-31; finish → status done; not text: what, did, I")
    # Without such a word before it a month's name stays a word of the tasks: "may" is one too.
    write_file(vault, "Projects/Audit.md", "- [ ] Ask whether we may skip the audit\n")
    assert asked(vault, "may skip")[:2] == ([("Projects/Audit.md", 1)], None)


@pytest.mark.parametrize("question", ["what may be due in December", "what tasks may be due in December",
                                      "tasks that may be due in December"])
def test_a_modal_may_is_a_word_of_asking_while_may_after_due_or_in_is_the_month(vault: Path, question: str) -> None:
    """Was (stop 38's leftover): "what may be due in May" read the first "may" as a word every task
    had to hold — the month's name, kept as a task's word where no due or in stands before it — and
    answered no task. Before a verb or a subject, or after a word that asks, it is the modal."""
    tasks, read, _ = asked(vault, question)
    assert tasks == asked(vault, "what is due in December")[0] != []
    assert read is not None and "due in December → due 2025-12-01..2025-12-31" in read and "may" in read.split("not text: ")[1]
    assert asked(vault, "due in may")[1] == "due in may → due 2026-05-01..2026-05-31"  # after in: the month
    assert asked(vault, "what may be due in May")[1] == "due in May → due 2026-05-01..2026-05-31; not text: what, may, be"


@pytest.mark.parametrize("verb", ["might", "must", "shall"])
def test_a_modal_verb_in_the_question_is_a_word_of_asking_as_should_and_could_are(vault: Path, verb: str) -> None:
    """Was (review, s38): "what might be due in December" read "might" as a word every task had to
    hold, and answered no task where "what should be due in December" answered four."""
    tasks, read, _ = asked(vault, f"what {verb} be due in December")
    assert tasks == asked(vault, "what should be due in December")[0] != []
    assert read == f"due in December → due 2025-12-01..2025-12-31; not text: what, {verb}, be"


def test_a_word_read_as_a_status_or_a_day_that_matches_nothing_so_is_matched_as_the_task_s_text(vault: Path) -> None:
    """Was (the lead's review): "complete onboarding" was read as done tasks holding "onboarding"
    and answered none, beside the open task "Complete onboarding form"; "sunday school" the same."""
    write_file(vault, "Projects/HR.md", "- [ ] Complete onboarding form\n- [ ] Sunday school rota\n")
    tasks, read, warnings = asked(vault, "complete onboarding")
    assert tasks == [("Projects/HR.md", 1)]
    assert read == '"complete" "onboarding"' or read is None
    assert warnings[0].startswith("no task matched the query as read (complete → status done; matched as text: onboarding)")
    assert asked(vault, "sunday school")[0] == [("Projects/HR.md", 2)]
    # A reading that matches keeps its answer: no fallback.
    assert asked(vault, "overdue") == ([("Projects/Acme.md", 8)], "overdue → status overdue", [])


def test_a_quoted_word_is_text_and_a_bare_number_is_no_year(vault: Path) -> None:
    write_file(vault, "Projects/Web.md", "- [ ] Publish the open data 2026 report\n")
    assert asked(vault, '"open" data')[0] == [("Projects/Web.md", 1)]
    assert asked(vault, "data 2026")[0] == [("Projects/Web.md", 1)]


def test_words_that_agree_with_an_argument_pass_and_words_that_contradict_one_are_refused(vault: Path) -> None:
    assert asked(vault, "due this week", due_since="2025-12-08")[0] == [("Projects/Acme.md", 8), ("Projects/Acme.md", 10)]
    assert asked(vault, "due this week", status="all")[0] == [("Projects/Acme.md", 8), ("Projects/Acme.md", 10)]
    assert asked(vault, "the 16th", status="done", now="2025-12-20T12:00:00+00:00")[1] == "the 16th → done 2025-12-16"
    with pytest.raises(UsageError, match=r"status 'open' contradicts the query's 'finished' \(done tasks\)"):
        asked(vault, "finished yesterday", status="open")
    with pytest.raises(UsageError, match=r"due_until \(2025-12-31\) contradicts the query's 'due this week' \(due until 2025-12-14\)"):
        asked(vault, "due this week", due_until="2025-12-31")
    with pytest.raises(UsageError, match="asks for open tasks and done ones"):
        asked(vault, "open done")
    with pytest.raises(UsageError, match="names due days twice"):
        asked(vault, "due this week due next month")


def test_an_empty_answer_to_words_names_the_words_no_task_holds(vault: Path) -> None:
    assert asked(vault, "acme dentist")[2] == [
        "'dentist' matched no task asked for: no task's words, note title or lane holds it"]
    assert asked(vault, "dana", status="done")[2] == [
        "'dana' matched no task asked for: no task's words, note title or lane holds it "
        "(1 task of other statuses, days or tags hold it)"]
    assert asked(vault, "proposal milk")[2] == [
        "each of the query's words 'proposal', 'milk' is in some task asked for, but no task holds them all"]
    assert asked(vault, "due next year") == ([], "due next year → due 2026-01-01..2026-12-31", [
        "5 open tasks, but none is due 2026-01-01..2026-12-31: ask without the days (or with wider ones) to see them"])


def test_an_empty_answer_by_due_or_done_days_counts_the_tasks_of_the_notes_dated_then(vault: Path) -> None:
    """A journal of daily notes: ``tasks "last week"`` said only "no task matches" while last
    week's notes held open tasks without a day of their own (a person's trial, s34)."""
    assert asked(vault, "due 2025-12-09")[2] == [
        "no task matches the query as it was read (see read)",
        "2 open tasks are in notes dated on 2025-12-09, but none is due then: a task's due day is its own "
        "📅 day or [due:: …], not its note's date"]
    assert asked(vault, "due next year")[2] == [
        "5 open tasks, but none is due 2026-01-01..2026-12-31: ask without the days (or with wider ones) to see them"]
    assert asked(vault, "done on the 9th", status="done")[2][-1] == (
        "1 done task is in notes dated on 2025-12-09, but none is done then: a task's done day is its own "
        "✅ day or [completion:: …], not its note's date")


def test_the_cli_reads_a_question_and_says_how(vault: Path) -> None:
    shown = run_cli(vault, "tasks", "what's due this week", "--as-of", NOW)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [
        "read: due this week → due 2025-12-08..2025-12-14; not text: what's",
        "2025-12-08  [/] Draft the contract  (scheduled 2025-12-09)  Projects/Acme.md:8",
        "2025-12-12  [ ] Weekly report  (every week when done)  Projects/Acme.md:10"]
    nothing = run_cli(vault, "tasks", "dentist", "--json", "--as-of", NOW)
    answer = json.loads(nothing.stdout)
    assert answer["tasks"] == [] and answer["read"] is None
    assert answer["warnings"] == ["'dentist' matched no task asked for: no task's words, note title or lane holds it"]
    refused = run_cli(vault, "tasks", "finished yesterday", "--open", "--as-of", NOW)
    assert refused.exit_code == 2 and "Error: --open contradicts the query's 'finished' (done tasks)" in refused.stderr


def test_list_tasks_over_mcp_reads_a_question_in_words(vault: Path, tmp_path: Path) -> None:
    today = date.today()  # the server runs on the real clock
    write_file(vault, "Projects/Home.md", f"- [ ] Book the piano tuner 📅 {today.isoformat()}\n- [ ] Renew passport 📅 2099-01-05\n")

    async def scenario() -> None:
        async with serve(vault, tmp_path / "server.log") as served:
            answer = await served.call("list_tasks", query="what's due this week")
            assert [task["text"] for task in answer["tasks"]] == ["Book the piano tuner"]
            assert answer["read"].startswith("due this week → due ") and answer["read"].endswith("; not text: what's")
            empty = await served.call("list_tasks", query="open tasks for dentist")
            assert empty["tasks"] == [] and empty["warnings"] == [
                "'dentist' matched no task asked for: no task's words, note title or lane holds it"]
            refused = await served.error("list_tasks", query="finished yesterday", status="open")
            assert "status 'open' contradicts the query's 'finished'" in refused

    run(scenario)


def test_a_long_task_list_comes_in_parts_by_offset_in_the_api_the_cli_and_over_mcp(vault: Path, tmp_path: Path) -> None:
    # A trial on a vault of 1,405 notes: list_tasks said "more": 384 past the 100 an MCP answer
    # holds, and no argument reached them (as list_notes).
    with Vault(vault) as opened:
        whole = [(task.path, task.line) for task in opened.tasks(status="all", k=100, now=NOW)]
        parts = [(task.path, task.line) for offset in range(0, len(whole), 2)
                 for task in opened.tasks(status="all", k=2, offset=offset, now=NOW)]
        assert parts == whole and len(whole) > 4, (parts, whole)
        assert opened.tasks(status="all", k=2, offset=2, now=NOW).more == len(whole) - 4
        with pytest.raises(UsageError, match=rf"offset {len(whole)} is past the end of the list \({len(whole)} task\(s\)"):
            opened.tasks(status="all", k=2, offset=len(whole), now=NOW)
    shown = run_cli(vault, "tasks", "--all", "-k", "2", "--offset", "2", "--as-of", NOW)
    assert shown.exit_code == 0 and f"… and {len(whole) - 4} more (raise -k, or --offset 4 for the next ones)" in shown.stdout, shown.output

    async def scenario() -> None:
        async with serve(vault, tmp_path / "server.log") as served:
            first = await served.call("list_tasks", status="all", k=2)
            assert first["next_offset"] == 2, first
            rest = await served.call("list_tasks", status="all", k=100, offset=2)
            assert rest["next_offset"] is None and rest["more"] == 0, rest
            assert [(task["path"], task["line"]) for task in first["tasks"] + rest["tasks"]] == whole

    run(scenario)


def test_a_box_with_nothing_after_it_is_no_task_a_box_with_a_day_only_still_is(tmp_path: Path) -> None:
    # Trial (s38, the Obsidian Hub): a note made from a template whose checklist was left blank
    # (`- [ ] ` rows) was listed by `tasks` as five open tasks with no words.
    body = "## Checklist\n- [ ] \n- [ ]  \n* [x] \t\n> - [ ] \r\n- [ ] Write the intro\n- [ ] 📅 2025-12-12\n"
    assert [(task.line, task.text) for task in task_lines(body)] == [(6, "Write the intro"), (7, "")]
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Plan.md": body})
    assert listed(root) == [("Plan.md", 7), ("Plan.md", 6)]  # by due day: the dated one first


def test_a_page_of_sixteen_thousand_tasks_is_read_in_seconds_not_minutes() -> None:
    """A years-long task page (16,000 Logseq ``LATER`` blocks with their ``SCHEDULED:`` lines, 1 MB;
    or as many ``- [ ]`` boxes): each task counted its line from the body's start, and each Logseq
    task cut the whole rest of the page into lines to find its block's days — quadratic: 58 s and
    20 s of CPU to index that one note (measured, s41). Now each is counted on from the last."""
    count = 16_000
    logseq = "".join(f"- LATER call supplier {number}\n  SCHEDULED: <2022-12-15 Thu>\n" for number in range(count))
    boxes = "".join(f"- [ ] call supplier {number} 📅 2022-12-15\n  with the new quote\n" for number in range(count))
    started = time.process_time()
    found = task_lines(logseq, 3, logseq=True)
    boxed = task_lines(boxes, 3)
    days = task_days(boxes, 3)  # explain's read of the same
    spent = time.process_time() - started
    assert len(found) == len(boxed) == count
    assert found[-1] == TaskLine(3 + 2 * (count - 1), " ", f"call supplier {count - 1}", {"scheduled": date(2022, 12, 15)}, None, ())
    assert boxed[-1].line == 3 + 2 * (count - 1) and boxed[-1].days == {"due": date(2022, 12, 15)}
    assert len(days) == count and days[-1].line == boxed[-1].line
    assert spent < 8, f"{spent:.1f} s of CPU for {count} tasks"


def test_a_due_day_written_in_words_is_the_tasks_due_day() -> None:
    # s41's leftovers: `- [ ] pay rent due 2026-12-05` had no due day — only 📅 and [due:: …] were read —
    # so "what is due this week" left it out and `tasks` listed it last, undated.
    from vaultmem.plain_due import plain_due

    wednesday = date(2026, 12, 2)
    [rent, passport, mum, phone, fields] = task_lines(
        "- [ ] pay rent due 2026-12-05\n- [ ] renew passport (due: 5 Dec)\n- [ ] call mum by Friday\n"
        "- [ ] call mum by phone\n- [ ] file taxes due 2026-12-01 📅 2026-12-20\n", anchor=lambda: wednesday)
    assert rent.days == {"due": date(2026, 12, 5)} and rent.text == "pay rent due 2026-12-05"  # the words stay
    assert passport.days == {"due": date(2026, 12, 5)}
    assert mum.days == {"due": date(2026, 12, 4)}  # the first Friday on or after the day it was written
    assert phone.days == {}
    assert fields.days == {"due": date(2026, 12, 20)}  # the Tasks plugin's field wins
    # A weekday or a day without its year needs the day it was written: without one, no due day is guessed.
    assert [task.days for task in task_lines("- [ ] renew passport (due: 5 Dec)\n- [ ] call mum by Friday\n")] == [{}, {}]
    assert plain_due("x deadline: 5 December 2026", lambda: None) == date(2026, 12, 5)
    assert plain_due("x due Dec 5, 2027", lambda: None) == date(2027, 12, 5)
    assert plain_due("finish by 2026-02-30", lambda: wednesday) is None  # no such day
    assert plain_due("book the trip by 29 Feb", lambda: wednesday) == date(2028, 2, 29)
    assert plain_due("send the deck by tomorrow", lambda: wednesday) == date(2026, 12, 3)


def test_a_weekday_that_is_owned_or_opens_a_name_is_no_due_day(tmp_path: Path) -> None:
    """Was (review42b, s43): in a daily note of Wednesday 2026-12-02, ``I fell asleep by Friday
    Night Lights`` and ``book by Tuesday Lobsang Rampa`` were due that Friday and Tuesday, ``finished
    it by Monday's standards`` and ``sort the photos by today's date`` on a Monday and that day:
    ``by`` before a name (a show's, a person's) or a possessive says no deadline. A day after a due
    word, then a month's name, a time or a lower-case word (``by Friday Dec 4``, ``by Friday EOD``,
    ``by Sunday evening``) still is one."""
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "2026-12-02.md": "- [ ] I fell asleep by Friday Night Lights again, watch the finale\n"
                         "- [ ] finished it by Monday's standards, needs polishing\n"
                         "- [ ] sort the photos by today\u2019s date\n- [ ] book by Tuesday Lobsang Rampa on the shelf\n"
                         "- [ ] stand by Today Show segment\n- [ ] a talk by March 3 Coffee\n"
                         "- [ ] call mum by Friday Dec 4\n- [ ] send it by Friday EOD\n- [ ] ask Sam by Sunday evening\n"
                         "- [ ] renew passport (due: 5 Dec)\n- [ ] Finish Slides By Friday For The Board\n"})
    printed = run_cli(root, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00")
    assert printed.exit_code == 0, printed.stderr
    listed = json.loads(printed.stdout)
    assert {task["text"]: task["dates"].get("due") for task in listed["tasks"]} == {
        "Finish Slides By Friday For The Board": "2026-12-04",  # every word capitalised: no name
        "I fell asleep by Friday Night Lights again, watch the finale": None,
        "finished it by Monday's standards, needs polishing": None,
        "sort the photos by today\u2019s date": None,
        "book by Tuesday Lobsang Rampa on the shelf": None,
        "stand by Today Show segment": None,
        "a talk by March 3 Coffee": None,
        "call mum by Friday Dec 4": "2026-12-04",
        "send it by Friday EOD": "2026-12-04",
        "ask Sam by Sunday evening": "2026-12-06",
        "renew passport (due: 5 Dec)": "2026-12-05",
    }
    assert listed["warnings"] == []


def test_a_weekday_in_a_months_note_and_tomorrow_in_a_weeks_are_no_due_day(tmp_path: Path) -> None:
    """Was (review42b, s43): in December's monthly note ``2026-12.md``, ``call mum by Friday`` was
    due on the 4th and ``send it by tomorrow`` on the 2nd, read against the month's first day,
    which is not the day they were written; in the week's note ``2026-W49.md`` ``by tomorrow`` was
    its Tuesday. A day without its year is still placed in its period, a weekday in its week."""
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "2026-12.md": "- [ ] call mum by Friday\n- [ ] send it by tomorrow\n- [ ] renew passport by 5 Dec\n",
        "2026-W49.md": "- [ ] call dad by Friday\n- [ ] pay Sam by tomorrow\n"})
    printed = run_cli(root, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00")
    assert printed.exit_code == 0, printed.stderr
    listed = json.loads(printed.stdout)
    assert {task["text"]: task["dates"].get("due") for task in listed["tasks"]} == {
        "call mum by Friday": None, "send it by tomorrow": None, "renew passport by 5 Dec": "2026-12-05",
        "call dad by Friday": "2026-12-04", "pay Sam by tomorrow": None}
    [warning] = listed["warnings"]
    assert warning.startswith("2026-12.md:1 says 'by Friday' and 2 more, which is no day without the day it was written")
    assert "its note names no day of its own (it has no date, or is a week's, month's or year's note)" in warning


def test_a_day_in_a_name_or_owned_is_no_due_word_of_an_undated_note() -> None:
    """What the warning for an undated note's due words names agrees with what is read as a due
    day: ``by Friday Night Lights`` is no deadline, dated or not."""
    from vaultmem.plain_due import plain_due, undated_due_words

    friday = date(2026, 12, 4)
    for words in ("I fell asleep by Friday Night Lights", "finished it by Monday's standards", "due Tomorrow's list"):
        assert undated_due_words(words) is None, words
        assert plain_due(words, lambda: friday) is None, words
    assert undated_due_words("call mum by Friday, then rest") == "by Friday"
    assert plain_due("call mum by Friday I think", lambda: friday) == friday  # a capital that is a word, not a name


def test_tasks_due_in_words_are_listed_by_their_day_against_the_notes_own_date(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "Tasks.md": "- [ ] pay rent due 2026-12-05\n- [ ] call mum by Friday\n",  # no date: Friday is no day
        "2026-12-02.md": "- [ ] call mum by Friday\n- [ ] renew passport (due: 5 Dec)\n",  # a daily note: its day
        "memo.md": "---\ncreated: 2026-12-02T10:00:00+00:00\n---\n- [ ] send the deck by tomorrow\n",
    })
    printed = run_cli(root, "tasks", "--json", "--due-since", "this week", "--due-until", "this week",
                      "--as-of", "2026-12-02T12:00:00+00:00")
    assert printed.exit_code == 0, printed.stderr
    assert [(task["path"], task["text"], task["dates"]["due"]) for task in json.loads(printed.stdout)["tasks"]] == [
        ("memo.md", "send the deck by tomorrow", "2026-12-03"),
        ("2026-12-02.md", "call mum by Friday", "2026-12-04"),
        ("2026-12-02.md", "renew passport (due: 5 Dec)", "2026-12-05"),
        ("Tasks.md", "pay rent due 2026-12-05", "2026-12-05"),
    ]
    # The undated one is listed with no due day, and the answer says why and how to give it one.
    listed = json.loads(run_cli(root, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00").stdout)
    assert [(task["path"], task["dates"].get("due")) for task in listed["tasks"]][-1] == ("Tasks.md", None)
    assert listed["warnings"] == [
        "Tasks.md:2 says 'by Friday', which is no day without the day it was written: a weekday or a day without its "
        "year is read against its note's date (a `date:` property, a day in the file name or a `created:` stamp), and "
        "its note names no day of its own (it has no date, or is a week's, month's or year's note) — give the note one, "
        "or write the day with its year (📅 2026-12-04 or due 2026-12-04)"]


def test_a_logseq_tasks_due_words_are_read_against_its_journals_day_and_its_deadline_wins_over_them(tmp_path: Path) -> None:
    """Was (review, s42): in a Logseq graph ``- TODO call mum by Friday`` in the journal of
    Wednesday 2026-12-02 was listed with no due day, under the warning that its note has no date,
    and ``due 2026-12-07`` over the block's ``DEADLINE: <2026-12-10 Thu>`` was due on the 7th: the
    words won over Logseq's field, as they never do over a 📅."""
    graph = write_vault(tmp_path / "graph", {
        ".vaultmem.toml": CONFIG, "logseq/config.edn": "{:meta/version 1}\n",
        "journals/2026_12_02.md": "- TODO call mum by Friday\n- TODO pay rent due 2026-12-07\n  DEADLINE: <2026-12-10 Thu>\n"
                                  "- TODO renew passport (due: 5 Dec) 📅 2026-12-20\n  DEADLINE: <2026-12-10 Thu>\n"})
    listed = json.loads(run_cli(graph, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00").stdout)
    assert [(task["text"], task["dates"].get("due")) for task in listed["tasks"]] == [
        ("call mum by Friday", "2026-12-04"), ("pay rent due 2026-12-07", "2026-12-10"),
        ("renew passport (due: 5 Dec)", "2026-12-20")]
    assert listed["warnings"] == []


def test_due_words_are_read_against_the_day_the_note_was_written_on_its_own_clock(tmp_path: Path) -> None:
    """``created: 2026-12-04T23:30:00-08:00`` was written on Friday the 4th in its zone (Saturday
    the 5th in UTC). Was (review, s42): its ``call mum by Friday`` was due on the 11th, a week
    late, and ``send the deck by tomorrow`` on the 6th; a Tokyo morning's ``by today`` a day early."""
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "memo.md": "---\ncreated: 2026-12-04T23:30:00-08:00\n---\n- [ ] call mum by Friday\n- [ ] send the deck by tomorrow\n",
        "tokyo.md": "---\ncreated: 2026-12-04T08:30:00+09:00\n---\n- [ ] send the memo by today\n",
        "utc.md": "---\ncreated: 2026-12-04T23:30:00Z\n---\n- [ ] file the report by tomorrow\n"})
    printed = run_cli(root, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00")
    assert printed.exit_code == 0, printed.stderr
    assert sorted((task["text"], task["dates"]["due"]) for task in json.loads(printed.stdout)["tasks"]) == [
        ("call mum by Friday", "2026-12-04"), ("file the report by tomorrow", "2026-12-05"),
        ("send the deck by tomorrow", "2026-12-05"), ("send the memo by today", "2026-12-04")]


def test_a_capitalised_time_of_day_after_a_weekday_keeps_the_due_day(tmp_path: Path) -> None:
    """Was (review43b, s43): since a capitalised word after a day opens a name (``by Friday Night
    Lights``), ``send the report by Monday Morning`` and ``file taxes due Friday Afternoon`` had
    no due day at all. A time of the day is part of the deadline unless a capitalised word follows
    it, as a show's name does."""
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "2026-12-02.md": "- [ ] send the report by Monday Morning\n- [ ] file taxes due Friday Afternoon\n"
                         "- [ ] pay Sam by Thursday Noon, he asked twice\n"
                         "- [ ] I fell asleep by Friday Night Lights again\n"})
    printed = run_cli(root, "tasks", "--json", "--as-of", "2026-12-02T12:00:00+00:00")
    assert printed.exit_code == 0, printed.stderr
    assert {task["text"]: task["dates"].get("due") for task in json.loads(printed.stdout)["tasks"]} == {
        "send the report by Monday Morning": "2026-12-07",
        "file taxes due Friday Afternoon": "2026-12-04",
        "pay Sam by Thursday Noon, he asked twice": "2026-12-03",
        "I fell asleep by Friday Night Lights again": None,
    }
