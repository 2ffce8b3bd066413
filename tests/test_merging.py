"""What a merge appends to the canonical note: the units only the merged notes held."""

from __future__ import annotations

from vaultmem.merging import additions, appended_text, merge_lines, normalize, says_again
from vaultmem.notes import parse_note

CANONICAL = parse_note("c.md", b"---\ntitle: Upgrades\n---\nWe upgrade Postgres on\nSundays, after a backup.\n\n- check the replicas\n")


def note(path: str, body: str, title: str | None = None) -> object:
    head = f"---\ntitle: {title}\n---\n" if title else ""
    return parse_note(path, (head + body).encode("utf-8"))


def lines_added(*merged: object) -> list[tuple[str, tuple[str, ...]]]:
    return [(addition.path, addition.lines) for addition in additions(CANONICAL, merged)]  # type: ignore[arg-type]


def test_only_units_the_canonical_lacks_are_added() -> None:
    merged = note("m.md", "We upgrade postgres on Sundays: after a BACKUP!\n* Check  the replicas\nAsk Dana before upgrading, ticket QX-7731.\n"
                          "We upgrade postgres on Sun\n")
    # Case, markers, punctuation, whitespace and line breaks do not make a line new; a cut word does.
    assert lines_added(merged) == [("m.md", ("Ask Dana before upgrading, ticket QX-7731.", "We upgrade postgres on Sun"))]


def test_new_lines_of_a_paragraph_stay_together_and_a_fence_is_never_split() -> None:
    merged = note("m.md", "We upgrade Postgres on Sundays.\nAsk Dana before upgrading,\nticket QX-7731.\n\n"
                          "```sh\ncheck the replicas\npg_upgrade --check\n```\n")
    # The known sentence is not repeated; the fence comes whole although one of its lines is known.
    assert lines_added(merged) == [("m.md", ("Ask Dana before upgrading,", "ticket QX-7731.", "",
                                             "```sh\ncheck the replicas\npg_upgrade --check\n```"))]


def test_a_list_item_is_new_or_known_on_its_own() -> None:
    merged = note("m.md", "- check the replicas\n- pause the nightly import\n")
    assert lines_added(merged) == [("m.md", ("- pause the nightly import",))]


def test_a_unit_two_merged_notes_hold_is_added_once() -> None:
    first, second = note("a.md", "Ticket QX-7731.\n"), note("b.md", "ticket qx-7731.\nAnd call Rui.\n")
    assert lines_added(first, second) == [("a.md", ("Ticket QX-7731.",)), ("b.md", ("And call Rui.",))]


def test_rules_lone_markers_and_the_notes_own_title_heading_are_left_out() -> None:
    # The note is named by its file name (adr/0020); a heading repeating it is left out.
    merged = note("Postgres notes.md", "# Postgres notes\n\n---\n-\n> \nnew fact\n")
    assert lines_added(merged) == [("Postgres notes.md", ("new fact",))]


def test_a_level_one_heading_becomes_level_two_so_the_canonicals_title_stays() -> None:
    merged = note("m.md", "# Other topic\nnew fact\n", title="Postgres notes")
    assert lines_added(merged) == [("m.md", ("## Other topic", "new fact"))]


def test_a_merged_note_with_nothing_new_adds_no_section() -> None:
    assert lines_added(note("m.md", "We upgrade Postgres on Sundays, after a backup.\n")) == []


def test_the_appended_text_names_each_source_under_a_small_heading() -> None:
    merged = note("ops/m.md", "Ticket QX-7731.\n", title="Postgres upgrade")
    assert appended_text(additions(CANONICAL, [merged])) == '### Merged from "Postgres upgrade" (ops/m.md)\n\nTicket QX-7731.'


def test_normalize_drops_markers_and_folds_case_and_whitespace() -> None:
    assert normalize("- [x] Done,  it\n> 1. Quoted: QX-7731") == "done it quoted qx 7731"


def test_a_merge_adds_aliases_as_obsidian_reads_them_under_the_key_the_canonical_holds_them_in() -> None:
    """Was: `aliases: Tommy, T-Bone` was carried as the one alias "Tommy, T-Bone", and a canonical's
    `alias: Kiki` got an `aliases` key beside it (Obsidian reads the first, so one list was hidden)."""
    from vaultmem.merging import merged_frontmatter

    canonical = parse_note("c.md", b"---\ntitle: Drums\nalias: Kiki\n---\nWe rehearse on Fridays.\n")
    merged = parse_note("m.md", b"---\ntitle: Percussion\naliases: Tommy, T-Bone\n---\nRehearsal is on Friday.\n")
    change = merged_frontmatter(canonical, [merged])
    assert change.set_values["alias"] == ["Kiki", "Percussion", "Tommy", "T-Bone"]
    assert "aliases" not in change.set_values
    listed = parse_note("c.md", b"---\ntitle: Drums\naliases: Tommy, T-Bone\n---\nWe rehearse on Fridays.\n")
    assert merged_frontmatter(listed, [merged]).set_values["aliases"] == ["Tommy", "T-Bone", "Percussion"]


