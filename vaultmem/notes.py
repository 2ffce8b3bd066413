"""Reading note files: frontmatter, body, title, identity and per-note problems.

Reading never raises on what real vaults contain (a BOM, CRLF, no frontmatter, a body
that opens with a ``---`` rule, YAML that does not load, non-UTF-8 bytes): each of those
becomes a :class:`Problem` on the returned :class:`Note`, naming the file, the field and
the fix. Only an unreadable file (permissions, vanished) raises :class:`NoteReadError`.

When the frontmatter does not load, the lifecycle keys, the title and the date properties
are still read line by line (:func:`salvage_lifecycle`): a typo in a tag must not bring an
expired memory back, change its id, rename it or leave it out of a listing by date. A note is named as Obsidian names it: its ``title`` property, else its file
name (adr/0020-excluded-files-and-titles.md).
"""

from __future__ import annotations

import bisect
import codecs
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from .canvas import CANVAS_FIX, canvas_text, is_canvas_path
from .errors import CHECK, InvalidTimestamp, NoteReadError, Operation, Spelled, UnknownLayer, short_repr
from .escapes import SwallowedEscape, single_quoted, swallowed_escapes
from .fields import BOOKKEEPING_KEYS, aliases_of, case_fold, link_text, name_fold, opening_heading
from .lifecycle import (
    EXPIRING_LAYERS,
    PERMANENT_LAYER,
    as_given,
    is_absent,
    is_permanent,
    normalize_layer,
    parse_timestamp,
    to_epoch_us,
)
from .logseq import field_meta, naming_meta
from .look_alikes import look_alike_fix
from .markdown import HEADING_LINE, unclosed_inline_comment, without_code_or_hidden
from .merge_markers import first_conflict, utf16_with_byte_markers
from .notion import is_notion_page, notion_meta, without_page_id
from .option_names import Surface
from .slugs import same_slug
from .spelled_days import value_date

