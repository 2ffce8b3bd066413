"""Dates in the note's language (adr/0026 "Dates in the note's language"): a date property named as
a date line's label (`fecha:`, `Datum:`, `date de création:`) dates a note without a `[dates]`
setting, after every rule that dated notes before it (dating.language_property_date); periods said
in French, Spanish, German and Portuguese are bounds (period_words.py); and a task question reads
"between X and Y", weekends and weekday names in those languages (task_query.py)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from helpers import run_cli, run_json, write_file
from mcp_client import run, serve

from vaultmem import Vault
from vaultmem.config import CONFIG_FILE
from vaultmem.dating import days_said, note_date, since_bound, until_bound
from vaultmem.errors import UsageError
from vaultmem.period_words import LANGUAGES, PERIOD_WORDS
from vaultmem.task_query import read_task_query

NOW = "2026-12-02T12:00:00+00:00"  # a Wednesday
NOW_TIME = datetime.fromisoformat(NOW)


def configure(root: Path) -> None:
    write_file(root, CONFIG_FILE, 'embedder = "hashing"\n')


def listed(root: Path, since: str = "1990", until: str | None = None) -> dict[str, str | None]:
    with Vault(root) as vault:
        return {note.path: note.date for note in vault.list_notes(k=100, now=NOW, since=since, until=until)}


# ---------------------------------------------------------------- 1. a date property in the note's language

# Each as a template in that language writes its frontmatter; none is named in .vaultmem.toml.
PROPERTY_FORMS = {
    "fecha.md": ("---\nfecha: 2024-01-05\ntags: [diario]\n---\nHoy.\n", "2024-01-05"),
    "Fecha-day-first.md": ("---\nFecha: 05/02/2024\n---\nReunión.\n", "2024-02-05"),  # Spanish writes the day first
    "datum.md": ("---\nDatum: 07.02.2024\n---\nProtokoll.\n", "2024-02-07"),
    "data-pt.md": ("---\ndata: 2024-02-12\n---\nReunião.\n", "2024-02-12"),
    "created-fr.md": ("---\ndate de création: 13 février 2024\n---\nTexte.\n", "2024-02-13"),
    "ru.md": ("---\nдата: 10 февраля 2024\n---\nСегодня.\n", "2024-02-10"),
    "ja.md": ("---\n日付: 2024年2月14日\n---\n今日。\n", "2024-02-14"),
    "zh.md": ("---\n日期: 2024-02-15\n---\n今天。\n", "2024-02-15"),
    "yaml-list.md": ("---\nfecha:\n  - \"[[2024-02-16]]\"\n---\nLink.\n", "2024-02-16"),
}


def test_a_date_property_named_in_the_notes_language_dates_it_without_a_setting(vault_dir: Path) -> None:
    configure(vault_dir)
    for name, (text, _) in PROPERTY_FORMS.items():
        write_file(vault_dir, name, text)
    assert listed(vault_dir) == {name: day for name, (_, day) in PROPERTY_FORMS.items()}
    assert listed(vault_dir, since="2024-02-05", until="2024-02-07") == {"Fecha-day-first.md": "2024-02-05", "datum.md": "2024-02-07"}
    result = run_cli(vault_dir, "list", "--since", "2024-01-05", "--until", "2024-01-05", "--as-of", NOW)
    assert result.exit_code == 0 and "fecha.md" in result.stdout and "datum.md" not in result.stdout


def test_an_english_date_or_created_property_and_a_name_still_win_over_a_property_in_another_language() -> None:
    date_first = note_date({"fecha": "2024-01-05", "date": "2024-01-01"}, "a.md")
    assert date_first is not None and date_first.source == "date"
    created_first = note_date({"fecha": "2024-01-05", "created": "2023-12-31"}, "a.md")
    assert created_first is not None and (created_first.source, created_first.written) == ("created", True)
    name_first = note_date({"Datum": "2024-01-05"}, "Journal/2024-01-02.md")
    assert name_first is not None and name_first.source == "file name"
    # Among them, the day a note is about before when it was made, whatever their order.
    about_first = note_date({"Fecha de creación": "2024-01-01", "Fecha": "2024-01-05"}, "a.md")
    assert about_first is not None and (about_first.source, about_first.written) == ("Fecha", False)
    written = note_date({"erstellt am": "2024-01-03"}, "a.md")
    assert written is not None and (written.source, written.written) == ("erstellt am", True)
    # ... and a property before a line at the top of the text.
    both = note_date({"fecha": "2024-01-05"}, "a.md", body="# Nota\nFecha: 2024-01-09\n\nTexto.\n")
    assert both is not None and both.source == "fecha"


def test_a_number_a_list_or_a_word_under_such_a_name_is_no_date_and_no_problem(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "numbers.md", "---\ndata: 42\n---\nA data note in English.\n")  # no Unix time of 1970
    write_file(vault_dir, "list.md", "---\ndata: [1, 2, 3]\n---\nSeries.\n")
    write_file(vault_dir, "word.md", "---\nDatum: unbekannt\n---\nKein Tag.\n")
    assert listed(vault_dir, since="1900") == {}
    assert run_json(vault_dir, "check")["problems"] == []
    assert note_date({"fecha": 2011}, "a.md") is not None  # a year, as `date: 2011` is one


def test_such_a_property_whose_text_is_no_date_is_reported_naming_the_file_and_the_field(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Diario/Roto.md", "---\nfecha: 31/02/2024\n---\nTexto.\n")
    write_file(vault_dir, "Diario/Plantilla.md", "---\nFecha: <% tp.date.now(\"YYYY-MM-DD\") %>\n---\nTexto.\n")
    write_file(vault_dir, "Tagebuch/Falsch.md", "---\nDatum: 31. Februar 2024\n---\nText.\n")
    # English words that are date labels elsewhere: text with words of its own was never meant
    # as a day (a review: every `data: sensor v2 readings` was flagged).
    write_file(vault_dir, "lab/run.md", "---\ndata: sensor v2 readings\n---\nA run.\n")
    write_file(vault_dir, "lab/batch.md", "---\ndata: 3 files from batch 7\n---\nA batch.\n")
    problems = {(problem["path"], problem["field"]): problem for problem in run_json(vault_dir, "check")["problems"]}
    assert set(problems) == {("Diario/Roto.md", "fecha"), ("Diario/Plantilla.md", "Fecha"),
                             ("Tagebuch/Falsch.md", "Datum")}, problems
    assert problems[("Diario/Roto.md", "fecha")]["message"].startswith(
        "fecha is '31/02/2024', which is not a date: --since/--until (since/until) do not read it")
    assert "template's command that never ran" in problems[("Diario/Plantilla.md", "Fecha")]["message"]


# ---------------------------------------------------------------- 2. relative periods in other languages

SAID = {
    "hier": "yesterday", "avant-hier": "day before yesterday", "la semaine dernière": "last week",
    "le mois dernier": "last month", "cette semaine": "this week",
    "ayer": "yesterday", "anteayer": "day before yesterday", "la semana pasada": "last week",
    "el mes pasado": "last month", "esta semana": "this week",
    "gestern": "yesterday", "vorgestern": "day before yesterday", "letzte Woche": "last week",
    "letzten Monat": "last month", "diese Woche": "this week",
    "ontem": "yesterday", "semana passada": "last week",
}


@pytest.mark.parametrize(("said", "english"), SAID.items())
def test_a_period_said_in_french_spanish_german_or_portuguese_is_the_bound_its_english_words_are(said: str, english: str) -> None:
    assert since_bound(said, NOW_TIME) == since_bound(english, NOW_TIME)
    assert until_bound(said, NOW_TIME) == until_bound(english, NOW_TIME)
    assert days_said(said, NOW_TIME) == days_said(english, NOW_TIME)


# A weekday with last / next / this as each language says it (s36; was refused as "neither a date
# nor a duration"). NOW is a Wednesday: last Friday is 2026-11-27, next Friday 2026-12-04.
WEEKDAY_SAID = {
    "vendredi dernier": "last friday", "Vendredi passé": "last friday", "lundi prochain": "next monday",
    "ce vendredi": "this friday", "samedi dernier": "last saturday",
    "el viernes pasado": "last friday", "viernes pasado": "last friday", "el próximo lunes": "next monday",
    "el lunes que viene": "next monday", "este viernes": "this friday", "el domingo pasado": "last sunday",
    "letzten Freitag": "last friday", "am vergangenen Freitag": "last friday", "nächsten Montag": "next monday",
    "am kommenden Montag": "next monday", "diesen Freitag": "this friday",
    "sexta-feira passada": "last friday", "na sexta passada": "last friday", "sábado passado": "last saturday",
    "na próxima segunda-feira": "next monday", "próximo domingo": "next sunday", "esta sexta": "this friday",
    "venerdì scorso": "last friday", "domenica scorsa": "last sunday", "lunedì prossimo": "next monday",
    "il prossimo lunedì": "next monday", "la prossima domenica": "next sunday", "questo venerdì": "this friday",
    "la settimana scorsa": "last week", "ieri": "yesterday", "domani": "tomorrow",
}


@pytest.mark.parametrize(("said", "english"), WEEKDAY_SAID.items())
def test_a_weekday_with_last_next_or_this_in_another_language_is_the_bound_its_english_words_are(said: str,
                                                                                                   english: str) -> None:
    assert since_bound(said, NOW_TIME) == since_bound(english, NOW_TIME)
    assert until_bound(said, NOW_TIME) == until_bound(english, NOW_TIME)
    assert days_said(said, NOW_TIME) == days_said(english, NOW_TIME)


def test_the_weekdays_said_so_are_the_days_the_english_words_name() -> None:
    assert days_said("vendredi dernier", NOW_TIME) == (date(2026, 11, 27),) * 2
    assert days_said("letzten Freitag", NOW_TIME) == (date(2026, 11, 27),) * 2
    assert days_said("el viernes pasado", NOW_TIME) == (date(2026, 11, 27),) * 2
    assert days_said("venerdì scorso", NOW_TIME) == (date(2026, 11, 27),) * 2
    assert days_said("vendredi prochain", NOW_TIME) == (date(2026, 12, 4),) * 2  # the nearest after today
    assert days_said("mercredi prochain", NOW_TIME) == (date(2026, 12, 9),) * 2  # never today


@pytest.mark.parametrize("wrong", ["sexta passado", "domingo passada", "domenica scorso", "venerdì scorsa"])
def test_a_weekday_whose_words_do_not_agree_with_its_gender_stays_refused(wrong: str) -> None:
    with pytest.raises(UsageError, match="is neither a date nor a duration"):
        since_bound(wrong, NOW_TIME)


def test_a_pair_of_french_weekdays_is_the_span_a_person_says(vault_dir: Path) -> None:
    # On Wednesday 2 December "lundi dernier" is 30 November, and "vendredi" as the pair's until
    # is the first Friday on or after it (4 December), as "--since 'last monday' --until friday" is.
    configure(vault_dir)
    for day in ("2026-11-27", "2026-11-29", "2026-11-30", "2026-12-04", "2026-12-05"):
        write_file(vault_dir, f"Journal/{day}.md", f"Réunion du {day}.\n")
    assert set(listed(vault_dir, since="lundi dernier", until="vendredi")) == {"Journal/2026-11-30.md", "Journal/2026-12-04.md"}
    assert listed(vault_dir, since="lundi dernier", until="vendredi") == listed(vault_dir, since="last monday", until="friday")
    result = run_cli(vault_dir, "list", "--since", "letzten Freitag", "--until", "letzten Freitag", "--as-of", NOW, "--json")
    assert result.exit_code == 0, result.output
    assert "Journal/2026-11-27.md" in result.stdout
    assert "Journal/2026-11-28.md" not in result.stdout


def test_the_day_before_yesterday_is_two_days_back_in_each_language_and_in_english() -> None:
    for said in ("avant-hier", "Anteayer", "vorgestern", "anteontem", "day before yesterday"):
        assert days_said(said, NOW_TIME) == (NOW_TIME.date().replace(day=30, month=11),) * 2, said


def test_accents_case_and_hyphens_do_not_matter_and_every_table_is_read_at_once() -> None:
    for said in ("La Semaine Derniere", "la_semana_pasada", "LETZTE WOCHE", "Avant hier", "semana-passada", "W zeszlym tygodniu"):
        assert days_said(said, NOW_TIME) == days_said("last week" if "hier" not in said.lower() else "day before yesterday",
                                                      NOW_TIME), said
    weekdays = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    assert set(PERIOD_WORDS.values()) <= {"today", "yesterday", "tomorrow", "day before yesterday", "day after tomorrow",
                                          *(f"{which} {unit}" for which in ("this", "last", "next")
                                            for unit in ("week", "month", "year", *weekdays))}
    assert set(LANGUAGES) == {"fr", "es", "de", "pt", "it", "tr", "ru", "uk", "pl"}


@pytest.mark.parametrize("unknown", ["hace poco", "la semaine", "neulich", "récemment", "semana"])
def test_words_that_name_no_period_keep_the_clear_refusal(unknown: str) -> None:
    with pytest.raises(UsageError, match=re.escape(f"since '{unknown}' is neither a date nor a duration")):
        since_bound(unknown, NOW_TIME)


def test_list_and_search_by_a_spanish_period_over_the_cli_and_mcp(vault_dir: Path, tmp_path: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Diario/2026-12-01.md", "Ayer fui al médico.\n")
    write_file(vault_dir, "Diario/2026-11-24.md", "La semana pasada: médico.\n")
    assert listed(vault_dir, since="ayer", until="ayer") == {"Diario/2026-12-01.md": "2026-12-01"}
    assert listed(vault_dir, since="la semana pasada", until="la semana pasada") == {"Diario/2026-11-24.md": "2026-11-24"}
    result = run_cli(vault_dir, "search", "médico", "--since", "gestern", "--until", "gestern", "--as-of", NOW)
    assert result.exit_code == 0 and "Diario/2026-12-01.md" in result.stdout and "Diario/2026-11-24.md" not in result.stdout
    refused = run_cli(vault_dir, "list", "--since", "hace poco")
    assert refused.exit_code == 2 and "--since 'hace poco' is neither a date nor a duration" in refused.stderr

    yesterday = (date.today() - timedelta(days=1)).isoformat()  # the server runs on the real clock
    write_file(vault_dir, f"Journal/{yesterday}.md", "Hier : le médecin.\n")

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            answer = await served.call("list_notes", since="hier", until="hier")
            paths = [note["path"] for note in answer["notes"]]
            assert f"Journal/{yesterday}.md" in paths and all(path.endswith(f"/{yesterday}.md") for path in paths), answer
            refused = await served.error("list_notes", since="hace poco")
            assert "since 'hace poco' is neither a date nor a duration" in refused

    run(scenario)


# ---------------------------------------------------------------- 3. task questions

def test_between_x_and_y_is_a_range_of_days_dates_or_weekdays() -> None:
    read = read_task_query("what's due between 2026-12-01 and 2026-12-20", NOW_TIME)
    assert read.due == ("2026-12-01", "2026-12-20") and read.words == []
    weekdays = read_task_query("due between Monday and Friday", NOW_TIME)  # next Monday, the Friday after it
    assert weekdays.due == ("2026-12-07", "2026-12-11")
    assert weekdays.said == ["due between Monday and Friday → due 2026-12-07..2026-12-11"]
    wrapped = read_task_query("between Friday and Monday", NOW_TIME)  # the Monday after that Friday
    assert wrapped.due == ("2026-12-04", "2026-12-07")
    years = read_task_query("done between 2025 and 2026", NOW_TIME)
    assert years.done == ("2025-01-01", "2026-12-31")
    with pytest.raises(UsageError, match="names no due day: 2026-12-20 is after 2026-12-01"):
        read_task_query("due between 2026-12-20 and 2026-12-01", NOW_TIME)


@pytest.mark.parametrize(("question", "english"), [
    ("¿qué tareas vencen esta semana?", "what tasks are due this week"),
    ("quelles tâches pour demain", "what tasks for tomorrow"),
    ("Quelles taches pour demain ?", "what tasks for tomorrow"),
    ("welche Aufgaben sind diese Woche fällig", "which tasks are due this week"),
    ("quais tarefas para amanhã", "what tasks for tomorrow"),
])
def test_a_task_question_in_french_spanish_german_or_portuguese_reads_as_its_english_form(question: str, english: str) -> None:
    """Was: their words of asking were text every task had to hold ("qué", "tareas", "vencen"), and
    the question answered no task, though its period was read."""
    read, asked = read_task_query(question, NOW_TIME), read_task_query(english, NOW_TIME)
    assert (read.words, read.due, read.done, read.status) == ([], asked.due, (None, None), None)
    assert read.due != (None, None)


def test_words_of_a_task_stay_text_beside_the_asking_words_of_another_language(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Proyectos.md", "- [ ] Enviar el presupuesto 📅 2026-12-03\n- [ ] Llamar a Ana 📅 2026-12-03\n"
                                          "- [ ] Revisar el contrato 📅 2026-12-09\n")
    tomorrow = run_json(vault_dir, "tasks", "¿qué tareas vencen mañana?", "--as-of", NOW)
    assert [task["text"] for task in tomorrow["tasks"]] == ["Enviar el presupuesto", "Llamar a Ana"]
    about = run_json(vault_dir, "tasks", "¿qué tareas de presupuesto para mañana?", "--as-of", NOW)
    assert [task["text"] for task in about["tasks"]] == ["Enviar el presupuesto"]


@pytest.mark.parametrize(("question", "words"), [
    ("AI tasks", ["ai"]), ("what are my AI tasks", ["ai"]), ("tasks for the OS upgrade", ["os", "upgrade"]),
    ("ES migration tasks", ["es", "migration"]), ("tasks for the LA trip", ["la", "trip"]),
    ("die casting", ["die", "casting"]), ("buy hay", ["buy", "hay"]),
])
def test_an_english_task_question_keeps_words_that_are_another_languages_words_of_asking(
        question: str, words: list[str]) -> None:
    """Was (review): "ai" (French j'ai), "os", "es", "la", "die", "hay" were words of asking in any
    question, so "AI tasks" answered every task and "tasks for the OS upgrade" every upgrade."""
    assert read_task_query(question, NOW_TIME).words == words


def test_tasks_asked_about_ai_over_the_cli_are_the_ai_tasks_not_every_task(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Work.md", "- [ ] Evaluate the AI summariser\n- [ ] Renew the office lease\n"
                                     "- [ ] Plan the OS upgrade\n")
    ai = run_json(vault_dir, "tasks", "what are my AI tasks", "--as-of", NOW)
    assert [task["text"] for task in ai["tasks"]] == ["Evaluate the AI summariser"]
    os_upgrade = run_json(vault_dir, "tasks", "tasks for the OS upgrade", "--as-of", NOW)
    assert [task["text"] for task in os_upgrade["tasks"]] == ["Plan the OS upgrade"]


def test_this_next_and_last_weekend_are_a_saturday_and_its_sunday() -> None:
    assert read_task_query("due this weekend", NOW_TIME).due == ("2026-12-05", "2026-12-06")
    assert read_task_query("next weekend", NOW_TIME).due == ("2026-12-12", "2026-12-13")
    assert read_task_query("finished last weekend", NOW_TIME).done == ("2026-11-28", "2026-11-29")
    sunday = datetime(2026, 12, 6, 12, tzinfo=UTC)
    assert read_task_query("this weekend", sunday).due == ("2026-12-05", "2026-12-06")  # the one it is in
    assert read_task_query("weekend plans", NOW_TIME).words == ["weekend", "plans"]  # alone: a word


@pytest.mark.parametrize("friday", ["Friday", "vendredi", "viernes", "Freitag", "sexta-feira", "venerdì", "пятницу"])
def test_a_weekday_named_in_a_language_month_names_reads_is_that_day(friday: str) -> None:
    read = read_task_query(f"due {friday}", NOW_TIME)
    assert read.due == ("2026-12-04", "2026-12-04") and read.words == []


def test_a_short_weekday_name_stays_a_word_of_the_task() -> None:
    for word in ("sat", "per", "mar", "ven"):  # an English word, or a short name no one asks a day by
        assert read_task_query(f"{word} report", NOW_TIME).words == [word, "report"]


def test_list_tasks_over_the_cli_reads_a_weekday_in_french_and_a_range(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "Projets.md", "- [ ] Envoyer le devis 📅 2026-12-04\n- [ ] Relancer 📅 2026-12-09\n"
                                        "- [ ] Bilan 📅 2026-12-12\n")
    friday = run_json(vault_dir, "tasks", "vendredi", "--as-of", NOW)
    assert [task["text"] for task in friday["tasks"]] == ["Envoyer le devis"]
    between = run_json(vault_dir, "tasks", "between Monday and Friday", "--as-of", NOW)
    assert [task["text"] for task in between["tasks"]] == ["Relancer"]
    weekend = run_json(vault_dir, "tasks", "next weekend", "--as-of", NOW)
    assert [task["text"] for task in weekend["tasks"]] == ["Bilan"]


# Turkish (s37; was refused as "neither a date nor a duration", though month_names reads its
# months and weekdays): no article, no gender; dotless ı as i (`GEÇEN SALI`, `gecen sali`).
TURKISH_SAID = {
    "geçen cuma": "last friday", "GEÇEN CUMA": "last friday", "geçtiğimiz perşembe": "last thursday",
    "geçen cumartesi günü": "last saturday", "önümüzdeki pazartesi": "next monday", "gelecek cuma": "next friday",
    "bu cuma": "this friday", "geçen salı": "last tuesday", "gecen sali": "last tuesday", "GEÇEN SALI": "last tuesday",
    "bugün": "today", "dün": "yesterday", "evvelsi gün": "day before yesterday", "yarın": "tomorrow",
    "geçen hafta": "last week", "bu hafta": "this week", "önümüzdeki hafta": "next week", "geçen ay": "last month",
    "gelecek ay": "next month", "bu yıl": "this year", "geçen sene": "last year",
}


@pytest.mark.parametrize(("said", "english"), TURKISH_SAID.items())
def test_a_period_or_weekday_said_in_turkish_is_the_bound_its_english_words_are(said: str, english: str) -> None:
    assert since_bound(said, NOW_TIME) == since_bound(english, NOW_TIME)
    assert until_bound(said, NOW_TIME) == until_bound(english, NOW_TIME)
    assert days_said(said, NOW_TIME) == days_said(english, NOW_TIME)


# Russian and Ukrainian (s38; was refused as "neither a date nor a duration"): the day and its adjective
# declined by gender and case (в прошлую пятницу, в прошлый понедельник; минулої п'ятниці, у минулу
# п'ятницю), and Ukrainian's apostrophe as any keyboard types it (', ’, ʼ).
SLAVIC_SAID = {
    "в прошлую пятницу": "last friday", "В прошлую пятницу": "last friday", "прошлая пятница": "last friday",
    "в прошлый понедельник": "last monday", "в прошлое воскресенье": "last sunday", "в прошлую среду": "last wednesday",
    "в следующий вторник": "next tuesday", "в эту субботу": "this saturday", "вчера": "yesterday",
    "позавчера": "day before yesterday", "на прошлой неделе": "last week", "в этом месяце": "this month",
    "в прошлом году": "last year",
    "минулої п'ятниці": "last friday", "минулої п’ятниці": "last friday", "минулої пʼятниці": "last friday",
    "у минулу п'ятницю": "last friday", "минулого понеділка": "last monday", "минулої неділі": "last sunday",
    "наступного четверга": "next thursday", "в наступну середу": "next wednesday", "цієї суботи": "this saturday",
    "вчора": "yesterday", "учора": "yesterday", "минулого тижня": "last week", "наступного місяця": "next month",
    "торік": "last year",
}


@pytest.mark.parametrize(("said", "english"), SLAVIC_SAID.items())
def test_a_period_or_weekday_said_in_russian_or_ukrainian_is_the_bound_its_english_words_are(said: str, english: str) -> None:
    assert since_bound(said, NOW_TIME) == since_bound(english, NOW_TIME)
    assert until_bound(said, NOW_TIME) == until_bound(english, NOW_TIME)
    assert days_said(said, NOW_TIME) == days_said(english, NOW_TIME)


# Polish (s42; was refused as "neither a date nor a duration"): the adjective by the noun's gender and
# case (w zeszłym tygodniu, zeszły tydzień; w zeszły piątek, w zeszłą środę), and ł typed as l.
POLISH_SAID = {
    "zeszły tydzień": "last week", "w zeszłym tygodniu": "last week", "w zeszlym tygodniu": "last week",
    "W ubiegłym tygodniu": "last week", "w zeszłym miesiącu": "last month", "poprzedni miesiąc": "last month",
    "w przyszłym tygodniu": "next week", "w przyszłym miesiącu": "next month", "w tym tygodniu": "this week",
    "w tym roku": "this year", "w zeszłym roku": "last year", "wczoraj": "yesterday", "dzisiaj": "today",
    "przedwczoraj": "day before yesterday", "jutro": "tomorrow", "w zeszły piątek": "last friday",
    "w zeszłą środę": "last wednesday", "w ostatnią niedzielę": "last sunday", "w przyszły poniedziałek": "next monday",
    "w następną sobotę": "next saturday", "w tę sobotę": "this saturday", "w ten czwartek": "this thursday",
}


@pytest.mark.parametrize(("said", "english"), POLISH_SAID.items())
def test_a_period_or_weekday_said_in_polish_is_the_bound_its_english_words_are(said: str, english: str) -> None:
    assert since_bound(said, NOW_TIME) == since_bound(english, NOW_TIME)
    assert until_bound(said, NOW_TIME) == until_bound(english, NOW_TIME)
    assert days_said(said, NOW_TIME) == days_said(english, NOW_TIME)


def test_a_polish_period_bounds_a_search_from_the_command_line(vault_dir: Path) -> None:
    configure(vault_dir)
    write_file(vault_dir, "2026-11-25.md", "Swam on Wednesday.\n")  # last week's Wednesday
    write_file(vault_dir, "2026-11-10.md", "Swam in early November.\n")
    said = run_cli(vault_dir, "list", "--since", "w zeszłym tygodniu", "--as-of", NOW)
    english = run_cli(vault_dir, "list", "--since", "last week", "--as-of", NOW)
    assert said.exit_code == 0, said.stderr
    assert "2026-11-25" in said.stdout and "2026-11-10" not in said.stdout, said.stdout
    assert said.stdout == english.stdout


@pytest.mark.parametrize(("month", "offered"), [("march", "'march 2026' or 2026-03"), ("mars", "'mars 2026' or 2026-03"),
                                                ("März", "'März 2026' or 2026-03"), ("Sept.", "'Sept. 2026' or 2026-09")])
def test_a_month_named_alone_is_refused_with_the_forms_read(month: str, offered: str) -> None:
    # Was: "neither a date nor a duration", with no word on months, while `--since 'march 2026'` was read.
    with pytest.raises(UsageError) as refused:
        since_bound(month, NOW_TIME)
    assert "is a month without its year" in str(refused.value) and offered in str(refused.value), str(refused.value)
    assert since_bound(offered.split(" or ")[0].strip("'"), NOW_TIME) == since_bound(offered.split(" or ")[1], NOW_TIME)


def test_an_until_month_alone_offers_the_next_one(vault_dir: Path) -> None:
    configure(vault_dir)
    refused = run_cli(vault_dir, "list", "--until", "march", "--as-of", NOW)
    assert refused.exit_code != 0
    assert "--until 'march' is a month without its year" in refused.stderr and "'march 2027' or 2027-03" in refused.stderr