def test_a_change_to_the_singular_alias_key_is_listed_where_aliases_is() -> None:
    # Was listed last, after merged_from: CHANGE_ORDER named `aliases` alone.
    from vaultmem.merging import kept_changes, merged_frontmatter

    merged = parse_note("m.md", b"---\nid: 01M1GJZ1X05GQAPENECFSECZP1\ntitle: Percussion\ntags: [music]\n---\nRehearsal is on Friday.\n")
    for key in ("alias", "Aliases"):
        canonical = parse_note("c.md", f"---\ntitle: Drums\n{key}: Kiki\n---\nWe rehearse on Fridays.\n".encode())
        said = kept_changes(canonical, merged_frontmatter(canonical, [merged]))
        assert [change.key for change in said] == ["tags", key, "merged_from"]


def test_a_title_made_from_the_text_is_not_an_alias_but_a_chosen_one_is() -> None:
    from vaultmem.merging import merged_frontmatter
    from vaultmem.writer import default_title, new_ulid

    canonical = parse_note("c.md", b"---\ntitle: Drums\n---\nWe rehearse on Fridays at the old mill, from 7 to 10.\n")
    body = "We rehearse on Friday evenings at the old mill, bring the snare and spare sticks; the key is under the mat.\n"
    generated = f"---\nid: {new_ulid()}\ntitle: {default_title(body)}\naliases: [mill]\n---\n{body}"
    assert merged_frontmatter(canonical, [parse_note("m.md", generated.encode())]).set_values["aliases"] == ["mill"]
    # A heading is a title someone wrote, and so is a title that is not the text's first line.
    for chosen in (f"---\nid: {new_ulid()}\ntitle: Rehearsals\n---\n# Rehearsals\n{body}",
                   f"---\nid: {new_ulid()}\ntitle: Rehearsals\n---\n{body}"):
        assert merged_frontmatter(canonical, [parse_note("m.md", chosen.encode())]).set_values["aliases"] == ["Rehearsals"]


# ------------------------------------------------------------------ said in other words (a trial)

COFFEE_KEPT = parse_note("memories/coffee.md", b"---\ntitle: 'Coffee: flat white with oat milk'\n---\n"
                                                b"Maya takes her coffee as a flat white with oat milk, no sugar.\n")


def test_a_sentence_the_kept_note_says_in_other_words_is_left_out_and_listed_with_the_sentence_that_says_it() -> None:
    # A trial: "…oat milk and no sugar." was appended under "…oat milk, no sugar.": the kept note said it twice.
    merged = note("memories/maya-takes.md", "Maya takes her coffee as a flat white with oat milk and no sugar.\n")
    (found,) = merge_lines(COFFEE_KEPT, [merged])  # type: ignore[list-item]
    assert found.lines == ()
    assert [said.as_dict() for said in found.said_already] == [{
        "text": "Maya takes her coffee as a flat white with oat milk and no sugar.",
        "said_as": ["Maya takes her coffee as a flat white with oat milk, no sugar."]}]
    assert additions(COFFEE_KEPT, [merged]) == []  # type: ignore[list-item]


def test_a_hard_wrapped_paragraph_is_said_already_only_when_every_sentence_of_it_is() -> None:
    kept = parse_note("k.md", b"Maya's sister Lena lives in Berlin; her birthday is July 2. She runs.\n")
    said = note("a.md", "Maya's sister Lena lives in Berlin, and\nher birthday is July 2.\n")
    half = note("b.md", "Maya's sister Lena lives in Berlin, and her birthday is July 2.\nShe swims on Sundays.\n")
    first, second = merge_lines(kept, [said, half])  # type: ignore[list-item]
    assert (first.lines, len(first.said_already)) == ((), 1)
    assert second.lines == ("Maya's sister Lena lives in Berlin, and her birthday is July 2.", "She swims on Sundays.")


def test_a_sentence_with_one_word_more_or_less_is_a_fact_of_its_own_and_is_appended() -> None:
    # Measured (adr/0010): one word turns a fact around, and a kept sentence holding all of another's
    # words and more may say something else — the embedder's cosine does not see it (0.97 for 4pm / 5pm).
    pairs = [("Maya takes sugar in her coffee.", "Maya takes no sugar in her coffee."),
             ("Key handover for the new Portland apartment at 5pm.", "Key handover for the new Portland apartment at 4pm."),
             ("Staging Postgres listens on port 6543 (moved from 5433 on Dec 1).", "Staging Postgres listens on port 5433."),
             ("Maya's sister likes Tom.", "Maya likes Tom.")]
    for kept, other in pairs:
        (found,) = merge_lines(parse_note("k.md", kept.encode()), [note("m.md", other + "\n")])  # type: ignore[list-item]
        assert (found.lines, found.said_already) == ((other,), ()), (kept, other)