# Bumped whenever what is derived from a file's bytes changes (title, metadata, problems):
# an index made by an earlier reader reads every file again at its next reconcile (the index
# keeps it, with the embed recipe, as searchable.INDEX_RULES).
# 2: the title is the `title` property or the file name; lifecycle lines of YAML that breaks.
# 3: each note's name keys (fields.name_key), for search's exact-name bonus.
# 4: a note without a body has its passage on the frontmatter's lines, not past the file's end.
# 5: an expires_at that no UTC instant holds is stored in its ISO form, not as a Python repr.
# 6: dates from more daily-note names (2026_11_30, 20261130, Daily/2026/11/30), Unix-time stamps,
#    a title YAML reads as a date, no #tags from comments.
# 7: each note's topic keys (fields.name_topic): its names without stopwords, for a question
#    that names it ("who is Kevin Kelly").
# 8: whether each note's date is a day's label or an instant (storage m010), for local days.
# 9: a date-time written without a zone (date: 2026-11-30T21:30) is a day, the day it names.
# 10: each character of Chinese, Japanese and Korean is a token of the full text (cjk.py); a
#     value shaped like a date that is no day (2023-02-30) is text, not a YAML error; a `date`
#     that is no date is a problem, and one written in words (date: May 4, 2023) is read.
# 11: the full text holds German ß as ss (cjk.fts_form): "Strasse" finds "Straße"; topic keys
#     drop German, French and Spanish stopwords too (fields.STOPWORDS).
# 12: aliases as Obsidian reads them (fields.aliases_of): `alias` as well as `aliases`, a
#     string split on commas (`aliases: Tommy, T-Bone` is two names, stored and name-keyed so).
# 13: the full text holds the Turkish dotless ı as i (cjk.fts_form): "KADIKÖY" finds "Kadıköy".
# 14: a frontmatter block a few lines below line 1 is a problem (misplaced_frontmatter).
# 15: ... but under the note's own text only with a key a frontmatter is for (a recipe's
#     `Serves: 4` / `Time: 20 min` between rules under its heading is the note's text).
# 16: names fold as the full text does (fields.name_key): accents of Latin letters dropped, ı is i.
# 17: a query block (```dataview, ```dataviewjs, ```query, ```base, ```tasks) is left out of the
#     passages and vectors (searchable.searchable): it renders other notes.
# 18: ... and a fenced block inside a comment (Excalidraw's drawing, Kanban's settings) or in
#     compressed-json is a plugin's data, left out the same way (markdown.query_block_ranges).
# 19: git's merge-conflict markers left in a note are a problem (conflict_problems).
# 20: frontmatter read otherwise than meant is a problem: a key set twice, a `key: #…` value
#     YAML reads as a comment, a block that is a list or `key:value` text (not a mapping).
# 21: a file that starts with a UTF-16 byte-order mark is read as UTF-16 (decode), not as
#     UTF-8 garbage; it stays an `encoding` problem.
# 22: a note whose frontmatter loads with a key set twice or a `key: #…` value still has its
#     missing expires_at reported (20 took any frontmatter problem for a block that did not load).
# 23: markers inside one fenced code block are no merge conflict (merge_markers.first_conflict).
# 24: a UTF-16 note a byte-level merge wrote UTF-8 conflict markers into is read with them as
#     lines (merge_markers.utf16_with_byte_markers): a conflict, not garbage.
# 25: a month in German, French or Spanish dates a note by its name or `date` (month_names.py):
#     `15. März 2024.md`, `date: jeudi 4 mai 2023`; a daily note's `date` of another day than its
#     name is a problem (dating.date_problems).
# 26: a periodic note (2026-W09, 2026-03, 2026-Q1, or as Periodic Notes' formats name them) is
#     dated by its span (dating.note_date, notes.dated_end_us); a name shaped as one that is no
#     period (2026-W54) is a problem.
# 26: a problem is stored with how the command line and MCP say it (Problem.as_stored), and a
#     template in a folder named for templates is offered that folder's exclude pattern.
# 27: a day written with year, month and day characters dates a note by its name or `date`
#     (dating._CJK_DATE): `2026年11月20日.md`, `date: 2026年11月20日`, Korean `2026년 11월 20일`.
# 28: name keys read full-width forms as ASCII (fields.name_key, NFKC): `見字如晤:中秋書` is
#     suggested for `見字如晤：中秋書.md`, `(Chin Tuck)` is `（Chin Tuck）`.
# 29: such a day is read with a time right after its day character (`2026年11月20日10点组会.md`);
#     a periodic note's `date` outside its period is a problem (dating._outside_period_problem).
# 30: a second frontmatter block at the top of the body is a problem (second_frontmatter).
# 31: a note's `permalink` (basic-memory, Obsidian Publish) is stored as a name it answers to
#     (lookup_names, permalink_names): nothing is embedded again, no search field changes.
# 32: Excalidraw's banner line ("==⚠  Switch to EXCALIDRAW VIEW …") is left out of the passages
#     and vectors like a query block (markdown.query_block_ranges): the plugin's words.
# 33: a week or quarter that opens a name before a title ("2026-W09 Weekly review") dates the
#     note as that period (periods.iso_span), as a day before a title always did.
# 34: the full text and name keys hold the Russian ё as е (cjk.fts_form, fields.name_key):
#     "жильё" finds "жилье", "Елка: покупка" is the exact name of "Ёлка: покупка?"; a month in
#     Russian dates a note by its name or `date` (month_names.py): `15 марта 2024.md`.
# 35: a query block left open (```dataview with no closing fence) runs to the note's end
#     (markdown.fenced_blocks): its `from #tag` is no tag of the note, its words no text.
# 36: LaTeX in a double-quoted value that YAML read as its escapes (``"$\\beta$"``: a backspace)
#     is a problem (escapes.py); a date property holding a period (``date: 2011``, ``2026-03``)
#     dates the note as that span (dating._property_span), where it was "not a date"; a note's
#     citekey is a name it answers to (lookup_names); a mapping in a property is searchable text
#     (fields.string_values: CSL authors, `{family: Higgins, given: Irina}`).
# 37: the full text and name keys hold traditional Chinese characters as simplified
#     (cjk.han_folded, OpenCC's t2s table): "经期" finds and names a note writing "經期".
# 38: a note takes its title, aliases and tags from the Logseq page properties its body opens
#     with, where its frontmatter has none (logseq.naming_meta: `title:: Apache Flink/SQL`, `alias:: [[Flink SQL]]`).
# 39: the full text holds full-width and half-width forms as their plain characters
#     (cjk.width_folded): "ﾐﾙｸ" finds "ミルク", "ＳＱＬ" finds "SQL", "12日" finds "１２日".
# 40: a month in Turkish dates a note by its name or `date` (month_names.py): `15 Mart 2024 Cuma.md`
#     under the daily-note format `DD MMMM YYYY dddd`, `date: 4 Şubat 2026`; a citekey's and a
#     permalink's stored keys are case folded with Turkish İ and ı as i (fields.case_fold), and so
#     is a note's tag list read: `tags: [iş]` and `#İş` in its text are one tag, listed once.
# 41: a key that dates a note (`Modified:`) holding prose is no frontmatter key, so a block of
#     such lines between rules under the note's text is no misplaced frontmatter (_frontmatter_key);
#     the full text holds a language named by a letter and a sign as a word (`C++` is `cpp`,
#     `C#` is `csharp`: cjk.signs_spelled), where it held the letter alone; a note's file name
#     with `.md` and its vault path are names of it (fields.file_names).
# 42: a Logseq page's `tags:: #rust #async` is two tags, as Logseq reads it (logseq.property_items),
#     not the one tag "rust #async".
# 43: a dotted name in [dates] reaches a date inside a mapping property (dating.property_value:
#     `kindle-sync.lastAnnotatedDate`): an index that dated nothing by it dates those notes.
# 44: name keys read typographic apostrophes and quotes as typed ones (fields.name_key):
#     `Vel'Sharoon` is the exact name of `Vel’Sharoon`, and is suggested for it.
# 45: a note's topic keys come from its names (file name, title, aliases), not its path: the
#     keys of `Main Notes/GIL.md` as a path stay name keys only (fields.search_fields).
# 46: Hugo's TOML front matter (`+++` … `+++`) is read as the note's properties, not its text.
# 47: a page's properties also hold vaultmem's own fields in a Logseq graph (logseq.field_meta:
#     `vaultmem-id::`, `layer::`, `expires-at::`, `created::` when it is a time, `permanent::`,
#     `supersedes::`), where its frontmatter has none: a memory remembered into a graph is one.
# 48: topic keys drop Russian and Ukrainian stopwords too (fields.STOPWORDS), as they drop
#     German, French and Spanish ones (11).
# 49: a month in Ukrainian dates a note by its name or `date` (month_names.py): `1 травня 2024.md`.
# 50: a Logseq page's `merged-from::`, which consolidate --apply now writes on a graph's page it
#     keeps: the merged notes' ids resolve to it (resolution step 3).
# 51: the properties a plugin keeps its settings in (`excalidraw-…`, `sr-due`, `sr-interval`,
#     `sr-ease`, `kanban-plugin`: fields.is_plugin_setting) are no searchable text; the headings
#     Excalidraw writes in a drawing (`# Excalidraw Data`, `## Text Elements`, `## Embedded Files`,
#     `## Element Links`) are left out of its passages like its banner (markdown._with_banners); a
#     `created` holding a template command that never ran says so (notes._created_problem).
# 52: the first of a month as French writes it dates a note by its name or `date` (dating._WORDED_DATE):
#     `1er avril 2024.md`, `lundi 1er avril 2024.md`.
# 53: a file name holding a citation key is searched with the key's year apart too
#     (fields.with_years_apart: `@Abeler2011` is also `Abeler 2011`).
# 54: a Notion export's page id is no part of a note's title or of the name it is dated by
#     (notion.without_page_id: `Agenda wc 16th Mar 4000a420….md` is "Agenda wc 16th Mar", not
#     16 March 4000), and a page's `Created: December 13, 2021 7:54 PM` line is its `created`;
#     a date property is read in any case (dating.property_value: the Importer's `Created:`).
# 55: the name key of the `# heading` a note opens with is kept (note_names kind heading_key,
#     fields.opening_heading_key), for "no note matches" to suggest a Zettelkasten note named
#     202301161000.md by its heading; it names no note. Nothing is embedded again.
# 56: Bear's tag of several words closed by a second '#' (`#reading list#`) is the tag
#     `reading list` (notes.inline_tags).
# 57: a month in Portuguese or Italian dates a note by its name or `date` (month_names.py:
#     `sexta-feira, 15 de março de 2024.md`, `venerdì 15 settembre 2024.md`, `1º de maio de 2024.md`),
#     and topic keys drop Portuguese and Italian stopwords too (fields.STOPWORDS).
# 58: `+++` lines around prose (no line TOML gives meaning to) are the note's text, not TOML
#     frontmatter that does not load (notes._split_toml), as a `---` rule over prose is.
# 59: a memory whose name remember made from its title is dated by its `created`, not by a day
#     its title mentions (dating.note_date: "Ben's birthday is 1988-03-14"). Nothing is embedded again.
# 60: the daily-note format's ordinal day (`Do`) is read as moment writes it in the languages
#     month_names.py reads (French `1er` and `4`, German `4.`, Spanish `4º`, Russian `4-го`), not
#     in English alone: `dddd Do MMMM YYYY` makes `lundi 4 mai 2026.md` that day's note.
# 61: Foam's link reference definitions (its `[//begin]: # "Autogenerated link references…"` block
#     to `[//end]: # …`) are no part of a note's passages, vectors or snippets
#     (markdown.foam_reference_ranges): markdown renders none of it.
# 62: a line at the top of a note's text that says its date (`Date de création : 2026-04-23`,
#     `**Date:** 5 January 2024`, `Erstellt am: 05.01.2024`) dates a note nothing else dates
#     (dating.line_date, date_lines.py). Nothing is embedded again.
# 63: a `name` names a note that has no `title`, or whose `title` is not its file name (notes.naming_key:
#     `name: Matt Ober` beside `title: Partner`, his job); such a `title` is searched as a property.
# 64: a passage of a note in Russian, German, French, Spanish, Portuguese, Italian or Dutch
#     (stems.note_language) holds its words' Snowball stems in a full-text column of their own
#     (migration 015_stems made the full-text table anew; adr/0027 "Stems").
# 65: the full text holds a camelCase identifier followed by its words (identifiers.py:
#     `enablePodAntiAffinity enable Pod Anti Affinity`), so "pod anti affinity" finds it.
#     Nothing is embedded again.
# 66: YAML that does not load with a `{{placeholder}}` in it, whatever the error, is named a
#     template's problem (notes._yaml_problem), as one with `created: {{date}}` was.
# 67: a sync tool's conflict copy (`Note (conflicted copy 2026-12-01).md`, `Note.sync-conflict-20261201-…md`)
#     is dated as its original's name would date it (dating.note_date): the day of the clash is not the note's.
# 68: the `# heading` a note opens with is kept as a name (note_names kind heading, notes.HEADING,
#     case folded): a NOTE resolves by it last (resolution._by_heading, adr/0019). Nothing is embedded again.
# 69: a property named in the note's language with a date line's words (`fecha: 2024-01-05`,
#     `Datum: 05.01.2024`, `Fecha de creación: …`) dates a note nothing above it dates, without
#     a `[dates]` setting (dating.language_property_date, rule 6). Nothing is embedded again.
# 70: `time: 18:18` is the text 18:18, not YAML 1.1's sexagesimal 1098 (notes._number_or_time).
#     Nothing is embedded again.
# 71: the full text and name keys hold Arabic-script words without their marks and tatweel, each
#     letter written in several ways as one, and Arabic-Indic and Persian digits as ASCII ones
#     (arabic_script.arabic_folded): "ظلام" finds "ظَلامٌ", "الکافی" finds "الكافي", "1402" finds "۱۴۰۲".
# 72: a day in Persian or Arabic-Indic digits with a year of 1300 to 1499 (`date: ۱۴۰۳-۰۵-۱۲`, a
#     name `۱۴۰۳-۰۵-۱۲.md`) is a Solar Hijri day, not one of 1403 AD: no date (`check` names the
#     Gregorian day); with the Persian Calendar plugin on, a name's day of such a year is converted
#     (`1403-05-12.md` is 2024-08-02: jalali.py, adr/0026).
# 73: name keys drop right-to-left direction marks and read the zero-width non-joiner as a space
#     (fields.name_key): "فهرست کتاب های ۱۴۰۳" names the note titled "\u200fفهرست کتاب\u200cهای ۱۴۰۳".
# 74: a permalink answers by each end of it from a `/` on (`engineering/x` of `project/engineering/x`:
#     notes.permalink_names), not only whole and by its last part. Nothing is embedded again.
# 75: a date property's time is kept as the note writes it, in its zone or on a wall clock
#     (dating.NoteDate.said; storage column dated_said): 10:00-08:00 was shown as 18:00 UTC.
# 76: a date line after a symbol (`📆 Fecha: 2025-07-12`) or under the heading a note opens with, of
#     any level (`## Día 39`), dates a note nothing else dates (date_lines.py); a quoted day
#     (`date: "2024-03-01"`) is shown as that day, not 2024-03-01T00:00; a time written with `Z` is
#     shown with it (lifecycle.ZuluTime), not as +00:00. Nothing is embedded again.
# 77: a file name that spells its day in words (`August 16th, 2020.md`, Roam's daily pages) is
#     searched by its ISO spelling too (dating.name_with_iso_day). Nothing is embedded again.
# 78: Roam Research's `- {{[[TODO]]}} …` and `- {{[[DONE]]}} …` are tasks (task_dates._TASK_BOX).
#     Nothing is embedded again.
# 79: a Notion page whose file name shortens its `# Title` line (`Weekly Sync 18 04 2022 5ed8….md`,
#     a name cut at 50 characters) is titled by that line; the file name without the page id
#     still names it (PAGE_NAME). Its passages are embedded again under the new title.
# 80: a date line holding a range (`Date: May 3, 2022 → May 5, 2022`, as Notion writes one) dates
#     the note by its first day (dating.range_start). Nothing is embedded again.
# 81: Roam's and Logseq's `#[[multi word tag]]` is the tag `multi word tag` (notes.inline_tags); a
#     Roam task marker written with a stray brace (`{{{[[DONE]]}}}}`) is the task it says
#     (task_dates._TASK_BOX). Nothing is embedded again.
# 82: with the Persian Calendar plugin on, a date property's day with a Solar Hijri year
#     (`date: 1403-05-12`) is that calendar's day (dating._property_date). Nothing is embedded again.
# 83: a Notion page's created time written in its workspace's language (`Created time: 21. Juli
#     2023 15:29`, `Créé le: 3 mars 2023 16:12`) dates it (notion._day_first_time). Nothing is
#     embedded again.
# 84: a date line whose text before the arrow reads as no day (`Date: TBD → 2022-05-10`) is read
#     whole again, as before 80 (dating.line_date). Nothing is embedded again.
# 85: the full text and name keys hold words without the marks people may not type (marks.py):
#     Hebrew points, Thai and Lao vowel and tone marks, Indic nuktas, and Latin letters with a
#     stroke as plain ones (đ is d, ł is l, ø is o); a run of Thai or Lao is spaced into letters
#     as Chinese is (cjk.RUN): "แคบหมู" finds "ซื้อแคบหมูกับไส้อั่ว", "ברוך" finds "בָּרוּךְ",
#     "Dong Xuan" finds "Đồng Xuân". Nothing is embedded again.
# 86: the full text and name keys hold þ as th, æ as ae, œ as oe (marks.py): "Thingvellir" finds
#     "Þingvellir", "aesir" "Æsir", "oeuvre" "œuvre". Nothing is embedded again.
# 87: a memory's file name with an English clitic joined to its word (sams-phone-number.md, as
#     remember names it now) is the slug of its title (`Sam's phone number`): a day in such a name
#     dates nothing (slugs.named_from_title), and a title beside `name` is the file name
#     (slugs.same_slug). Nothing is embedded again.
# 88: a heading's attribute block is not its text (markdown.HEADING_LINE): Pandoc's and Quarto's
#     `## Results {#sec-results}`, `# Preface {-}`, MkDocs' `## Setup { #setup }` are the sections
#     "Results", "Preface", "Setup". Passages under such a heading are embedded again (their
#     heading changed); nothing else is.
# 89: the full text and name keys hold no zero-width joiner or non-joiner after a virama
#     (marks.py): "दर्या" finds "दर्‍या", "ශ්රී" finds "ශ්‍රී", as before m018 kept the marks in
#     words; and a text saved decomposed (NFD) is held composed (cjk.fts_form): "Йогурт" finds a
#     note that wrote Й as И and a breve. Nothing is embedded again. (87 and 88 were taken on
#     other branches the same day.)
# 90: a title's English clitic in capitals (`SAM'S PHONE`) is joined to its word as in lower case, so
#     the title is its file name's (sams-phone.md) beside a `name` (slugs.same_slug, notes.naming_key).
#     Nothing is embedded again.
# 91: a folder's page (`docs/guide/index.md`, `_index.md`; not the vault root's) is titled by the
#     `# heading` it opens with, else by its folder's name (notes.folder_page_title); such pages are
#     embedded again under their new titles. The `key:: value` lines and Dataview's `[key:: value]`
#     fields of a note's text are properties in its full text (inline_fields.py): nothing is embedded
#     again for them.
# 92: Logseq's page `pages/index.md` is titled "index" again, not "pages" (notes.LOGSEQ_PAGES_FOLDER), and a
#     folder's page opening with `# [[Harbor]] guide` is "Harbor guide" (notes.folder_page_title); a
#     property written in the text keeps only the words outside code in its value (a NUL stood for the
#     code in the props column: inline_fields._read); the properties Logseq hides (`background-color::`,
#     `card-next-schedule::`: logseq.HIDDEN_PROPERTIES) are none; a value over 100 characters is none, and
#     they stop at 4,000 characters a note (the props column is in every full-text row of the note).
#     Only the pages retitled so are embedded again.
# 93: the heading a note opens with (fields.opening_heading) is read below a banner image (`![[banner.png]]`),
#     a comment (`<!-- … -->`, `%% … %%`) and blank lines, and may be a Setext one (`Title` over `=====`):
#     a folder's page opening so is titled by its heading, not its folder's name (notes.folder_page_title), and
#     the note answers to that heading (lookup_names). Only the pages retitled so are embedded again.
# 94: a %% inside a line that nothing closes (it hides the rest of the note, as Obsidian does) is a
#     `check` problem naming its line (notes.unclosed_comment_problems). Nothing is embedded again.
# 95: a `Created at: …` line in the block of label lines that ends a note, under a blank line (Evernote
#     notes exported by YARLE's default template), dates a note nothing else dates (date_lines.
#     _closing_created_lines). Nothing is embedded again.
# 96: a closing block's created line dates a note only when its value is a day and its time alone
#     (`Created: a new repo for the 2024-01-01 release` is a sentence: dating._only_a_moment).
#     Nothing is embedded again.
# 97: an unclosed %% inside a line (94) is named also in a note saved as UTF-16 or holding a stray byte
#     that is not UTF-8 (not only in valid UTF-8): only a binary file's (a NUL) or a mojibake line's %% is left to the encoding problem.
# 98: a file not valid UTF-8 that holds a NUL is named not a text note, told to take its real extension or be
#     excluded (not to re-save as UTF-8): notes._not_utf8_problem. Nothing is embedded again.
# 99: a `created` whose text spells one day (`Sunday, January 5, 2026 at 8:15 PM`), as dating reads it, is
#     no check problem (notes.created_moment, spelled_days.py); a created that is none says its fix once.
# 100: the full text holds a Pandoc citation key's author and year after it (`@cepeda2006 cepeda 2006`:
#     citation_words.py), so "Cepeda" finds the zettel that cites her. Nothing is embedded again.
# 101: the index's `created_us` (what `stale` falls back to) reads `created` as the note's date does
#     (notes.created_moment → spelled_days.value_date): a day in words, a linked day, a year. Nothing is embedded again.
# 102: a closing block of labels under a rule (`---` / `Created: 2026-03-01`, an Obsidian footer) dates a note as one
#     under a blank line does, when the rule has a blank line and text above it (date_lines._closing_rule).
# 103: a `created` that is an ISO day with a time that does not parse (`2026-03-03T25:00`, `10:00 PST`) is a
#     problem: its day still dates the note, the lost time is said (notes._created_time_problem); with the
#     Persian Calendar plugin on, a `created` that is no Solar Hijri day (`1402-12-30`) is one (dating.date_problems).
# 104: a Zettelkasten timestamp id dates a note by its `id:` too (dating._id_date), and a date that says when
#     the note was made (that id, in its name or `id`; an `erstellt:` stamp) is its `created_us` when it has no
#     `created`: `stale` counts from it, not the file's mtime. Nothing is embedded again.
# 105: a double-barrelled author's citation key gets its words too (`@smith-jones2019a smith-jones 2019`), and a
#     camelCase key none (identifiers.py spells it out already: its words counted twice). Nothing is embedded again.
# 106: search reads a note without HTML tags' names and attributes (html_tags.py: `<span class="git-footer">`
#     is no "git"; an <img> is its alt); every note is embedded again (searchable.EMBED_RECIPE no-html-tags/7).
#     A frontmatter that does not load and holds a Templater tag (`<% … %>`) is named a template's, with the
#     exclude fix (notes._yaml_problem).
# 107: the index's `created_us` (what `stale` counts from) reads the vault's `[dates] created` names in order
#     (dating.made_moment), not `created` alone: a `creado:` stamp beside a `date:` was left for the file's time.
#     Nothing is embedded again.
# 108: with the Persian Calendar plugin on, a `created` (or date property) of a Solar Hijri year with a time
#     (`1403-05-12T10:00:00+03:30`) is read in that calendar as a day alone is (spelled_days.solar_hijri_timed),
#     and a `created` that calendar reads (`1403-02-31`) is no "no day or time" problem (dating.read_problems).
# 109: a citation key that goes on after its year (`@doe2020-supp`, `@smith2019:ch2`) gets its author and year after
#     the whole key, not inside it (citation_words.py). No note of the five evaluation sets cites a key.
# 110: a task box with nothing after it (`- [ ] `, a template's placeholder) is no task (task_dates._tasks).
#     Nothing is embedded again.
# 111: a frontmatter that does not load keeps its `title`, `created` and `date` lines too, read line by line as the
#     lifecycle keys are (notes.salvage_lifecycle): such a memory keeps its title and its day. Its title is embedded again.
# 112: an inline HTML tag reads as nothing, not a space (html_tags.without_html_tags, as snippets show it): `H<sub>2</sub>O`
#     is the word H2O. A note holding such a tag between two letters is embedded again (its text changed).
# 113: a frontmatter that does not load also keeps any other top-level line whose value is a day or a time
#     (`fecha: 2026-01-05`, a date property `[dates]` may name): such a note keeps its day. Its props are embedded again.
# 114: a conversation turn (a note whose `speaker`, `sender` or `from` says who said it) also holds, in the full
#     text's `context` column, the text of the two turns before it in its folder (turns.py). Nothing is embedded again.
# 115: a zettel's timestamp id dates its `created_us` (what `stale` counts from and prints) to the minute it names,
#     not its day's midnight (dating.NoteDate.made_at). Nothing is embedded again.
# 116: topic keys drop Turkish stopwords too (fields.STOPWORDS: `için`, `bir`, `ve` …). Nothing is embedded again.
# 117: a title, name, alias or tag YAML 1.1 reads as a boolean, number or date is the text written (notes.TEXT_KEYS:
#     `title: yes`, `title: 0x1F`, `tags: [yes, no]`); an HTML tag's quoted attribute may hold `>` and an escaped
#     `\<b>` is text (html_tags.HTML_TAG, is_markup). Such notes are embedded again (their title or text changed).
# 118: a conversation turn's place (notes.turn_key, turns.order_key) is read from its properties before its file name:
#     its conversation and session (a chain: no turns before it from another), its time, its number (`turn`, `index`,
#     `dia_id`); `role: assistant`, or `role`/`author`/`user` beside such a property, names a speaker too. Nothing is
#     embedded again.
# 119: a page of a Logseq graph without a title of its own is titled as Logseq names it from its file name, by the
#     graph's :file/name-format (logseq_pages.py: `Academic___Learning Roadmap.md` is "Academic/Learning Roadmap",
#     `Paulis%3F.md` "Paulis?"). Such pages are embedded again (their title changed).
# 120: in a Logseq graph a block opening with a task marker (`- LATER …`, `- DONE …`) is a task, its `SCHEDULED:` and
#     `DEADLINE:` lines its days (task_dates.logseq_task_lines). Nothing is embedded again.
# 121: a date property holding a date's format (`date: YYYY-MM-DD`, a template's placeholder) is said to be one, with
#     the exclude fix (dating._not_a_date). Nothing is embedded again.
# 122: a short note titled by its day only (`2026-12-02`) of two or more facts (paragraphs, list items of at least
#     four words of its own) also has a passage of each, ranked by meaning only (passages.fact_pieces,
#     searchable.names_a_day_only; storage `passages.piece`). Such notes are embedded again (their pieces are new);
#     the others' vectors stay.
# 123: a title naming a minute (`202305081356`, a zettel's id; `2023-05-08 13-56-12`, a chat message's time) is not
#     titled by its day only (searchable.names_a_day_only): its note has no fact pieces. Such notes lose theirs.
# 124: a first line meant as the frontmatter's --- holding a stray character besides (`|---`, `---|`, `----`) over
#     keys that look meant is a problem, and revise refuses to write a block above it (notes._damaged_opening).
#     Nothing is embedded again.
# 125: Polish month and weekday names as moment's pl.js writes them date notes (month_names.py: `15 marca 2024.md`,
#     `date: 29 października 2026`); sty, lip, sob and sie only under the daily-note format. Nothing is embedded again.
# 126: a section (a heading and its text) repeated word for word three times or more in a row is a body problem
#     naming its lines (notes.repeated_section_problems). Nothing is embedded again.
# 127: a conversation turn's time written in words (`1:56 pm on 8 May, 2023`, LoCoMo's session date) orders it
#     (turns.worded_moment); `name` beside a conversation's, session's or number's property names a speaker
#     (turns.MAYBE_SPEAKER_KEYS). Nothing is embedded again.
# 128: a short memory (a `layer`, no heading, no conversation turn) of two or more facts has a passage of each too,
#     as a day's note (searchable.holds_facts). Such notes are embedded again (their pieces are new).
# 129: a conversation turn's head (title and properties) is embedded with its passages and its token sum stored
#     (storage `turn_heads`, step 023): a search no longer embeds every turn's head, and brings its windows up
#     to date around the turns written only (turn_windows.WindowBook). Nothing else is embedded again.
# 130: a heading with no text under it repeated three times or more in a row is no repeated-section problem
#     (notes.repeated_section_problems: empty `## Notes` headings to fill in). Nothing is embedded again.
# 131: nor is a heading over only blanks to fill in (`- Who:`, `- [ ] `, `Mood::`) repeated so (a day's template's
#     three `### Meeting` sections). Nothing is embedded again.
# 132: a first line of dashes not exactly `---` (`----`, `|---`) over keys none of which a frontmatter holds
#     (`Serves: 4`, `Time: 20 min`) and a `---` is a rule over text, no damaged frontmatter. Nothing is embedded again.
# 133: a task's due day written in words (`pay rent due 2026-12-05`, `(due: 5 Dec)`, `call mum by Friday`: the
#     last two against the note's own day) is its due day when no 📅 or [due::] names one (plain_due.py).
#     Nothing is embedded again.
# 134: a note whose name spells no day is dated by the day its folder's name starts with (dating._folder_days:
#     `Android-SIG/2025-09-16/summary.md`), and searched with that day beside its name; in a vault whose Unique note
#     creator names notes by their Unix time (`.obsidian/zk-prefixer.json` format `X`), by the time its name opens
#     with (`1732193684 - Algoritmos.md`: dating._unix_id_moment). A list item YAML reads as a comment (`tags:` then
#     `  - #scout`) is a problem (notes.comment_item_problems). Nothing is embedded again.
# 135: a conversation turn with no session property takes its session from its file name's numbers before its
#     turn's number (`session_2_turn_1`, `D2_1` with `turn: 1`) or from a date without a time of day: turn
#     numbers starting again each session no longer put the sessions' turns together (turns._session_in_name,
#     turns._day_said). Nothing is embedded again.
# 136: a conversation turn named by a slug of its text's first words (turns.named_by_its_text: `okay-its-official.md`)
#     has no title and only its folder as its name in the full text, and its passages and head embed no title.
#     Such turns are embedded again.
# 137: a Logseq task's due day in words (`- TODO call mum by Friday`) is read against its note's own day, as a box's
#     is, and its block's `DEADLINE:` wins over it (task_dates.logseq_task_lines); a zettel named by its Unix time
#     in a folder named by a day is dated by its own time, not the folder's day (dating.note_date); a weekday or a
#     yearless due day is read against the day the note's `created` time is in its own zone (dating.day_as_written).
#     Nothing is embedded again.
# 138: a time of day in a turn's file name after its date (`2023-05-08T14-32-10_3.md`, `20230508-143210-3.md`)
#     or in its date written without colons or as an hour (`20230508T235900`, `at 11pm`) is the message's own,
#     no session: each such message had been a session of one (turns._without_clock, turns._day_said). Nothing
#     is embedded again.
# 139: a weekday or a yearless day after a due word that is owned or opens a name (`by Monday's standards`,
#     `by Friday Night Lights`) is no due day (plain_due._in_a_name); ten digits opening a name are a Unix-time
#     zettel's time only from 2020 to 2033-05-18 and when its `created` does not say another (dating._unix_id_made:
#     `5551234567 - Dentist.md` is no note of 2145); a `speaker`, `sender` or `from` that is a link to a page
#     (`speaker: "[[Jane Doe]]"`, a talk's note) makes a turn only beside a conversation's, session's or turn's
#     property (turns.is_turn); a weekday due in a month's or year's note and `by today`/`by tomorrow` in any
#     periodic note are no due day (plain_due._written_on: was read against the period's first day). Nothing is
#     embedded again but such a note named by a slug of its text (its title back).
# 140: a date (a date property, created, expires_at) typed with letters that look like digits
#     (`2026-12-O2`) gets the day it means as its fix, not a fixed example day (look_alikes.py); the
#     problems stored with each note change. Nothing is embedded again.
# 141: a turn named by a slug that dropped an accent or broke a word at it (`tomas-has-a-part`, `tom-s-has-a-part`
#     for "Tomás has a part…") is read as slug-named too (turns.named_by_its_text): no title, its vectors anew; a
#     turn whose properties name no conversation is searched and embedded with its folder's name as its
#     `conversation` (turns.conversation_by_folder): every such turn is embedded again.
# 142: a capitalised time of the day after a due word's weekday (`by Monday Morning`, `due Friday Afternoon`)
#     keeps the due day unless a capitalised word follows it (`by Friday Night Lights`: plain_due._in_a_name);
#     a date property, created or expires_at made of look-alike letters with no more digits than them (`lool`,
#     `lOlO`) gets no day as its fix (look_alikes.py: was "write it as 1001"). Nothing is embedded again.
# 143: a folder of no letter (`2024`, `03`) names no conversation: a turn in `chats/ana-ben/2024/` is of
#     `ana-ben`, one in `2024/` of none (turns.conversation_by_folder); such turns are embedded again.
READER_VERSION = "143"
BOM = "\ufeff"
# A Windows editor ("Unicode" in Notepad, PowerShell's Out-File) saves UTF-16 behind one of these.
UTF16_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"), (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"))
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SAFE_LOADER):  # type: ignore[misc,valid-type]
    """PyYAML's safe loader (the C one when present), except that a value shaped like a date
    that is no day (``2023-02-30``, ``2026-11-30T25:00``) stays the text it is: the safe
    loader raises for the whole block, and one typo cost a note its title, tags and every
    other property. The field that holds it reports it (an expiry that does not parse, a
    date that is not one)."""


