"""The days a task line names (vaultmem/task_dates.py): the Tasks plugin's emoji and Dataview's
inline fields, each with the file's line; never a task's note's date (adr/0026 "Task dates")."""

from __future__ import annotations

from datetime import date

from vaultmem.task_dates import TaskDay, task_days


def test_each_tasks_plugin_and_dataview_date_field_is_read_with_its_kind_and_line() -> None:
    body = ("# Week\n"
            "- [ ] Call Dana 📅 2024-03-15 ⏳ 2024-03-10 🛫 2024-03-08 ➕ 2024-03-01 🔁 every week\n"
            "- [x] Send the invoice ✅ 2024-03-16\n"
            "> - [-] Old plan ❌ 2024-03-02\n"
            "* [ ] Review [due:: 2024-03-20] (scheduled:: 2024-03-18) [completion:: 2024-03-21]\n")
    assert task_days(body, body_line=4) == [
        TaskDay(5, "Call Dana 🔁 every week", "due", date(2024, 3, 15)),
        TaskDay(5, "Call Dana 🔁 every week", "scheduled", date(2024, 3, 10)),
        TaskDay(5, "Call Dana 🔁 every week", "starts", date(2024, 3, 8)),
        TaskDay(5, "Call Dana 🔁 every week", "created", date(2024, 3, 1)),
        TaskDay(6, "Send the invoice", "done", date(2024, 3, 16)),
        TaskDay(7, "Old plan", "cancelled", date(2024, 3, 2)),
        TaskDay(8, "Review", "due", date(2024, 3, 20)),
        TaskDay(8, "Review", "scheduled", date(2024, 3, 18)),
        TaskDay(8, "Review", "done", date(2024, 3, 21)),
    ]


def test_no_day_is_read_from_a_list_item_without_a_box_from_code_or_from_a_day_that_does_not_exist() -> None:
    body = ("- Dentist 📅 2024-03-15\n"
            "```\n- [ ] example 📅 2024-03-15\n```\n"
            "- [x] 2025-90-10 17:00 Archived card ✅ 2025-02-30\n"
            "Due 📅 2024-03-15 in prose\n")
    assert task_days(body) == []