def test_a_sentence_with_the_same_words_in_another_order_is_a_fact_of_its_own_and_is_appended() -> None:
    # The same words, another fact: who owes whom, which day moved where, a day's month and day
    # swapped, a temperature below zero. Compared as sets of words, each was "said already", left
    # out of the kept note, and the newer fact was only in the archive.
    pairs = [("Alice owes Bob 50 euros.", "Bob owes Alice 50 euros."),
             ("The review moved from Monday to Tuesday.", "The review moved from Tuesday to Monday."),
             ("The visa deadline is 2027-01-02.", "The visa deadline is 2027-02-01."),
             ("The standup runs 9:30 to 10:00.", "The standup runs 10:00 to 9:30."),
             ("Maya's sister likes Tom.", "Maya likes Tom's sister."),
             ("Keep the freezer at -18 degrees.", "Keep the freezer at 18 degrees."),
             ("Keep the freezer at 18 degrees.", "Keep the freezer at \u221218 degrees.")]
    for kept, other in pairs:
        assert not says_again(kept, other), (kept, other)
        (found,) = merge_lines(parse_note("k.md", kept.encode()), [note("m.md", other + "\n")])  # type: ignore[list-item]
        assert (found.lines, found.said_already) == ((other,), ()), (kept, other)
    assert says_again("Keep the freezer at \u221218 degrees.", "Keep the freezer at -18 degrees")



def _merged_as_apply_writes(canonical_raw: bytes, *merged: object) -> object:
    """The kept note as merge_apply._prepare writes it: the merged frontmatter, then the sections."""
    from vaultmem.body_edits import append_paragraph
    from vaultmem.field_edits import edit_fields
    from vaultmem.merging import merged_frontmatter

    canonical = parse_note("c.md", canonical_raw)
    change = merged_frontmatter(canonical, list(merged))  # type: ignore[arg-type]
    edited = append_paragraph(edit_fields(canonical_raw, change.set_values, change.remove, in_properties=False),
                              appended_text(additions(canonical, list(merged))))  # type: ignore[arg-type]
    return parse_note("c.md", edited)


def test_a_kept_note_holds_each_merged_note_as_the_merge_wrote_it_and_not_one_edited_since() -> None:
    # merge_not_held decides which notes of a cut-off merge the next apply archives (adr/0010):
    # the second note repeats a line of the first, which the merge appended once, under the first.
    from vaultmem.merging import merge_not_held

    raw = b"---\nlayer: L3\nexpires_at: 2030-01-01\n---\nWe upgrade Postgres on Sundays, after a backup.\n"
    first = note("a.md", "---\nlayer: L3\nexpires_at: 2030-01-02\n---\nWe upgrade Postgres on Sundays.\n\nAsk Dana first.\n")
    second = note("b.md", "---\nlayer: L3\nexpires_at: 2030-01-01\ntags: [db]\n---\nAsk Dana first.\n\nTicket QX-7731.\n")
    said_already = note("s.md", "---\nlayer: L3\nexpires_at: 2030-01-01\n---\nWe upgrade Postgres on Sundays.\n")
    kept = _merged_as_apply_writes(raw, first, second, said_already)
    assert [merge_not_held(kept, merged) for merged in (first, second, said_already)] == [None, None, None]  # type: ignore[arg-type]

    line_added = note("a.md", "---\nlayer: L3\nexpires_at: 2030-01-02\n---\nWe upgrade Postgres on Sundays.\n\nAsk Dana first.\n\nNot on holidays.\n")
    line_taken_out = note("b.md", "---\nlayer: L3\nexpires_at: 2030-01-01\ntags: [db]\n---\nAsk Dana first.\n")
    retagged = note("b.md", "---\nlayer: L3\nexpires_at: 2030-01-01\ntags: [db, ops]\n---\nAsk Dana first.\n\nTicket QX-7731.\n")
    later = note("s.md", "---\nlayer: L3\nexpires_at: 2031-01-01\n---\nWe upgrade Postgres on Sundays.\n")
    said_more = note("s.md", "---\nlayer: L3\nexpires_at: 2030-01-01\n---\nWe upgrade Postgres on Sundays.\n\nNot on holidays.\n")
    reasons = {merged.path + str(index): str(merge_not_held(kept, merged) or "")  # type: ignore[arg-type, attr-defined]
               for index, merged in enumerate((line_added, line_taken_out, retagged, later, said_more))}
    assert all(reasons.values()), reasons
    assert "tags" in reasons["b.md2"] and "expires_at" in reasons["s.md3"] and "Not on holidays." in reasons["s.md4"]