def _timestamp_or_text(loader: Any, node: yaml.ScalarNode) -> Any:
    try:
        loaded = yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)
    # A time written with `Z` is kept as one (lifecycle.ZuluTime): shown and written back with its
    # Z, as the note writes it, where it was shown and rewritten as +00:00.
    return as_given(node.value, loaded) if isinstance(loaded, datetime) else loaded


def _number_or_time(loader: Any, node: yaml.ScalarNode) -> Any:
    """YAML 1.1 reads ``18:18`` as the sexagesimal number 1098 (and ``1:30.5`` as 90.5); in a
    note it is a time of day or a duration, as Obsidian shows it: ``time: 18:18`` was shown and
    searched as ``time: 1098`` (a trial: 31 notes of a 1,405-note vault, a template writes it)."""
    if ":" in node.value:
        return loader.construct_scalar(node)
    constructor = yaml.SafeLoader.construct_yaml_int if node.tag.endswith(":int") else yaml.SafeLoader.construct_yaml_float
    return constructor(loader, node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)
_Loader.add_constructor("tag:yaml.org,2002:int", _number_or_time)
_Loader.add_constructor("tag:yaml.org,2002:float", _number_or_time)
_YAML_LOADER = _Loader
YAML_LOADER = _YAML_LOADER  # what notes are read with: what a writer scans a block with
_OPENING = re.compile(r"\A---[ \t]*\r?\n")
_CLOSING = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$\n?", re.MULTILINE)
# Hugo's TOML front matter (ox-hugo writes it, as do many Hugo and Zola sites): `+++` lines.
_TOML_OPENING = re.compile(r"\A\+\+\+[ \t]*\r?\n")
_TOML_CLOSING = re.compile(r"^\+\+\+[ \t]*\r?$\n?", re.MULTILINE)
# The key's words, then its spaces, each matched by one part only: `[\w\- ]+[ \t]*` backtracked
# quadratically on a long line of spaces (160,000 of them took 20 s to read).
_YAML_KEY_LINE = re.compile(r"^ *[\"']?[\w\-]+(?: +[\w\-]+)*[\"']?[ \t]*:(?:[ \t]|$)", re.MULTILINE)
# A `---` line this many lines below the first (or fewer) may open a frontmatter meant for
# line 1 (a blank line, a stray word above it); one further down is a rule in the note.
MISPLACED_LINES_ABOVE = 4
MISPLACED_SCAN_CHARS = 65_536  # how far past such a `---` its closing `---` is looked for
_MISPLACED_OPENING = re.compile(r"\ufeff?---[ \t]*")
# A first line meant as the frontmatter's --- that holds a stray character or two besides
# (`|---`, `---|`, `'---`, ` ---`, `----`): Obsidian opens a frontmatter only on a line that is
# exactly ---, so the keys under it are text (damaged_opening; the b-hornsby vault, s41).
_DAMAGED_OPENING = re.compile(r"\ufeff?[ \t]*[^\w\s-]{0,2}-{3,}[^\w\s-]{0,2}[ \t]*\r?")
# Bounds on what one note's frontmatter may cost (see load_yaml_mapping). Real
# frontmatter is a few hundred bytes; these are orders of magnitude above it.
MAX_FRONTMATTER_CHARS = 1_000_000
MAX_YAML_EXPANDED = 2_000_000  # characters of scalar text (+1 per value) with every alias expanded
MAX_YAML_DEPTH = 64
VERSION_CHARS = 16  # of the content hash: a note's `version` (64 bits; it only has to tell one file's states apart)
# What is read from a frontmatter that does not load: the keys that decide a note's identity
# and lifetime, its name and its day (a memory a person's typo broke still answers to its
# title and is listed by `since`/`until`: adr/0020 addendum 2026-12-03), each on a top-level
# line (no indentation) of its own. `created` and `date` are the default date properties; any
# other key whose value is a day or a time is read too: a vault's `[dates]` may name `fecha` or
# `creado` (config.DateProperties), which the parser does not know.
SALVAGED_KEYS = ("id", "layer", "expires_at", "permanent", "title", "created", "date")
# The value must end on its line: an indented line after it would continue a plain scalar.
# Greedy to the end of the line (trailing blanks are stripped after): a lazy value followed
# by optional blanks would take time quadratic in a line of many blanks. A key is words joined
# by single spaces or hyphens (`fecha`, `date created`), so no two ways of matching compete.
_SALVAGE_LINE = re.compile(r"^([\"']?)([^\W\d][\w-]*(?: [\w-]+)*)\1[ \t]*:(?:[ \t]+(.*))?$(?!\n[ \t]+[^ \t\n#])",
                           re.MULTILINE)
_SALVAGED_TYPES = (str, int, float, bool, date)  # datetime is a date
# Of the other keys, only values that begin as YAML's days do (2026-01-05) are asked of YAML, and
# at most this many: a frontmatter of 60,000 such lines took 3 s to salvage, each line a YAML load.
_LOOKS_LIKE_A_DAY = re.compile(r"\d{4}-\d\d?-\d\d?")
MAX_SALVAGED_DAYS = 16
# YAML errors and what PyYAML raises outside its hierarchy on bad values:
# a plain ValueError for 2026-13-45, TypeError/OverflowError on odd constructs.
YAML_LOAD_ERRORS = (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError)


@dataclass(frozen=True)
class Problem:
    """Something wrong in one note: where, which field, what, and how to fix it."""

    path: str
    field: str
    message: str
    fix: str
    # The fix to give instead when ``fix`` points at ``check --fix`` and --fix cannot make
    # it for this note (empty: ``fix`` is already done by hand).
    fix_by_hand: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "field": self.field, "message": self.message, "fix": self.fix}

    def as_stored(self) -> dict[str, str]:
        """As the index keeps it: :meth:`as_dict`, and how the command line and MCP spell a
        message or fix that names operations or arguments (``message_cli``, ``fix_mcp`` …).
        Without them a problem read back from the index (``index`` lists every note's, an
        unchanged note's too) told a shell user to run ``Vault.check(fix=True)``."""
        stored = self.as_dict()
        for key in ("message", "fix"):
            said = stored[key]
            if isinstance(said, Spelled):
                stored |= {f"{key}_{surface.value}": said.spelled(surface) for surface in _SHELLS}
        return stored

    @classmethod
    def from_stored(cls, stored: Mapping[str, str]) -> Problem:
        """The problem :meth:`as_stored` kept, saying itself on each surface as it did (an
        index written before the spellings were kept has the API's alone)."""
        said = {key: _respelled(stored, key) for key in ("message", "fix")}
        return cls(stored["path"], stored["field"], said["message"], said["fix"])

    def done_by_hand(self) -> Problem:
        """This problem once ``check --fix`` refused its fix: its advice no longer points there."""
        return replace(self, fix=self.fix_by_hand) if self.fix_by_hand else self

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {self.message} — {self.fix}"


_SHELLS = (Surface.CLI, Surface.MCP)  # the surfaces that spell a message otherwise than the API


def _respelled(stored: Mapping[str, str], key: str) -> str:
    spellings = [stored.get(f"{key}_{surface.value}") for surface in _SHELLS]
    if spellings[0] is None or spellings[1] is None:
        return stored[key]
    return Spelled(Operation(cli=spellings[0], api=stored[key], mcp=spellings[1]))


@dataclass(frozen=True)
class FrontmatterBlock:
    """Where the frontmatter sits in the text (character offsets), if anywhere."""

    yaml_text: str  # the block's text between its delimiter lines (TOML's, when ``toml``)
    start: int  # first character of the YAML (after the opening ---)
    end: int  # first character of the closing delimiter line
    body_start: int  # first character after the closing delimiter line
    toml: bool = False  # a Hugo ``+++`` block: read with tomllib, never edited (noteio refuses)


@dataclass(frozen=True)
class Note:
    path: str  # vault-relative POSIX
    meta: dict[str, Any]
    body: str
    title: str
    id: str
    content_hash: str  # of the raw bytes: did the file change?
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    has_frontmatter: bool = False
    body_line: int = 1  # the file's line (1-based) the body starts on: passages say where they are

    def __repr__(self) -> str:
        # Never the body or the metadata: a note may be megabytes (see short_repr).
        return f"Note(path={self.path!r}, id={short_repr(self.id)}, title={short_repr(self.title)}, problems={len(self.problems)})"

    @property
    def layer(self) -> str | None:
        return layer_of(self.meta)

    @property
    def name_key(self) -> str | None:
        """The property that names it (:func:`naming_key`); ``None``: its file name does."""
        return naming_key(self.meta, self.path)

    @property
    def version(self) -> str:
        return version_of(self.content_hash)

    @property
    def tags(self) -> list[str]:
        """Frontmatter tags, then inline ``#tags`` from the body (Obsidian counts both)."""
        tags = tags_of(self.meta)
        folded = {case_fold(tag) for tag in tags}  # in any case, Turkish's too: #İş is the tag iş
        return tags + [tag for tag in inline_tags(self.body) if case_fold(tag) not in folded]

    @property
    def expires_at(self) -> Any:
        return self.meta.get("expires_at")

    @property
    def permanent(self) -> bool:
        return is_permanent(self.meta) or self.layer == PERMANENT_LAYER

    @property
    def expiry_invalid(self) -> bool:
        """It has an ``expires_at`` that does not parse: it never expires until that is fixed."""
        return not self.permanent and not is_absent(self.expires_at) and timestamp_or_none(self.expires_at) is None

    @property
    def embed_text(self) -> str:
        return f"{self.title}\n\n{self.body}"

    @property
    def metadata_unloaded(self) -> bool:
        """Its frontmatter did not load: only the salvaged lifecycle keys are known."""
        return any(problem.field == "frontmatter" for problem in self.problems)


def content_hash(raw: bytes) -> str:
    """The hash of a file's bytes: did it change? (a note's ``version`` is its head; the
    guarded writes check it before they replace, move or delete a person's file)."""
    return hashlib.sha256(raw).hexdigest()


def version_of(content_hash: str) -> str:
    """A note's ``version``: changes whenever the file's bytes change (``revise --if-version``)."""
    return content_hash[:VERSION_CHARS]


def read_note(root: Path, relative: str) -> Note:
    """Read and parse ``root/relative``; content problems are reported, not raised."""
    try:
        raw = (root / PurePosixPath(relative)).read_bytes()
    except OSError as error:
        raise NoteReadError(f"{relative}: cannot read ({error.strerror}); check it exists and is readable") from None
    return parse_note(relative, raw)


def read_text(root: Path, relative: str) -> str:
    """A note's text as lines are counted in it (BOM dropped, CRLF as LF), without loading its
    YAML: what a hit's passage is cut from at query time."""
    try:
        # os.path, not pathlib: a search reads each hit's file, and a Path made per read cost
        # half the read (10 µs a hit). A vault path is relative, with / between its parts.
        with open(os.path.join(root, relative), "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise NoteReadError(f"{relative}: cannot read ({error.strerror}); check it exists and is readable") from None
    return decode(relative, raw)[0]


def parse_note(relative: str, raw: bytes) -> Note:
    text, decode_problems = decode(relative, raw)
    if is_canvas_path(relative):
        return _canvas_note(relative, raw, text, decode_problems)
    meta, body, block, fm_problems = split_frontmatter(relative, text)
    # A Logseq page keeps its title, aliases and tags in the `key:: value` lines it opens with;
    # frontmatter, when it has some, wins key by key. Also under a block vaultmem wrote (revise
    # --tag on a page): else one tag written there cost the page its title and aliases. So are
    # vaultmem's own fields, as remember writes them into a graph (logseq.field_meta).
    logseq_names = naming_meta(body) | field_meta(body)
    if logseq_names:
        meta = {**logseq_names, **meta}
    # A page Notion exported keeps its created time in a `Created: December 13, 2021 7:54 PM`
    # line under its title, not in YAML: it dates the note as `created` would (notion.notion_meta).
    exported = notion_meta(relative, body)
    if exported:
        meta = {**exported, **meta}
    # Only a block that did not load leaves meta salvaged; a key set twice or a `tags: #a` value
    # loaded it all, and its missing expiry is a problem like any other note's.
    fields = field_problems(relative, meta, salvaged=any(problem.field == "frontmatter" for problem in fm_problems))
    body_line = text.count("\n", 0, len(text) - len(body)) + 1
    # Not in a binary file (a NUL in a file that is not UTF-8): random bytes hold a %% by chance
    # (20 binary files of a trial vault gave 8 such lines of mojibake beside their encoding problem).
    # A UTF-16 note, or one with a stray Latin-1 byte, is text: its %% hides its rest as any other's.
    binary = bool(decode_problems) and "\x00" in text
    comments = [] if binary else unclosed_comment_problems(relative, body, body_line)
    repeated = [] if binary else repeated_section_problems(relative, body, body_line)
    problems = [*decode_problems, *conflict_problems(relative, text), *fm_problems, *fields, *comments, *repeated]
    return Note(
        path=relative,
        meta=meta,
        body=body,
        title=title_of(meta, relative, body),
        id=id_of(meta, relative),
        content_hash=content_hash(raw),
        problems=tuple(problems),
        has_frontmatter=block is not None,
        body_line=body_line,
    )


# A section (a heading and the text under it) this many times in a row, word for word, is a loop
# that appended it: a person repeats a heading, not its whole text, several times over.
REPEATED_SECTIONS = 3
_HEADING_LINE = re.compile(r"^#{1,6}[ \t]", re.MULTILINE)
_FENCE_LINE = re.compile(r"^[ \t]{0,3}(?:```|~~~)", re.MULTILINE)
# A line of a template's section left to fill in: blank, a list item or a task with nothing in it
# (`- `, `- [ ] `), a label waiting for its value (`- Who:`, `Mood::`), a rule.
_TEMPLATE_BLANK_LINE = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,3}[.)])(?:[ \t]+|$))?(?:\[[ xX]?\](?:[ \t]+|$))?"
                                  r"(?:[^:\n]{1,40}::?)?[ \t]*|[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*")


def repeated_section_problems(relative: str, body: str, body_line: int) -> list[Problem]:
    """The first run of :data:`REPEATED_SECTIONS` or more identical sections in a row: an agent's
    project note in a real vault ended with the same "## Leads Log" section 512 times (44 KB of
    it), and nothing said so (b-hornsby/obsidian-vault, s41). Sections are cut at ATX headings;
    a run inside a code block (a fence opened above it) is the code's text, not sections."""
    if body.count("\n#") + body.startswith("#") < REPEATED_SECTIONS:
        return []  # most notes: too few lines that may be headings (a count in C, no pattern)
    starts = [match.start() for match in _HEADING_LINE.finditer(body)]
    headings = [body[start:body.find("\n", start) % (len(body) + 1)] for start in starts]
    if not any(headings[index] == headings[index + 1] == headings[index + 2] for index in range(len(headings) - 2)):
        return []  # no heading three times in a row: no run of sections to compare
    sections = [body[start:end].rstrip() for start, end in zip(starts, [*starts[1:], len(body)], strict=True)]
    first = 0
    # Where the fence lines are, found once: counted from the top for each run, a note of many code
    # blocks each holding such a run took 16 s at 190 KB and 6 minutes at 790 KB (review, s41).
    fences: list[int] | None = None
    for index in range(1, len(sections) + 1):
        if index < len(sections) and sections[index] == sections[first]:
            continue
        # A heading with no text under it, repeated, is a template's or a person's empty heading
        # (`## Notes` once a day to fill in): a heading alone is what a person repeats (review, s41).
        # So is one over blanks to fill in (`### Meeting` / `- Who:` / `- Notes:` three times in
        # a day's template): said "appended in a loop" with a fix to delete them (review, s42).
        if index - first >= REPEATED_SECTIONS and not _left_to_fill_in(sections[first]):
            if fences is None:
                fences = [match.start() for match in _FENCE_LINE.finditer(body)]
            if bisect.bisect_left(fences, starts[first]) % 2:
                first = index
                continue  # inside a code block: the code's text
            end = starts[index] if index < len(starts) else len(body)
            return [_repeated_problem(relative, body, body_line, (starts[first], starts[first + 1], end), index - first,
                                      sections[first])]
        first = index
    return []


def _left_to_fill_in(section: str) -> bool:
    """Does ``section`` (a heading and the lines under it) hold nothing under its heading but
    blanks a template leaves to fill in (:data:`_TEMPLATE_BLANK_LINE`)?"""
    return all(_TEMPLATE_BLANK_LINE.fullmatch(line) for line in section.split("\n")[1:])


def _repeated_problem(relative: str, body: str, body_line: int, offsets: tuple[int, int, int], times: int,
                      section: str) -> Problem:
    """``offsets``: where the run's first section starts, where its second does, where the run ends."""
    start, second, end = offsets
    line = body_line + body.count("\n", 0, start)
    second_line = body_line + body.count("\n", 0, second)
    last_line = body_line + body.count("\n", 0, len(body[:end].rstrip()))
    heading = section.split("\n", 1)[0].strip()[:_SHOWN_CHARS]
    return Problem(relative, "body", f"the section {heading!r} on line {line} is repeated word for word {times - 1:,} "
                   f"more time(s) in a row, to line {last_line:,}: something appended it in a loop (an agent, a script)",
                   f"keep one and delete lines {second_line:,}–{last_line:,} (the repeats), or change what appends it")


def unclosed_comment_problems(relative: str, body: str, body_line: int) -> list[Problem]:
    """A ``%%`` inside a line of text that no later ``%%`` closes (``strace -e trace=%%statfs``,
    ``printf("%%d")`` pasted from a changelog): Obsidian's reading view hides the rest of the
    note from there, and vaultmem reads the note as Obsidian shows it — so the rest is not
    searched and its tasks are not listed. Was: a to-do list of 3,000 tasks showed 1,366 in
    ``tasks`` and ``check`` said nothing. A ``%%`` that opens its line is left alone: hiding
    the rest with it is deliberate (Excalidraw's drawing data, a private tail)."""
    opener = unclosed_inline_comment(body)
    if opener is None:
        return []
    line_start = body.rfind("\n", 0, opener) + 1
    line_end = body.find("\n", opener)
    if "\ufffd" in body[line_start:line_end if line_end >= 0 else len(body)]:
        return []  # a line of bytes that are not text (mojibake): its %% is chance, its problem the encoding's
    line = body_line + body.count("\n", 0, opener)
    hidden_lines = body.count("\n", opener) + (0 if body.endswith("\n") else 1)
    shown = body[line_start:line_end if line_end >= 0 else len(body)].strip()[:_SHOWN_CHARS]
    return [Problem(relative, "body", f"the %% on line {line} ({shown!r}) is never closed, so Obsidian hides the rest of "
                    f"the note from there ({hidden_lines:,} line(s)) and vaultmem does too: that text is not searched "
                    "and its tasks are not listed",
                    "if the %% is text, put it in backticks (`%%`); if it starts a comment, close the comment with "
                    "another %% where it should end")]


def _canvas_note(relative: str, raw: bytes, text: str, problems: list[Problem]) -> Note:
    """A canvas as a note (canvas.py): its cards' text for a body, no properties, titled by its
    file name with ``.canvas`` — as Obsidian links it (``[[Plan.canvas]]``): titled ``Plan`` it
    answered to the name of the note ``Plan.md`` too, and a write by that name was refused as
    ambiguous. Not read for frontmatter, Logseq's or Notion's lines: a card that opens with
    ``---`` or ``title:: x`` is what the person wrote on the card."""
    return Note(path=relative, meta={}, body=text, title=PurePosixPath(relative).name, id=id_of({}, relative),
                content_hash=content_hash(raw), problems=tuple(problems), has_frontmatter=False, body_line=1)


def conflict_problems(relative: str, text: str) -> list[Problem]:
    """Git's merge-conflict markers left in the note (merge_markers.py): both sides are read as
    one note — a conflict across the frontmatter's closing ``---`` loses its properties — and
    vaultmem edits, moves and merges none of it until the person resolves it. Looked for only
    in a note holding ``<<<<<<<``."""
    if "<<<<<<<" not in text:
        return []
    conflict = first_conflict(text)
    if conflict is None:
        return []
    return [Problem(relative, "conflict", f"an unresolved git merge conflict (<<<<<<< at line {conflict.opening}, "
                    f">>>>>>> at line {conflict.closing}): both sides are read as the note, and vaultmem changes "
                    "nothing in it until it is resolved", "keep the lines you want, delete the marker lines, then "
                    f"`git add {relative}`")]


def decode(relative: str, raw: bytes) -> tuple[str, list[Problem]]:
    """UTF-8 (a BOM is dropped, CRLF becomes LF); bad bytes are replaced and reported. A file
    that starts with a UTF-16 byte-order mark is read as UTF-16 (:func:`utf16_encoding`)."""
    utf16 = utf16_encoding(raw)
    if utf16 is not None:
        text, problems = _decode_utf16(relative, raw, utf16)
        return text.replace("\r\n", "\n"), problems
    try:
        text = raw.decode("utf-8-sig")
        problems = []
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8-sig", errors="replace")
        problems = [_not_utf8_problem(relative, raw, error.start)]
    if is_canvas_path(relative):
        # A canvas's text is what its cards say (canvas.py), not its JSON: what search, `get`
        # and a hit's passage read, one text for all three.
        text, broken = canvas_text(text)
        if broken is not None:
            problems.append(Problem(relative, "canvas", broken, CANVAS_FIX))
    return text.replace("\r\n", "\n"), problems


def _not_utf8_problem(relative: str, raw: bytes, start: int) -> Problem:
    """A file that is not valid UTF-8. One that also holds a NUL byte is no text at all (an
    image or a PDF saved as ``.md``, UTF-32): "re-save it as UTF-8" was advice no editor can
    follow, so it is named as not a text note, with the ways to leave it out."""
    if b"\0" in raw:
        return Problem(relative, "encoding", f"not a text note: not valid UTF-8 at byte {start} and holds NUL bytes "
                       "(a binary file, e.g. an image or a PDF, named .md)",
                       f"if it is not a note, give it its real extension or add {json.dumps('/' + relative, ensure_ascii=False)} "
                       f"to exclude in .vaultmem.toml; if it is a note, re-save it as UTF-8")
    return Problem(relative, "encoding", f"not valid UTF-8 at byte {start}",
                   "re-save the file as UTF-8; bad bytes show as \ufffd meanwhile")


def utf16_encoding(raw: bytes) -> str | None:
    """``"UTF-16 LE"`` or ``"UTF-16 BE"`` when ``raw`` starts with that byte-order mark, else None."""
    return next((name for bom, _, name in UTF16_BOMS if raw.startswith(bom)), None)


def _decode_utf16(relative: str, raw: bytes, name: str) -> tuple[str, list[Problem]]:
    """A UTF-16 note's text. Read as UTF-8 it was a byte-order mark and a NUL between every two
    letters: no search found it. Obsidian reads notes as UTF-8 only and shows it garbled, and
    vaultmem writes UTF-8 only, so it stays a problem until re-saved; every BOM in front is
    dropped (an editor that saves one over a text holding one leaves two, which hid the
    frontmatter)."""
    bom, codec, _ = next(entry for entry in UTF16_BOMS if entry[2] == name)
    merged = utf16_with_byte_markers(raw[len(bom):], codec)
    if merged is not None:
        return merged.lstrip(BOM), [Problem(
            relative, "encoding", f"saved as {name}, with conflict markers written into it as UTF-8 by a merge of its "
            "bytes, not its text (`diff3 -a`, a merge driver): read with them as lines, but an editor shows them "
            "garbled, and vaultmem changes nothing in it",
            "take one side whole (during the merge: `git checkout --ours -- FILE` or `--theirs`), re-save it as "
            "UTF-8 and copy in what you want from the other, then `git add FILE`".replace("FILE", relative))]
    try:
        text, bad = raw[len(bom):].decode(codec), ""
    except UnicodeDecodeError as error:
        text, bad = raw[len(bom):].decode(codec, errors="replace"), f" (and not valid {name} at byte {error.start + len(bom)})"
    message = (f"saved as {name}, not UTF-8{bad}: it is read for search, but Obsidian shows it garbled and "
               "vaultmem changes nothing in it")
    return text.lstrip(BOM), [Problem(relative, "encoding", message,
                                      "re-save the file as UTF-8 (in the editor that saved it: Save As, encoding UTF-8)")]


def find_frontmatter(text: str) -> FrontmatterBlock | None:
    """Locate a ``---`` … ``---`` block (or Hugo's TOML ``+++`` … ``+++``) at the very start
    of ``text`` (BOM already dropped)."""
    for opening_rule, closing_rule in ((_OPENING, _CLOSING), (_TOML_OPENING, _TOML_CLOSING)):
        opening = opening_rule.match(text)
        if opening is None:
            continue
        closing = closing_rule.search(text, opening.end())
        if closing is None:
            return None
        return FrontmatterBlock(text[opening.end():closing.start()], opening.end(), closing.start(), closing.end(),
                                toml=opening_rule is _TOML_OPENING)
    return None


class FrontmatterTooLarge(yaml.YAMLError):
    """A frontmatter block past the bounds below: it is treated as YAML that does not load."""


def load_yaml_mapping(yaml_text: str) -> Any:
    """Load a frontmatter block (PyYAML's safe loader, the C one when present) within bounds.

    A note is untrusted input. Aliases let 460 bytes expand to billions of values
    ("billion laughs"): the loaded object shares them, but anything that walks it
    (JSON, a repr, the full-text side) does not. So the composed node graph is measured
    first — its size with every alias expanded, its depth, cycles — and a block past a
    bound raises :class:`FrontmatterTooLarge` before a single value is constructed.
    """
    return _load_with_keys(yaml_text)[0]


KeyNodes = list[tuple[yaml.Node, yaml.Node]]


def _load_with_keys(yaml_text: str) -> tuple[Any, KeyNodes]:
    """(what the block loads as, its top-level (key, value) nodes as written): the nodes keep
    each key's line, which the loaded dict has lost (:func:`repeated_key_problems`). Taken
    before construction, which puts the keys a ``<<`` merge brings in among them."""
    if len(yaml_text) > MAX_FRONTMATTER_CHARS:
        raise FrontmatterTooLarge(f"the frontmatter block is {len(yaml_text):,} characters, more than the "
                                  f"{MAX_FRONTMATTER_CHARS:,} vaultmem reads")
    loader = _YAML_LOADER(yaml_text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, []
        _measure(node, 1, {}, set())
        if isinstance(node, yaml.MappingNode):
            node.value = [(key, _as_written(value) if _names(key) else value) for key, value in node.value]
        pairs = list(node.value) if isinstance(node, yaml.MappingNode) else []
        return loader.construct_document(node), pairs
    finally:
        loader.dispose()


# Top-level keys whose values are text, names a person reads (compared case-folded): a title,
# a name, aliases, tags. YAML 1.1 reads some plain words and numbers as something else — `yes`
# and `no` as booleans, `0x1F` as 31, `010` as 8, `1.10` as 1.1, `2024-01-05` as a date — so
# `title: yes` named the note by its file name, `title: 0x1F` showed "31", `tags: [yes, no]`
# were the tags True and False and `aliases: [0x1F]` answered to "31" (s39). Obsidian, reading
# YAML 1.2, shows them as written. Null (`~`, `null`, nothing) stays no value, as in every YAML.
TEXT_KEYS = frozenset({"title", "name", "aliases", "alias", "tags", "tag"})
_STRING_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"


def _names(key: yaml.Node) -> bool:
    return isinstance(key, yaml.ScalarNode) and isinstance(key.value, str) and key.value.casefold() in TEXT_KEYS


def _as_written(value: yaml.Node) -> yaml.Node:
    """A text key's value with each plain scalar (itself, or an item of its list) read as the text
    it is written as. New nodes, not the old ones changed: an anchored value another key refers
    to (``&x yes``) stays what YAML reads it as there."""
    if isinstance(value, yaml.SequenceNode):
        return yaml.SequenceNode(value.tag, [_as_written(item) if isinstance(item, yaml.ScalarNode) else item
                                             for item in value.value],
                                 value.start_mark, value.end_mark, value.flow_style)
    # Plain is style None (PyYAML's Python loader) or "" (its C loader); a quoted value is text already.
    if not isinstance(value, yaml.ScalarNode) or value.style or value.tag in (_STRING_TAG, _NULL_TAG):
        return value
    return yaml.ScalarNode(_STRING_TAG, value.value, value.start_mark, value.end_mark, value.style)


def _measure(node: yaml.Node, depth: int, seen: dict[int, tuple[int, int]], active: set[int]) -> tuple[int, int]:
    """(size with aliases expanded, height) of ``node``; raises past a bound. Shared
    (aliased) nodes are measured once and counted at every place they appear."""
    key = id(node)
    if key in active:
        raise FrontmatterTooLarge("the frontmatter refers to itself through an alias (a recursive structure)")
    if key in seen:
        size, height = seen[key]
    else:
        active.add(key)
        size, height = _measure_children(node, depth, seen, active)
        active.discard(key)
        seen[key] = (size, height)
    if depth - 1 + height > MAX_YAML_DEPTH:
        raise FrontmatterTooLarge(f"the frontmatter nests deeper than {MAX_YAML_DEPTH} levels")
    return size, height


def _measure_children(node: yaml.Node, depth: int, seen: dict[int, tuple[int, int]], active: set[int]) -> tuple[int, int]:
    if isinstance(node, yaml.ScalarNode):
        return len(node.value) + 1, 1
    if depth > MAX_YAML_DEPTH:
        raise FrontmatterTooLarge(f"the frontmatter nests deeper than {MAX_YAML_DEPTH} levels")
    children = [item for pair in node.value for item in pair] if isinstance(node, yaml.MappingNode) else node.value
    size, height = 1, 1
    for child in children:
        child_size, child_height = _measure(child, depth + 1, seen, active)
        size += child_size
        height = max(height, child_height + 1)
        if size > MAX_YAML_EXPANDED:
            raise FrontmatterTooLarge(f"the frontmatter expands to more than {MAX_YAML_EXPANDED:,} characters "
                                      "(YAML aliases repeating values?)")
    return size, height


def split_frontmatter(relative: str, text: str) -> tuple[dict[str, Any], str, FrontmatterBlock | None, list[Problem]]:
    """(meta, body, block, problems). A leading ``---`` rule that is not YAML stays body."""
    block = find_frontmatter(text)
    if block is None:
        return {}, text, None, _unclosed_problem(relative, text) or misplaced_frontmatter(relative, text)
    if block.toml:
        return _split_toml(relative, text, block)
    try:
        loaded, pairs = _load_with_keys(block.yaml_text)
    except YAML_LOAD_ERRORS as error:
        if not _looks_like_yaml(block.yaml_text):
            return {}, text, None, []  # a horizontal rule and prose, not frontmatter
        salvaged = salvage_lifecycle(block.yaml_text)
        return salvaged, text[block.body_start:], block, [_yaml_problem(relative, error, salvaged, block)]
    if loaded is None:
        return {}, text[block.body_start:], block, []
    if not isinstance(loaded, dict):
        # "---\nJust a paragraph\n---" is a rule, not metadata: read as the note's text, as
        # before; but a list, or keys without a space after their colon, was meant as properties.
        return {}, text, None, not_a_mapping_problems(relative, block.yaml_text, loaded)
    meta = {str(key): value for key, value in loaded.items()}
    body = text[block.body_start:]
    problems = [*repeated_key_problems(relative, block.yaml_text, pairs, loaded),
                *comment_value_problems(relative, block.yaml_text, meta),
                *comment_item_problems(relative, block.yaml_text, meta),
                *(_escape_problem(relative, found) for found in swallowed_escapes(block.yaml_text, pairs)),
                *second_frontmatter(relative, body, text.count("\n", 0, block.body_start) + 1)]
    return meta, body, block, problems


def _split_toml(relative: str, text: str,
                block: FrontmatterBlock) -> tuple[dict[str, Any], str, FrontmatterBlock | None, list[Problem]]:
    """A Hugo ``+++`` block, read as Hugo reads it. Without this the block was the note's text:
    no title, date or tags, ``+++ title = …`` in every snippet — and ``revise --tag`` put a YAML
    block above it, which Hugo then read instead (the page lost its TOML properties)."""
    try:
        if len(block.yaml_text) > MAX_FRONTMATTER_CHARS:
            raise ValueError(f"the block is longer than {MAX_FRONTMATTER_CHARS:,} characters")
        loaded = tomllib.loads(block.yaml_text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        if _TOML_LINE.search(block.yaml_text) is None:
            # `+++` lines around prose, not one key: the note's text, as a `---` rule over prose is
            # (else its words were out of the body, search and get, and "TOML does not load").
            return {}, text, None, []
        # No salvage of lifecycle lines: vaultmem writes no TOML, so no memory of its own is here.
        return {}, text[block.body_start:], block, [Problem(
            relative, "frontmatter", f"TOML frontmatter (between the +++ lines) does not load: {error}",
            "fix the TOML by hand (Hugo will not build this page either)")]
    meta = {key: _toml_value(value) for key, value in loaded.items()}
    return meta, text[block.body_start:], block, second_frontmatter(relative, text[block.body_start:],
                                                                    text.count("\n", 0, block.body_start) + 1)


# A line TOML gives meaning to: `key = …` (bare, quoted or dotted key) or a `[table]` header.
_TOML_LINE = re.compile(r"""^[ \t]*(?:\[|(?:[\w-]+|"[^"\n]*"|'[^'\n]*')(?:[ \t]*\.[ \t]*(?:[\w-]+|"[^"\n]*"|'[^'\n]*'))*[ \t]*=)""",
                        re.MULTILINE)


def _toml_value(value: Any) -> Any:
    """A TOML value as YAML's loader would give it: a local time (``07:30:00``), which YAML has
    no type for, as its text; dates and date-times (aware when written with an offset) as they are."""
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, list):
        return [_toml_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _toml_value(item) for key, item in value.items()}
    return value


# A top-level key whose value YAML reads as a comment: ` #` after the colon starts one, so
# `tags: #work #harbor`, typed as tags are in the body, is `tags: null`. Only a `#` right
# before a word: `tags: # none yet` is a comment the person meant.
_COMMENT_VALUE = re.compile(r"^([\"']?)([\w\-]+(?: +[\w\-]+)*)\1[ \t]*:[ \t]+(#[^\s#].*)$", re.MULTILINE)
_TAG_KEYS = frozenset({"tags", "tag"})
# A line of a block that YAML read as one piece of text: `key:value`, no space after the
# colon (YAML's key needs one); a word first, so `10:30` and `https://…` are not keys.
_KEY_WITHOUT_SPACE = re.compile(r"^[\"']?([^\W\d][\w\-]*)[\"']?:([^\s/:].*)$", re.MULTILINE)
_SHOWN_CHARS = 60  # of a value quoted in a problem
SHOWN_REPEATS = 4  # lines and values of a key set more often than this: the first ones, then a count


def repeated_key_problems(relative: str, yaml_text: str, pairs: KeyNodes, loaded: Mapping[Any, Any]) -> list[Problem]:
    """A top-level key written twice or more (``title: A`` … ``title: B``): YAML keeps the
    last without a word, so the person's first value is silently not read — and Obsidian's
    reader refuses the block, showing none of its properties. Found on the key nodes as
    written (each key's line)."""
    if len(loaded) == len(pairs) and "<<" not in yaml_text:
        return []  # as many keys loaded as written, and no merge adding some: none repeated (no cost)
    lines: dict[str, list[tuple[int, yaml.Node]]] = {}
    repeated: list[str] = []
    for key, value in pairs:
        if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
            continue  # `<<: *base` merges keys: one written after it overrides it on purpose
        seen = lines.setdefault(key.value, [])
        if len(seen) == 1:
            repeated.append(key.value)
        seen.append((key.start_mark.line + 2, value))  # +1 for 0-based, +1 for the opening ---
    return [_repeated_key_problem(relative, key, lines[key]) for key in repeated]


def _repeated_key_problem(relative: str, key: str, places: list[tuple[int, yaml.Node]]) -> Problem:
    ignored = [_shown(value) for _line, value in places[:SHOWN_REPEATS]]
    if len(places) - 1 > SHOWN_REPEATS:
        ignored.append(f"{len(places) - 1 - SHOWN_REPEATS} more")
    else:
        ignored = ignored[:len(places) - 1]
    return Problem(relative, key, f"{key} is set {times_on_lines([line for line, _value in places])}: "
                   f"{_shown(places[-1][1])} is read, {_and(ignored)} {'is' if len(places) == 2 else 'are'} ignored "
                   "(and Obsidian, which refuses a key set twice, shows none of this note's properties)",
                   "remove one of them" if len(places) == 2 else f"keep one {key} line, remove the others")


def times_on_lines(lines: list[int]) -> str:
    """``twice (lines 2 and 5)``, ``3 times (lines 2, 5 and 7)``: where a key is repeated."""
    times = "twice" if len(lines) == 2 else f"{len(lines)} times"
    if len(lines) > SHOWN_REPEATS + 1:
        return f"{times} (lines {', '.join(str(line) for line in lines[:SHOWN_REPEATS])}, …, {lines[-1]})"
    return f"{times} (lines {_and([str(line) for line in lines])})"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _shown(node: yaml.Node) -> str:
    """A value as written, short: ``B``, ``[a, b]``, ``(empty)``."""
    if isinstance(node, yaml.ScalarNode):
        text = node.value if node.value or node.style else "(empty)"
    elif isinstance(node, yaml.SequenceNode):
        text = "[" + ", ".join(_shown(item) for item in node.value[:8]) + (", …" if len(node.value) > 8 else "") + "]"
    else:
        text = "{…}"
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 1] + "…"


def comment_value_problems(relative: str, yaml_text: str, meta: Mapping[str, Any]) -> list[Problem]:
    """A top-level ``key: #…`` line that loaded as an empty value: the person's ``#tag1 #tag2``
    is a YAML comment, so the note silently has no tags (or aliases, or status). Obsidian reads
    it so too. Costs one ``in`` for a block without a ``#``."""
    if "#" not in yaml_text:
        return []
    problems: list[Problem] = []
    line, counted = 2, 0  # lines counted on from the last match: a block of many is not read again per match
    for match in _COMMENT_VALUE.finditer(yaml_text):
        key, value = match.group(2), match.group(3).rstrip(" \t")
        if key not in meta or meta[key] is not None:
            continue  # a comment above a value on the lines below (`tags: #mine` then `  - a`)
        line, counted = line + yaml_text.count("\n", counted, match.start()), match.start()
        problems.append(Problem(relative, key, f"{key}: '{value}' (line {line}) is a YAML comment, so {key} is empty",
                                f"write {_written_without_comment(key, value)}"))
    return problems


# A list item whose text YAML reads as a comment (`  - #scout`, a tag typed as in the body), and the
# top-level key above it.
_COMMENT_ITEM = re.compile(r"^[ \t]*-[ \t]+(#[^\s#].*)$")
_TOP_KEY = re.compile(r"^([\"']?)([\w\-]+(?: +[\w\-]+)*)\1[ \t]*:")


def comment_item_problems(relative: str, yaml_text: str, meta: Mapping[str, Any]) -> list[Problem]:
    """An item ``- #…`` of a top-level list that loaded as an empty item: ``tags:`` then
    ``  - #scout`` is ``tags: [null]``, so the note silently has no such tag (Obsidian reads it so
    too). Was (s42, a trial of a student's vault whose scout group's page was tagged so): the
    page had no tags, ``--tag scout`` found nothing, and ``check`` said nothing."""
    if "#" not in yaml_text:
        return []
    problems: list[Problem] = []
    key: str | None = None
    for line, text in enumerate(yaml_text.split("\n"), start=2):  # line 1 is the opening ---
        top = _TOP_KEY.match(text)
        if top is not None:
            key = top.group(2)
            continue
        item = _COMMENT_ITEM.match(text) if key is not None and "#" in text else None
        value = meta.get(key) if key is not None else None
        if item is None or key is None or not isinstance(value, list) or None not in value:
            continue
        written = item.group(1).rstrip(" \t")
        meant = written.lstrip("#") if key.casefold() in _TAG_KEYS else "'" + written.replace("'", "''") + "'"
        problems.append(Problem(relative, key, f"'- {written}' (line {line}) is a YAML comment, so that item of {key} is empty", f"write - {meant}"))
    return problems


def _escape_problem(relative: str, found: SwallowedEscape) -> Problem:
    """LaTeX in a double-quoted value that YAML read as its escapes (escapes.py): the title of
    ``title: "$\\beta$-VAE"`` is ``$``, a backspace, ``eta$-VAE`` — shown, searched and linked so."""
    more = f" (and {found.count - 1} more such escape{'s' if found.count > 2 else ''})" if found.count > 1 else ""
    return Problem(relative, found.key,
                   f"YAML reads {found.escape} in the double-quoted {found.key} (line {found.line}) as {found.meaning}, "
                   f"not as the LaTeX command written{more}: {found.key} holds that character, and is shown and searched so",
                   f"write the value in single quotes, where YAML keeps a backslash as it is: {found.key}: "
                   f"{single_quoted(found.written)} (or double each backslash inside the double quotes)")


def _written_without_comment(key: str, value: str) -> str:
    """The line meant: tags as a list without their ``#``, any other value in quotes."""
    if key.casefold() in _TAG_KEYS:
        words = [word.lstrip("#") for word in re.split(r"[,\s]+", value)]
        return f"{key}: [{', '.join(word for word in words if word)}]"
    return f"{key}: '{value.replace(chr(39), chr(39) * 2)}' (quoted, YAML keeps the #)"


def not_a_mapping_problems(relative: str, yaml_text: str, loaded: Any) -> list[Problem]:
    """A block on line 1 that loads, but not as keys and values: Obsidian reads no properties
    from it either (it keeps none for a top-level list or a lone text), and vaultmem reads it
    as the note's text. A list, or text whose lines are ``key:value`` without the space YAML
    needs after the colon, was meant as properties: said, with the fix. Text of another shape
    is a rule over a paragraph, the note's own: nothing to say."""
    last = yaml_text.count("\n") + 2  # the closing ---
    if isinstance(loaded, list) and loaded:
        return [Problem(relative, "frontmatter", f"the frontmatter on lines 1–{last} is a YAML list, not properties: "
                        "nothing in it is read (no layer, tags or expiry), and it is read as the note's text",
                        "write each property as `key: value` (a list under its key: tags: [a, b]); if these lines are "
                        "the note's text, add a blank line above the first ---")]
    match = _KEY_WITHOUT_SPACE.search(yaml_text) if isinstance(loaded, str) else None
    if match is None:
        return []
    line = yaml_text.count("\n", 0, match.start()) + 2
    written = match.group(0).rstrip(" \t")
    return [Problem(relative, "frontmatter", f"line {line} '{written[:_SHOWN_CHARS]}' has no space after its colon, so "
                    f"YAML reads the frontmatter on lines 1–{last} as one piece of text, not properties: nothing in it "
                    "is read (no layer, tags or expiry), and it is read as the note's text",
                    f"put a space after each key's colon ({match.group(1)}: {match.group(2)[:_SHOWN_CHARS]})")]


def _looks_like_yaml(yaml_text: str) -> bool:
    return _YAML_KEY_LINE.search(yaml_text) is not None


def salvage_lifecycle(yaml_text: str) -> dict[str, Any]:
    """The lifecycle keys, ``title``, ``created`` and ``date`` of a frontmatter block that does
    not load, read line by line (:data:`SALVAGED_KEYS`), and any other key whose value is a day
    or a time (a date property the vault's ``[dates]`` names: ``fecha``, ``creado``).

    Only a top-level line ``key: value`` whose value is a plain scalar on that line (YAML
    reads it as text, a number, a boolean or a date: never a list, a mapping, an anchor or a
    block) counts. A key written on two such lines is ambiguous and is not read. Without
    this, a second ``:`` in the title of an expired memory resurrects it: no expiry, its id
    turned into its path, its usage history cut off; and a broken tags line costs a memory its
    title (named by its file) and its day (left out of ``list --since`` among the undated).
    """
    found: dict[str, list[str]] = {}
    for match in _SALVAGE_LINE.finditer(yaml_text):
        found.setdefault(match.group(2), []).append((match.group(3) or "").rstrip(" \t"))
    salvaged: dict[str, Any] = {}
    days = [key for key, values in found.items() if key not in SALVAGED_KEYS and _LOOKS_LIKE_A_DAY.match(values[0])]
    for key in [key for key in SALVAGED_KEYS if key in found] + days[:MAX_SALVAGED_DAYS]:
        values = found[key]
        if len(values) == 1 and (value := _plain_scalar(values[0], key.casefold() in TEXT_KEYS)) is not None and (
                key in SALVAGED_KEYS or isinstance(value, date)):
            salvaged[key] = value
    return salvaged


def _plain_scalar(text: str, as_text: bool = False) -> Any:
    """``text`` as YAML reads a single value, when it is a scalar; else ``None``. ``as_text``: a
    value of :data:`TEXT_KEYS`, read as written when YAML would read it as something else than
    text (``title: yes``), as a frontmatter that loads reads it (:func:`_as_written`)."""
    if not text or text[0] in "[]{}&*!|>%@`":
        return None  # empty, or a flow collection, anchor, alias, tag, block scalar, directive
    try:
        value = yaml.load(text, Loader=_YAML_LOADER)  # the safe loader (C or Python)
        if as_text and value is not None and not isinstance(value, str):
            node = yaml.compose(text, Loader=_YAML_LOADER)
            value = node.value if isinstance(node, yaml.ScalarNode) else value  # as written, without a comment
    except yaml.YAMLError:
        return None
    except YAML_LOAD_ERRORS:
        # Well-formed, but its type failed to build (2026-13-45 looks like a date): kept as
        # written, so it is reported as an expiry that does not parse instead of vanishing.
        return text
    return value if isinstance(value, _SALVAGED_TYPES) else None


def misplaced_frontmatter(relative: str, text: str) -> list[Problem]:
    """A frontmatter block that does not start on line 1 (a blank line, a BOM and a blank
    line, a stray word above its ``---``): Obsidian reads it as the note's text, and so does
    vaultmem — but its layer, tags and expiry were lost without a word, so it is a problem.

    Only a block that looks meant: its ``---`` within :data:`MISPLACED_LINES_ABOVE` lines of
    the top, a ``key: value`` line right under it, a closing ``---``, and between them YAML
    that loads as a mapping holding a key Obsidian or vaultmem keep (``tags``, ``layer``…) or,
    under nothing but blank lines, of two keys or more (:func:`_looks_meant`). A rule with a
    line of prose under it (``Note: call back``) is none. Costs a few line look-ups for a note without frontmatter; YAML is loaded only for
    a block shaped so."""
    damaged = _damaged_opening(relative, text)
    if damaged is not None:
        return damaged
    found = _meant_block(text, always_under_text=False)
    if found is None:
        return []
    number, last, keys, above = found
    fix = (f"remove the blank line(s) above the --- on line {number}" if not above.strip() else
           f"move the line(s) above the --- on line {number} below the --- on line {last} (or remove them)")
    return [Problem(relative, "frontmatter", f"the frontmatter on lines {number}–{last} is not read: Obsidian reads "
                    f"a frontmatter only when its --- is the file's first line, so its properties ({keys}) are ignored (no layer, "
                    "tags or expiry) and show as the note's text",
                    f"{fix}, so that --- is the file's first line")]


def second_frontmatter(relative: str, body: str, body_line: int) -> list[Problem]:
    """A second frontmatter block at the top of the body, under the note's own (``body_line``
    is the file's line the body starts on): what a tool writes when it puts its frontmatter in
    front of a text that held one already — basic-memory's ``write_note`` given content with
    its own ``---`` block, an agent passing such a text to ``remember``. Obsidian reads only
    the block on line 1 and shows this one as text, so its properties (``type: decision``,
    ``status: canonical``) are lost without a word. Found as :func:`misplaced_frontmatter`
    finds a block, within :data:`MISPLACED_LINES_ABOVE` lines of the body's top (a heading
    may stand above it), and only with a key a frontmatter is for: under a frontmatter, two
    keys of the person's own between rules are the note's text."""
    found = opening_frontmatter(body)
    if found is None:
        return []
    first, last, keys = found[0] + body_line - 1, found[1] + body_line - 1, found[2]
    return [Problem(relative, "body", f"a second frontmatter on lines {first}–{last} is not read: a note has one "
                    f"frontmatter, the block on line 1, so these properties ({keys}) are ignored and show as the note's text",
                    f"move the keys you want into the frontmatter on line 1 (a key both blocks set: keep one value) and "
                    f"delete lines {first}–{last}")]


def opening_frontmatter(text: str) -> tuple[int, int, str] | None:
    """(its first line, its last line, its first keys) of a block at the top of ``text`` that
    looks meant as a frontmatter (:func:`second_frontmatter`), lines counted in ``text``."""
    found = _meant_block("\n" + text, always_under_text=True)
    return None if found is None else (found[0] - 1, found[1] - 1, found[2])


def _damaged_opening(relative: str, text: str) -> list[Problem] | None:
    """The problem of a first line that was meant as the frontmatter's ``---`` but holds more
    (:data:`_DAMAGED_OPENING`: ``|---`` over ``type: project`` … ``---``), when the block under
    it looks meant as a frontmatter (:func:`_block_under`); ``None`` otherwise. Without it the
    note's tags and status were its text without a word, and ``revise --set`` wrote a second
    block above it, leaving the person's own values below, unread (s41)."""
    line_end = text.find("\n", 0, MISPLACED_SCAN_CHARS)
    if line_end < 0:
        return None
    fence = text[:line_end]
    if not _DAMAGED_OPENING.fullmatch(fence) or fence.lstrip(BOM).rstrip(" \t\r") == "---":
        return None  # not a fence, or an intact one: find_frontmatter's, or a rule over prose
    # A key a frontmatter holds (type, tags, status …), not any two: a line of dashes over a
    # recipe's `Serves: 4` / `Time: 20 min` or a quiz's `Q:` / `A:` and a `---` is a rule over the
    # note's text, and the fix to make it `---` turned that text into properties (review, s42).
    found = _block_under(text, line_end + 1, 1, always_under_text=True)
    if found is None:
        return None
    _, last, keys, _ = found
    shown = fence.strip(BOM + "\r")
    return [Problem(relative, "frontmatter", f"line 1 ({shown!r}) is not a frontmatter's ---: Obsidian opens a frontmatter "
                    f"only on a first line that is exactly ---, so the properties on lines 2–{last - 1} ({keys}) are "
                    "ignored (no layer, tags or expiry) and show as the note's text",
                    f"make line 1 exactly --- (it reads {shown!r})")]


def _meant_block(text: str, always_under_text: bool) -> tuple[int, int, str, str] | None:
    """(its ``---`` line, its closing line, its first keys, the text above it) of a block on
    lines 2 to 1 + :data:`MISPLACED_LINES_ABOVE` of ``text`` that looks meant as a frontmatter
    (:func:`misplaced_frontmatter`); ``None`` when there is none."""
    opening, number = _misplaced_opening(text)
    if opening is None:
        return None
    return _block_under(text, opening, number, always_under_text)


def _block_under(text: str, opening: int, number: int, always_under_text: bool) -> tuple[int, int, str, str] | None:
    """(``number``, its closing line, its first keys, the text above it) of the block starting
    at offset ``opening``, under line ``number`` (a ``---``, or one meant as one), when it looks
    meant as a frontmatter (:func:`_meant_block`); ``None`` when it does not."""
    line_end = text.find("\n", opening, opening + MISPLACED_SCAN_CHARS)
    if line_end < 0 or not _is_key_line(text[opening:line_end]):
        return None  # one line, or more than can be looked at: no block with a closing --- under it
    closing = _CLOSING.search(text, opening, opening + MISPLACED_SCAN_CHARS)
    if closing is None:
        return None
    try:
        loaded = load_yaml_mapping(text[opening:closing.start()])
    except YAML_LOAD_ERRORS:
        return None  # not YAML: a rule over prose, as far as anyone can tell
    above = text[:text.rfind("\n", 0, opening - 1) + 1]
    if sum(line.lstrip().startswith(("```", "~~~")) for line in above.split("\n")) % 2:
        return None  # inside a code block opened above it: YAML shown as code, not a frontmatter
    under_text = always_under_text or bool(above.strip(BOM + " \t\r\n"))
    if not isinstance(loaded, dict) or not _looks_meant(loaded, under_text=under_text):
        return None
    last = number + text.count("\n", opening, closing.start()) + 1
    keys = ", ".join(str(key) for key in list(loaded)[:5]) + (", …" if len(loaded) > 5 else "")
    return number, last, keys, above


def _misplaced_opening(text: str) -> tuple[int | None, int]:
    """(offset just past it, line number) of a ``---`` line on lines 2 to
    1 + :data:`MISPLACED_LINES_ABOVE`; ``(None, 0)`` when there is none."""
    start = 0
    for number in range(1, MISPLACED_LINES_ABOVE + 2):
        end = text.find("\n", start)
        if end < 0:
            return None, 0
        if number > 1 and _MISPLACED_OPENING.fullmatch(text, start, end):
            return end + 1, number
        start = end + 1
    return None, 0


def _is_key_line(line: str) -> bool:
    """Is ``line`` a YAML ``key: value`` line (the key bare or quoted)? Split at its first colon."""
    colon = line.find(":")
    if colon <= 0 or (colon + 1 < len(line) and line[colon + 1] not in " \t\r"):
        return False
    return _KEY.fullmatch(line[:colon].rstrip(" \t")) is not None


_KEY = re.compile(r"[\"']?[\w\- ]+[\"']?")


def _looks_meant(loaded: Mapping[Any, Any], under_text: bool) -> bool:
    """A key that Obsidian or vaultmem read from a frontmatter; or, under nothing but blank
    lines, two keys or more. Under the note's own text (a heading, a line of prose), two
    keys of the person's own are the note's: a recipe's ``Serves: 4`` and ``Time: 20 min``,
    a quiz's ``Q:`` and ``A:`` between two rules (said a problem, they failed check, warned
    on every hit, and revise was refused with a fix to move the heading below them)."""
    if any(_frontmatter_key(str(key), value) for key, value in loaded.items()):
        return True
    return len(loaded) >= 2 and not under_text


def _frontmatter_key(key: str, value: Any) -> bool:
    """Is ``key: value`` what a frontmatter holds? A key of :data:`FRONTMATTER_KEYS` — but a key
    that dates a note (``created``, ``modified``, ``date``…) only with a value a time could be
    (empty, a date, a time, or text holding a digit: ``May 4, 2023``). Without this, study notes
    between two rules (``Modified: when you modify a file`` / ``Staged: …`` / ``Committed: …``, git's
    three states) were a frontmatter not on line 1: check failed, revise was refused, and the fix
    said to move the note's first lines below them, which would make its text properties."""
    if key.casefold() not in FRONTMATTER_KEYS:
        return False
    if key.casefold() not in DATING_KEYS or value is None or isinstance(value, (date, int, float)):
        return True
    return isinstance(value, str) and any(character.isdigit() for character in value)


FRONTMATTER_KEYS = BOOKKEEPING_KEYS | {"date", "categories", "category", "type", "status"}
DATING_KEYS = frozenset({"created", "updated", "modified", "date", "expires_at"})


def _unclosed_problem(relative: str, text: str) -> list[Problem]:
    opening = _OPENING.match(text)
    if opening is None or not _YAML_KEY_LINE.match(text, opening.end()):
        return []
    return [Problem(relative, "frontmatter", "frontmatter is opened with --- but never closed",
                    "add a line with --- after the last key")]


def yaml_failure(error: BaseException) -> tuple[str, str]:
    """Where in the file (`` at line N``: the file's line, counting the opening ``---``) and why
    the frontmatter's YAML did not load — one wording for ``check`` and for the writers."""
    mark = getattr(error, "problem_mark", None)
    where = f" at line {mark.line + 2}" if mark is not None else ""  # +1 for 0-based, +1 for the opening ---
    return where, (getattr(error, "problem", None) or str(error).splitlines()[0])[:300]


def _yaml_problem(relative: str, error: BaseException, salvaged: Mapping[str, Any],
                  block: FrontmatterBlock | None = None) -> Problem:
    where, reason = yaml_failure(error)
    reason += _unclosed_hint(block)
    read = ", ".join([key for key in SALVAGED_KEYS if key in salvaged] + [key for key in salvaged if key not in SALVAGED_KEYS])
    meanwhile = Spelled(f"until then only its {read} line(s) are read; " if read else "until then it has no metadata; ",
                        JOBS_LEAVE_IT_ALONE)
    if isinstance(error, FrontmatterTooLarge):
        return Problem(relative, "frontmatter", f"YAML is not loaded: {reason}",
                       Spelled("shorten the frontmatter (or remove the aliases); ", *meanwhile.parts))
    if "unhashable key" in str(error) or (block is not None and (_unquoted_placeholder(block.yaml_text)
                                                                  or _TEMPLATER_TAG.search(block.yaml_text))):
        # A template outside the templates folder Obsidian's settings name (or with none named):
        # the fix is to say it is one, not to quote what the template means to be filled in.
        # Not only `created: {{date}}` (a mapping as a key): `aliases: [{{title}} Notes]` fails as
        # a flow sequence, and was told only to "fix the YAML" (a trial on a vault whose two
        # templates under templates/ each got another advice). Nor only {{…}}: a Templater tag's own
        # quotes end the value they are in (`week: "[[<% tp.date.now("YYYY") %>-W01]]"`), and the
        # Obsidian Hub's daily-log template was told to quote its values (a trial, s38).
        templater = "unhashable key" not in str(error) and block is not None and not _unquoted_placeholder(block.yaml_text)
        example, quoting = (("<% tp.date.now() %>", "write the values holding '<%' in single quotes")
                            if templater else ("{{date}}", "quote the values holding '{{'"))
        return Problem(relative, "frontmatter", f"YAML does not load{where}: {reason} (a template placeholder such as "
                       f"{example}?)", Spelled(f"if this note is a template, add it to exclude in .vaultmem.toml "
                       f"(\"{_exclude_pattern(relative)}\"{_templates_folder_pattern(relative)}) or move it into the "
                       f"folder Obsidian's Settings → Templates "
                       f"→ Template folder location names (a vault may name none yet); else {quoting}; ",
                       *meanwhile.parts))
    if "escape" in reason:
        # `title: "$\mathcal{L}_1$ bounds"`: the value is quoted already, so "quote values"
        # sent the person looking for the wrong mistake (a trial with a Zotero-imported vault).
        return Problem(relative, "frontmatter", f"YAML does not load{where}: {reason} (a backslash inside double "
                       "quotes starts a YAML escape, and LaTeX's \\mathcal, \\sum or \\u… is none)",
                       Spelled("write that value in single quotes ('$\\mathcal{L}_1$ …'), where YAML keeps a "
                               "backslash as it is, or double each backslash; ", *meanwhile.parts))
    return Problem(relative, "frontmatter", f"YAML does not load{where}: {reason}",
                   Spelled("fix the YAML (quote values containing ': ' or '{{'); ", *meanwhile.parts))


# A template's placeholder: `{{date}}`, `{{title}}`, `{{date:YYYY-MM-DD}}`; Templater's `<% … %>`; and a quoted YAML scalar.
_PLACEHOLDER = re.compile(r"\{\{[^{}\n]*\}\}")
_TEMPLATER_TAG = re.compile(r"<%.*?%>")
_QUOTED = re.compile(r"'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\"")


def _unquoted_placeholder(yaml_text: str) -> bool:
    """Does the YAML hold a template's placeholder outside quotes (``[{{title}} Notes]``)? A quoted
    one (``title: 'Weekly {{date}}'``) is a value YAML reads well: not what broke the block."""
    return "{{" in yaml_text and _PLACEHOLDER.search(_QUOTED.sub("", yaml_text)) is not None


def _unclosed_hint(block: FrontmatterBlock | None) -> str:
    """A frontmatter never closed runs to the next ``---`` (a rule further down): a blank line
    inside it says so more plainly than the YAML error at the Markdown it swallowed (a trial)."""
    if block is None:
        return ""
    lines = block.yaml_text.split("\n")
    blank = next((number for number, line in enumerate(lines[1:-1], start=1) if not line.strip()), None)
    if blank is None:
        return ""
    closing = len(lines) + 1  # the opening --- is line 1, the block's lines follow it
    return (f" — is the frontmatter closed? it runs to the --- on line {closing}, past a blank line on line {blank + 2}; "
            "if it ends earlier, add a --- line after its last key")


def template_exclusion(relative: str) -> str:
    """What a problem caused by a template's placeholder tells to do when the note is a template:
    name it in ``exclude`` (its own pattern, or its templates folder's) or move it into
    Obsidian's templates folder."""
    return (f"if this note is a template, add it to exclude in .vaultmem.toml (\"{_exclude_pattern(relative)}\""
            f"{_templates_folder_pattern(relative)}) or move it into the folder Obsidian's Settings → Templates "
            "→ Template folder location names (a vault may name none yet)")


def _exclude_pattern(relative: str) -> str:
    """The ``exclude`` pattern that leaves out ``relative`` alone, anchored at the vault's root.
    Not its folder: a template sits beside the notes made from it (``Daily/_template.md``), and
    the folder's pattern, followed as given, took every daily note out of the index (a trial).
    Written as it goes between the quotes of a TOML string: a name's ``[``, ``*``, ``?`` escaped
    for the glob, then backslashes and quotes for TOML."""
    glob = "/" + re.sub(r"([\\\[\]*?])", r"\\\1", relative)
    return glob.replace("\\", "\\\\").replace('"', '\\"')


_TEMPLATES_FOLDERS = frozenset({"templates", "template", "_templates"})


def in_templates_folder(relative: str) -> bool:
    """Is ``relative`` in a folder named for templates (``templates/``, ``[assets]/Templates/``)?"""
    return PurePosixPath(relative).parent.name.casefold() in _TEMPLATES_FOLDERS


def _templates_folder_pattern(relative: str) -> str:
    """For a note in a folder named for templates (``templates/daily.md``), its folder's pattern
    too: the vault's other templates there load (``templates/person.md``: a "First Last" person)
    and were searched as notes, ranking first for "who are my friends" (a trial); one pattern
    per broken file left them in. Any other folder is not offered (see :func:`_exclude_pattern`)."""
    folder = PurePosixPath(relative).parent
    if not in_templates_folder(relative):
        return ""
    return f', or the whole folder if it holds only templates: "{_exclude_pattern(folder.as_posix())}/"'


# check --fix is not an MCP tool (adr/0011): an agent is told what it can do itself, and what the person can.
# Which of vaultmem's own jobs leave a note whose YAML does not load alone: an agent hears its tools.
JOBS_LEAVE_IT_ALONE = Operation("check --fix, expire and consolidate leave it alone",
                                "Vault.check(fix=True), Vault.expire() and Vault.consolidate() leave it alone",
                                "the expire and consolidate tools (and the person's `vaultmem check --fix`) leave it alone")
STAMP_EXPIRY = Operation("run `vaultmem check --fix` to stamp created + the layer TTL",
                         "run Vault.check(fix=True) to stamp created + the layer TTL",
                         "revise it with ttl or expires_at (or ask the person to run `vaultmem check --fix`, "
                         "which stamps created + the layer TTL)")
DROP_EXPIRY = Operation("or run `vaultmem check --fix`", "or run Vault.check(fix=True)",
                        "or ask the person to run `vaultmem check --fix`")


def field_problems(relative: str, meta: Mapping[str, Any], salvaged: bool = False) -> list[Problem]:
    """What ``check`` reports about one note's fields (duplicate ids need the whole vault).

    ``salvaged``: ``meta`` holds only what was read line by line from a frontmatter that
    does not load, so a missing ``expires_at`` may just be unreadable: not reported.
    """
    problems: list[Problem] = []
    layer: str | None = None
    raw_layer = meta.get("layer")
    if raw_layer is not None:
        try:
            layer = normalize_layer(raw_layer)
        except UnknownLayer as error:
            problems.append(Problem(relative, "layer", str(error), "set layer to L1, L2, L3 or L4 (or working/episodic/semantic/procedural)"))
    expires = meta.get("expires_at")
    permanent = is_permanent(meta) or layer == PERMANENT_LAYER
    if not is_absent(expires):
        problems.extend(_expiry_problems(relative, expires, permanent, layer))
    elif layer in EXPIRING_LAYERS and not permanent and not salvaged:
        problems.append(Problem(relative, "expires_at", f"layer {layer} note has no expires_at, so it never expires",
                                Spelled(STAMP_EXPIRY, ", or add expires_at / permanent: true"),
                                "add expires_at (or permanent: true) by hand; this note's fix problem says why it is not stamped"))
    problems.extend(_scalar_problems(relative, meta))
    return problems


def _expiry_problems(relative: str, expires: Any, permanent: bool, layer: str | None) -> list[Problem]:
    problems: list[Problem] = []
    try:
        parse_timestamp(expires)
    except InvalidTimestamp as error:
        example = look_alike_fix(expires, _reads_as_timestamp) or "write an ISO date such as 2026-12-24 or 2026-12-24T18:00:00+01:00"
        problems.append(Problem(relative, "expires_at", str(error), f"{example}; until then the note never expires and search flags it"))
    if permanent:
        why = "layer L4 (procedural)" if layer == PERMANENT_LAYER else "permanent: true"
        problems.append(Problem(relative, "expires_at", f"{why} note carries expires_at {expiry_text(expires)}, "
                                "which is ignored: it never expires",
                                Spelled("remove expires_at (", DROP_EXPIRY, "); permanent notes carry no deadline"),
                                "remove expires_at by hand; permanent notes carry no deadline"))
    return problems


# A template's command left as written: Templater's `<% tp.file.creation_date() %>`, the core
# Templates plugin's `{{date}}`. The note was made from the template without the plugin running it.
TEMPLATE_COMMAND = re.compile(r"<%.*%>|\{\{[^{}]*\}\}", re.DOTALL)
# A date's format written where a date goes (`YYYY-MM-DD`, `YYYY-MM-DDTHH:mm`): a template to fill in by hand.
DATE_FORMAT_PLACEHOLDER = re.compile(r"YYYY[-/.:T MDHhmsZ]*")
# An ISO day and a time (`2026-03-03T25:00`, `2026-03-03 10:00 PST`): a timestamp meant, whatever follows.
_ISO_DAY_AND_TIME = re.compile(r"\s*\d{4}-\d{2}-\d{2}[T ]\d{1,2}:")


def _scalar_problems(relative: str, meta: Mapping[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    if "permanent" in meta and not isinstance(meta["permanent"], bool):
        problems.append(Problem(relative, "permanent", f"permanent is {short_repr(meta['permanent'])}, not true/false",
                                "write permanent: true or permanent: false (unquoted)"))
    created = meta.get("created")
    if not is_absent(created):
        try:
            parse_timestamp(created)
        except InvalidTimestamp as error:
            read = created_moment(created)
            if read is None:
                problems.append(_created_problem(relative, created, error))
            elif isinstance(created, str) and _ISO_DAY_AND_TIME.match(created):
                problems.append(_created_time_problem(relative, created, error, read))
    tags = meta.get("tags")
    if tags is not None and not isinstance(tags, (str, list)):
        problems.append(Problem(relative, "tags", f"tags is a {type(tags).__name__}, not a list",
                                "write tags as a YAML list, e.g. tags: [work, harbor]"))
    return problems


def _created_time_problem(relative: str, created: str, error: InvalidTimestamp, read: datetime) -> Problem:
    """``created`` is an ISO day with a time that does not parse (``2026-03-03T25:00``, an offset
    of +25:00, ``10:00 PST``): its day dates the note (spelled_days.value_date reads the day a text
    spells), and the time is lost. Was: read so without a word, as if it were a day in words."""
    detail = f" ({error.reason})" if error.reason else ""
    return Problem(relative, "created", f"{error.PREFIX}{short_repr(created)}{detail}: its time does not read, so the "
                   f"note counts as created on the day {read.date().isoformat()} (midnight UTC)",
                   f"write the time as ISO-8601, such as {read.date().isoformat()}T09:00 or "
                   f"{read.date().isoformat()}T09:00:00-08:00, or the day alone")


def _created_problem(relative: str, created: object, error: InvalidTimestamp) -> Problem:
    """``created`` does not parse: said as a template's command that never ran when it is one
    (a trial: `created: <% tp.file.creation_date("YYYY-MM-DD") %>` in a daily note was only
    "invalid timestamp", the person not told why the note holds it)."""
    if isinstance(created, str) and DATE_FORMAT_PLACEHOLDER.fullmatch(created.strip()):
        # A person's template (`people/_template.md`: `created: YYYY-MM-DD`, filled in by hand):
        # "write an ISO date" would stamp that day on every note made from it.
        return Problem(relative, "created", f"{error} (a date's format left as a placeholder: a template's)",
                       f"if the note is a template, leave it out of vaultmem (exclude = [\"{relative}\"] in "
                       ".vaultmem.toml, or Obsidian's templates folder); otherwise write the day it was made, as 2026-11-30")
    if not (isinstance(created, str) and TEMPLATE_COMMAND.search(created)):
        # The fix said once: the error's own "use ISO-8601 such as …" repeated it in the message.
        return Problem(relative, "created", f"{error.PREFIX}{short_repr(created)}: it is no day or time",
                       look_alike_fix(created, _reads_as_timestamp)
                       or "write an ISO date such as 2026-11-30, 2026-11-30T09:00 or 2026-11-30T09:00:00+00:00")
    return Problem(relative, "created", f"{error} (a template's command that never ran: the note was made from the "
                   "template without Templater or the Templates plugin filling it in)",
                   "write the day it was made, as 2026-11-30 or 2026-11-30T09:00 (Templater's \"Replace templates in the "
                   "active file\" fills in the time you run it, not the day the note was made)")


def layer_of(meta: Mapping[str, Any]) -> str | None:
    """The note's normalized layer, or ``None`` when it has none or an unknown one."""
    raw = meta.get("layer")
    if raw is None:
        return None
    try:
        return normalize_layer(raw)
    except UnknownLayer:
        return None  # reported by field_problems; the note is simply layer-less meanwhile


def tags_of(meta: Mapping[str, Any]) -> list[str]:
    """Tags as a clean list: a list or a comma/space separated string, ``#`` dropped."""
    raw = meta.get("tags")
    if isinstance(raw, str):
        items: list[Any] = re.split(r"[,\s]+", raw)
    elif isinstance(raw, list):
        items = raw
    else:
        return []
    tags: dict[str, None] = {}  # in order, each once (a set beside a list was O(n²) on a huge list)
    for item in items:
        if item is None or isinstance(item, (dict, list)):
            continue
        tag = str(item).strip().lstrip("#").strip()
        if tag:
            tags[tag] = None
    return list(tags)


# Obsidian's inline tag: '#' after a line start or whitespace, then letters, digits, _ - /,
# with at least one character that is not a digit ('#1' is not a tag, '# Heading' neither).
_TAG_WORD = r"[\w/-]*[^\W\d][\w/-]*"
_INLINE_TAG = re.compile(f"#({_TAG_WORD})")
# Bear's tag of several words, closed by a second '#': `#reading list#`, `#work/next steps#`.
# The words are tag words split by single spaces; the closing '#' ends a word and is not
# followed by one (`#a b#c` is no tag of Bear's).
_CLOSED_TAG = re.compile(f"#({_TAG_WORD}(?: [\\w/-]+)+)#(?![\\w/#-])")
# Roam's (and Logseq's) tag of several words, its page link after the '#': `#[[multi word tag]]`
# is the tag `multi word tag`, as Roam shows it and Obsidian's Roam import writes it.
# Its letter is asked by a lookahead, not between two runs of the same characters: a `#[[` before a
# long line with no `]]` was tried at every split of it (a line of 8,000 letters took 0.3 s, 100,000
# a minute: a hostile or pasted note stalled every reindex).
_LINKED_TAG = re.compile(r"#\[\[(?=[^\[\]\n|#]*[^\W\d])([^\[\]\n|#]*)\]\]")
_ANY_TAG = re.compile(f"{_LINKED_TAG.pattern}|{_INLINE_TAG.pattern}")


def inline_tags(body: str) -> list[str]:
    """``#tags`` written in the body, outside code and comments (Obsidian ignores both), in
    order of appearance. A Bear tag of several words (``#reading list#``) is the tag
    ``reading list``; its first word stays a tag too, as Obsidian reads the line (a vault
    read by both keeps every tag Obsidian shows — a trial: Bear's export had
    ``--tag "reading list"`` find nothing and its notes tagged ``reading``). Roam's and
    Logseq's ``#[[multi word tag]]`` is the tag ``multi word tag`` (a trial on a Roam export:
    ``--tag "multi word tag"`` found nothing, the words were only a link)."""
    if "#" not in body:
        return []
    text = without_code_or_hidden(body)
    found: list[str] = []
    seen: set[str] = set()
    for match in _ANY_TAG.finditer(text):
        start = match.start()
        if start and not text[start - 1].isspace():
            continue  # a#b, http://x/#frag, ## headings
        if match.group(1) is not None:
            tags = [" ".join(match.group(1).split()).strip("/")]
        elif closed := _CLOSED_TAG.match(text, start):
            tags = [closed.group(1).rstrip("/"), match.group(2).rstrip("/")]
        else:
            tags = [match.group(2).rstrip("/")]
        for tag in tags:
            if tag and case_fold(tag) not in seen:
                seen.add(case_fold(tag))
                found.append(tag)
    return found


# Frontmatter fields that name a note besides its id and path: a person's aliases (stored
# under the kind "aliases", whichever key holds them: fields.aliases_of), and the ids of the
# notes it absorbed (`merged_from`, written by consolidate) or replaced (`supersedes`,
# written by `remember --supersedes`). See adr/0019.
ALIASES = "aliases"
SUPERSEDES = "supersedes"
SUCCESSOR_FIELDS: tuple[str, ...] = ("merged_from", SUPERSEDES)
# The frontmatter key basic-memory and Obsidian Publish give a note's address in (its URL slug,
# `memory://decisions/lanesborough-protocol`), and the kind its names are stored under.
PERMALINK = "permalink"
MEMORY_URL = "memory://"  # basic-memory's scheme for a permalink: `memory://decisions/x`
# The kind a paper's citation key is stored under, and the frontmatter keys it is read from
# (compared lower-cased): `citekey` as Zotero Integration, Citations and Better BibTeX's
# templates write it (`citekey: Koszegi2006b`), and CSL's and Zotero 7's names for it. A
# researcher and their agent cite a paper so — `[@Koszegi2006b]` in pandoc — and name it so.
CITEKEY = "citekey"
CITEKEY_KEYS = frozenset({"citekey", "citationkey", "citation-key", "citation_key"})
# The kind the `# heading` a note opens with is stored under (fields.opening_heading), case folded
# in NFC as titles are compared (fields.name_fold): the name resolution's last step compares
# (Foam titles a note so; `walking-the-heap.md` goes by `# Walking the Heap`). No frontmatter key.
HEADING = "heading"
# The kind a Notion page's file name without its page id is stored under, when the page is
# titled by its `# Title` line instead (notion.notion_meta: `Weekly Sync 18 04 2022 5ed8….md`
# is titled "Weekly Sync 18.04.2022"): the name it went by before, and what Obsidian shows.
PAGE_NAME = "page name"


def text_values(meta: Mapping[str, Any], key: str) -> list[str]:
    """A frontmatter value read as a list of text: a lone string is one item; numbers count;
    anything else (mappings, nested lists, booleans, null) is skipped, not guessed at."""
    raw = meta.get(key)
    items = raw if isinstance(raw, list) else [raw]
    values: list[str] = []
    for item in items:
        if isinstance(item, (str, int, float)) and not isinstance(item, bool):
            text = str(item).strip()
            if text and text not in values:
                values.append(text)
    return values


def lookup_names(note: Note) -> list[tuple[str, str]]:
    """(kind, name) for each of the note's aliases, each id in its SUCCESSOR_FIELDS, each name
    its permalink gives it (:func:`permalink_names`), its citekeys and the heading it opens with
    (:data:`HEADING`): what the index stores to resolve them."""
    aliases = [(ALIASES, alias) for alias in aliases_of(note.meta)]
    permalinks = [(PERMALINK, name) for permalink in text_values(note.meta, PERMALINK) for name in permalink_names(permalink)]
    citekeys = [(CITEKEY, name) for name in dict.fromkeys(map(citekey_form, citekeys_of(note.meta))) if name]
    heading = name_fold(opening_heading(note.body))
    page_name = without_page_id(file_stem(note.path))
    renamed = [(PAGE_NAME, page_name)] if page_name != note.title and is_notion_page(note.path) else []
    return [*aliases, *((key, name) for key in SUCCESSOR_FIELDS for name in text_values(note.meta, key)), *permalinks,
            *citekeys, *renamed, *([(HEADING, heading)] if heading else [])]


def citekeys_of(meta: Mapping[str, Any]) -> list[str]:
    """The note's citation keys as written (:data:`CITEKEY_KEYS`; ``citekey: 2006`` is one too)."""
    return [text for key in meta if key.lower() in CITEKEY_KEYS for text in text_values(meta, key)]


def citekey_form(text: str) -> str:
    """A citation key, or a NOTE compared with them, as the two are compared: without the ``@``
    a citation writes before it and the brackets around one (``[@Koszegi2006b]``), case folded in
    NFC as aliases are (``fields.name_fold``). ``""``: no key. Stored so, a lookup is one indexed
    equality."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    return name_fold(text.removeprefix("@").strip())


def permalink_form(text: str) -> str:
    """A permalink, or a NOTE compared with permalinks, as the two are compared: without
    basic-memory's ``memory://``, the slashes around it and a trailing ``.md`` (an agent that
    holds ``decisions/x`` as a path adds it), case folded in NFC (``fields.name_fold``), as
    aliases are compared. ``""``: no permalink. Stored so, a lookup is one indexed equality."""
    text = text.strip()
    if text[:len(MEMORY_URL)].lower() == MEMORY_URL:
        text = text[len(MEMORY_URL):]
    text = text.strip("/")
    if text[-3:].lower() == ".md":
        text = text[:-3]
    return name_fold(text.strip("/").strip())


def permalink_names(permalink: str) -> list[str]:
    """The names a note answers to by its permalink: the whole (``decisions/lanesborough-protocol``)
    and, when it has folders, each end of it from a ``/`` on (``lanesborough-protocol``: how
    basic-memory's agents write it in links and calls, as ``folder/name`` names a note by the end
    of its path). basic-memory put the project in front of its permalinks in 2026
    (``video-annotator/engineering/x``); an agent from before holds ``engineering/x``."""
    parts = permalink_form(permalink).split("/")
    ends = ("/".join(parts[start:]) for start in range(len(parts)))
    return [name for name in dict.fromkeys(ends) if name and not name.startswith("/")]


def title_of(meta: Mapping[str, Any], relative: str, body: str = "") -> str:
    """As Obsidian names a note: the property that names it (:func:`naming_key`: ``title``, or a
    person's ``name``), else the file name (without the page id a Notion export puts after it:
    notion.without_page_id) — but a folder's page (:func:`folder_page_title`).

    Not the first ``# heading``: in real vaults it is often a section (``# Clippings`` on a
    person's page), and a note found under a name Obsidian never shows is not found at all.
    """
    key = naming_key(meta, relative)
    named = _name_text(meta.get(key)) if key is not None else None
    return named or folder_page_title(relative, body) or without_page_id(file_stem(relative))


# The file names a documentation site builds a folder's page from: MkDocs' and Quartz's
# `index.md`, Hugo's section page `_index.md`.
FOLDER_PAGE_NAMES = frozenset({"index.md", "_index.md"})
# Logseq's default :pages-directory. It is flat (a namespace is in the file name: `projects___index.md`),
# so `pages/index.md` is the page "index", as Logseq lists and links it; titled "pages", it was not.
LOGSEQ_PAGES_FOLDER = "pages"


def folder_page_title(relative: str, body: str) -> str:
    """The title of a folder's page (``docs/guide/index.md``): the ``# heading`` its text opens
    with, as MkDocs titles a page, else its folder's name (``guide``), as Quartz and MkDocs name
    the folder's section; ``""`` for any other note, and for an ``index.md`` at the vault's root
    (the home page of a site, a person's index of their vault: "index" is what they call it) or
    in the root's ``pages/`` (a Logseq graph's page "index": :data:`LOGSEQ_PAGES_FOLDER`).
    Every ``index.md`` of a site was "index": ten hits titled alike, and ``get "User guide"``
    found nothing (adr/0033, "A folder's page"). Its file name stays a name of it: ``[[index]]``
    and ``get docs/guide/index`` find it as before."""
    folder, _, name = relative.rpartition("/")
    if not folder or folder == LOGSEQ_PAGES_FOLDER or name.casefold() not in FOLDER_PAGE_NAMES:
        return ""
    heading = HEADING_LINE.match(f"# {opening_heading(body)}")  # `# Guide {#guide}` is "Guide" (adr/0033)
    # A link in it is its text, as Obsidian shows the heading: `# [[Harbor]] guide` was titled so, brackets and all.
    return (link_text(heading.group(2)).strip() if heading is not None else "") or folder.rpartition("/")[2]


def file_stem(relative: str) -> str:
    """``PurePosixPath(relative).stem`` of a vault-relative path, without building a path object
    (each note's title asks it, at every index)."""
    name = relative.rpartition("/")[2]
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


def naming_key(meta: Mapping[str, Any], relative: str) -> str | None:
    """The property that names the note, ``None`` when none does (its file name names it).

    ``title`` (Hugo's and Jekyll's convention), unless a ``name`` says otherwise: a person's
    note made from a CRM template carries ``name: Matt Ober`` and ``title: Partner``, his job.
    Read as the name, "Partner" headed every hit, ``get "Matt Ober"`` found nothing, and
    ``revise --title "Matt Ober"`` overwrote his job title (a trial on a people vault). So
    ``name`` names the note when there is no ``title``, or when the ``title`` is not the file
    name (compared as slugs: ``Matt Ober`` is ``matt-ober.md``) — a title that is the file name
    is the note's name whatever ``name`` holds. :func:`title_of` and ``revise --title`` (which
    writes this key) agree by construction (adr/0020)."""
    title, name = _name_text(meta.get("title")), _name_text(meta.get("name"))
    if name is None:
        return "title" if title is not None else None
    if title is not None and same_slug(title, without_page_id(file_stem(relative))):
        return "title"
    return "name"


def _name_text(value: Any) -> str | None:
    """A property's value as a name: text, or a number or date YAML read from one
    (``title: 2024-01-05``, as text in Python's spelling); ``None`` for anything else or blank."""
    if isinstance(value, date):
        return str(value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip() or None
    return None


def id_of(meta: Mapping[str, Any], relative: str) -> str:
    """Frontmatter ``id``, else the vault-relative path without ``.md``."""
    raw = meta.get("id")
    if isinstance(raw, (str, int)) and not isinstance(raw, bool) and str(raw).strip():
        return str(raw).strip()
    return path_without_suffix(relative)


def path_without_suffix(relative: str) -> str:
    return relative[: -len(".md")] if relative.endswith(".md") else relative


def created_moment(value: Any, solar_hijri: bool = False) -> datetime | None:
    """When a ``created`` value says the note was made, read as dating.py reads it to date the
    note (spelled_days.value_date, the one reader): a timestamp, a linked day, a period's first
    day, the one day its text spells as a person writes it (``Sunday, January 5, 2026 at 8:15
    PM``: 2026-01-05); None when it says none. ``check`` calls it a problem only when None,
    ``check --fix`` counts a layer's TTL from it, the index keeps it as ``created_us`` (what
    ``stale`` falls back to), consolidation keeps the oldest and ``revise`` counts a TTL from it:
    all agree with the note's date. ``solar_hijri``: the vault's daily notes are named in that
    calendar (daily_format.DailyFormat.solar_hijri), as dating reads it."""
    found = value_date(value, solar_hijri)
    return None if found is None else found.moment


def timestamp_or_none(value: Any) -> datetime | None:
    """Parse a frontmatter timestamp; ``None`` when absent or unparseable (reported elsewhere)."""
    if is_absent(value):
        return None
    try:
        return parse_timestamp(value)
    except InvalidTimestamp:
        return None


def _reads_as_timestamp(text: str) -> bool:
    """Whether ``text`` is a timestamp (look_alikes: the day a typed date means)."""
    return timestamp_or_none(text) is not None


def epoch_us_or_none(value: Any) -> int | None:
    moment = timestamp_or_none(value)
    return None if moment is None else to_epoch_us(moment)


def is_unparsed_expiry(problem: Mapping[str, str]) -> bool:
    """Whether a stored field problem is the one :func:`field_problems` reports for an
    ``expires_at`` that does not parse."""
    return problem["field"] == "expires_at" and problem["message"].startswith(InvalidTimestamp.PREFIX)


def unparsed_expiry_warning(expires_at: str | None) -> str:
    """What a hit or a reply says about a note whose ``expires_at`` does not parse."""
    return Spelled(f"expires_at {expires_at!r} does not parse, so this note never expires until it is fixed (see ", CHECK, ")")


def expiry_text(value: Any) -> str | None:
    """``expires_at`` as text for reports: the ISO form when it parses, else as written."""
    if is_absent(value):
        return None
    moment = timestamp_or_none(value)
    if moment is not None and not isinstance(value, str):
        return moment.isoformat()
    if moment is None:
        if isinstance(value, date):
            # A YAML date(time) that no UTC instant holds (9999-12-31T23:59:59-05:00): shown as
            # written, not as a Python repr.
            return value.isoformat()
        return value[:200] if isinstance(value, str) else short_repr(value)  # garbage: shown, not stored whole
    return str(value)
