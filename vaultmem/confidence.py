"""Whether a search's answer may be read as an answer — the one rule (pure; adr/0004).

``Hits.confident`` (API), ``confident`` in MCP ``recall`` and the CLI's "no note matches this
well" all come from :func:`judge`; ``explain`` says its verdict in words (:attr:`Verdict.why`).
An answer is **not confident** when:

1. there is no hit;
2. no note searched holds any word of the query, none is named by it and the best hit reads at
   most :data:`NEGLIGIBLE_SCORE` (:data:`WEAK_MATCHES_WARNING`);
3. the query holds only stop words and names no note (:data:`COMMON_WORDS_WARNING`);
4. no note holds every word, none is named, and the best hit reads at most
   :data:`NEGLIGIBLE_SCORE` (:data:`LOW_CONFIDENCE_WARNING`);
5. the first hit holds at most one of the query's two or more words and the meaning side does
   not rank it first (:data:`ONE_WORD_WARNING`): a note that shares one word with a question
   and is not what the question means — kepano's "Buy wisely" essay first for "what is my
   passport number" (it says "number"), an on-call runbook for "the password for the router
   admin page" ("page"). Measured (benchmarks/PASSAGES.md §30): of 160 made-up questions
   nothing in four sets' vaults answers, 94 read confident before it, 63 with it; of the 634
   first hits of the sets' own questions that were right, one turns not confident;
6. the first hit holds less than a third of what the query's words say (:data:`FEW_WORDS_SHARE`:
   each word weighed by how rare it is in the vault, :func:`word_weight`, so that "file", "make",
   "use" where every note says them count for little and a word no note holds counts most) and
   the meaning side does not find it near (its score there below the embedder's
   ``meaning_floor``, or it did not propose it) (:data:`NOT_NEAR_WARNING`): a how-to asked of a
   personal vault — "how many lines are in this text file" → the Inbox ("lines", "file"), 0.39 —
   or a personal question asked of manuals. Measured (benchmarks/PASSAGES.md §35, with
   ``python -m benchmarks.eval_confidence``): of the 240 questions of another set asked of the
   five sets' vaults, 97 read confident before it, 51 with it; of the 623 right first hits read
   confident, 5 turn not confident (kepano 1 of 43, the conversations served as echo 4 of 337).
   An embedder with no ``meaning_floor`` (nobody measured its scale) is not judged by this rule.
7. the query is one word no note holds, asked for by its first letters alone (not its stems:
   endings.prefix_of), and the meaning side does not rank the first hit among its first
   :data:`FIRST_LETTERS_MEANING_RANK` (:data:`FIRST_LETTERS_WARNING`): "expresso" on kepano's
   vault asked ``expres*``, found the essay saying "expressed" (0.68, the meaning side's 14th)
   and read confident. Measured (benchmarks/PASSAGES.md, "A misspelt word's first letters"): of 63
   common misspellings asked of three vaults, wrong first hits read confident 20 → 13, right ones
   14 → 13; no question of the five sets is one such word.
   Two words or more so held are rule 5's: a note holding both forms is not a chance ("annemin
   ilacı" → "annemi … ilacını").
8. no note holds every word of two or more, the first hit holds at most one of them and less
   than half of what they say (weighed as in rule 6), the meaning side finds it only just near
   (below :data:`JUST_NEAR` times the embedder's ``meaning_floor``) and the next hit scores at least
   :data:`ALIKE_SHARE` of it (:data:`ALIKE_WARNING`): a note that shares one word with the question
   as other notes do, and stands out neither by its words nor by its meaning — "how terse should
   replies be" → "Lars replies to Slack messages …" (0.31; the next, another note saying "replies",
   0.27) on a vault whose preference says "Keep answers short" (s42). Measured (benchmarks/PASSAGES.md,
   "A first hit that does not stand out"): on the sets' own questions and the made-up, held-out and
   foreign ones, see there.

Otherwise it is confident. Said, never acted on: the hits and their order stay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# A calibrated score at most this is what a question nothing answers reads (adr/0004: "questions
# nothing answers stay ≤ 0.05"; a nonsense query on the sample vault 0.002–0.004).
NEGLIGIBLE_SCORE = 0.05
WEAK_MATCHES_WARNING = ("none of the notes searched holds any of these words, and none stands out in meaning: the hits "
                        "below are the nearest of weak matches")
# What an answer says when its best hit scores NEGLIGIBLE_SCORE or less (and no note is named as
# asked): measured (adr/0004, "A best score that says no note answers") on the five sets' own
# questions and 24 made-up questions each that nothing there answers.
LOW_CONFIDENCE_WARNING = "no note matches this well (best score {best:.2f}): the hits below are the nearest, not answers"
# What an answer to a query of stop words alone says ("what is it", "who are you"), unless it names
# a note: the notes holding those words most read as confident as an answer (kepano: "what about
# them" 0.70, the longest essay first), yet nothing was asked for. Said, never acted on.
COMMON_WORDS_WARNING = ("the query holds only common words ({words}), which name nothing to look for: the hits below "
                        "are notes that hold them, not answers")
# What an answer says when its first hit shares one word with the query and the meaning side
# ranks another note first (rule 5 above).
ONE_WORD_WARNING = ("no note matches this well: the first hit holds {held} of the query's {count} words and is not the "
                    "nearest in meaning, so it may share a word without answering: the hits below are the nearest, "
                    "not answers")
# Rule 7: the meaning side's ranks within which a first hit found by first letters alone is backed
# (an answer's length): "calender" → the note saying "calendar" (4th), "dentst" → "dentist" (6th)
# stay confident; "expresso" → "expressed" (14th), "immediatly" → "immediately" (45th) do not.
FIRST_LETTERS_MEANING_RANK = 10
# What an answer says when its one word is held by no note, only its first letters are (rule 7).
FIRST_LETTERS_WARNING = ("no note holds {word!r}: the first hit holds a word that begins as it does ({asked}), which may "
                         "be another word (a misspelling?), and is far from it in meaning: the hits below are the "
                         "nearest, not answers")

# Rule 6: the share of the query's weighed words (word_weight) the first hit must hold to be
# read as an answer when the meaning side does not find it near. A third: a right first hit that
# holds its question's telling words and misses its common ones ("what time is the Harbor standup
# now": holds "Harbor", "standup", "time") holds more; a how-to sharing "file" and "lines" with a
# personal note holds less (PASSAGES.md §35: 1/4 and 1/2 measured beside it).
FEW_WORDS_SHARE = 1 / 3
NOT_NEAR_WARNING = ("no note matches this well: the first hit holds little of what the query asks ({share:.0%} of its "
                    "words, weighed by how rare each is in the vault) and is not near it in meaning: the hits below are "
                    "the nearest, not answers")


# Rule 8: how near the meaning side must find a first hit holding one word, as a multiple of the
# embedder's meaning_floor, for it to stand on its meaning (WordLlama: 0.2 → 0.35); and the share of
# the first hit's score the next hit reaching it says the first does not stand out.
JUST_NEAR = 1.75
ALIKE_SHARE = 0.5
ALIKE_WARNING = ("no note matches this well: the first hit holds {held} of the query's {count} words, is only just near it "
                 "in meaning and the next hit scores {ratio:.0%} of it, so it may share a word with other notes without "
                 "answering: the hits below are the nearest, not answers")


def word_weight(rows_holding: int, rows: int) -> float:
    """How much a query's word says in a vault of ``rows`` passages, ``rows_holding`` of which
    hold it: BM25's inverse document frequency (ln((N + 1) / (n + 0.5)), never below 0). A word
    every passage holds says little of which note is meant; one no passage holds says most — the
    vault never speaks of it, so a note holding the query's other words does not answer it."""
    return max(0.0, math.log((rows + 1) / (rows_holding + 0.5)))


@dataclass(frozen=True)
class Evidence:
    """What the rule looks at, of one answer (search.Searcher.judge_answer gathers it)."""

    best_score: float | None  # the first hit's score; None: no hit
    words: tuple[str, ...]  # the query's words as the text side asks for them
    any_word_held: bool  # some note searched holds a word of the query (the text side proposed one)
    every_word: bool  # some note searched holds every word (or a form of it)
    named: bool  # a note is named as asked (ranking.name_bonus)
    common_only: bool  # every word is a stop word
    first_by_meaning: bool  # the meaning side ranks the first hit first
    first_holds: tuple[str, ...] | None = None  # the words the first hit holds; None: not looked up (:func:`asks_first_holds`)
    first_similarity: float | None = None  # the meaning side's score of the first hit; None: it did not propose it
    meaning_floor: float | None = None  # the embedder's (Embedder.meaning_floor); None: rule 6 does not apply
    word_weights: tuple[float, ...] | None = None  # each of ``words``' word_weight; None: not looked up (:func:`asks_word_weights`)
    by_first_letters: tuple[str, ...] = ()  # the words no note holds whole or by their stems, held by their first letters
    first_meaning_rank: int | None = None  # the meaning side's rank of the first hit; None: not among its candidates
    asked: tuple[tuple[str, ...], ...] = ()  # each word's full-text terms as the text side asked for it (search.Candidates.asked)
    next_score: float | None = None  # the score of the hit after the first; None: no other hit


@dataclass(frozen=True)
class Verdict:
    """Whether the answer may be read as an answer, why in words, and what it warns when not."""

    confident: bool
    why: str
    warning: str | None = None


def asks_first_holds(evidence: Evidence) -> bool:
    """Whether rule 5 may decide, so the first hit's words are worth looking up (one full-text
    look-up a word, of that note's passages): only then is :attr:`Evidence.first_holds` needed."""
    return (evidence.best_score is not None and not evidence.named and len(evidence.words) >= 2
            and not evidence.first_by_meaning and not evidence.common_only)


def asks_word_weights(evidence: Evidence) -> bool:
    """Whether rule 6 may decide, so the query's words are worth weighing (one full-text count a
    word) and the first hit's words worth looking up: only when the meaning side does not find
    the first hit near."""
    if evidence.best_score is None or evidence.named or evidence.common_only or evidence.meaning_floor is None:
        return False
    return evidence.first_similarity is None or evidence.first_similarity < evidence.meaning_floor


def asks_standing_out(evidence: Evidence) -> bool:
    """Whether rule 8 may decide, so the first hit's words are worth looking up and the query's
    weighing: the first hit only just near in meaning, and the next one close behind it."""
    best, following, floor = evidence.best_score, evidence.next_score, evidence.meaning_floor
    if best is None or following is None or floor is None or evidence.named or evidence.common_only:
        return False
    if len(evidence.words) < 2 or evidence.every_word or best <= 0.0:
        return False
    return (evidence.first_similarity is not None and evidence.first_similarity < floor * JUST_NEAR
            and following >= best * ALIKE_SHARE)


def held_share(evidence: Evidence) -> float | None:
    """The share of the query's weighed words the first hit holds (rule 6); None: not looked up."""
    weights, held = evidence.word_weights, evidence.first_holds
    if weights is None or held is None:
        return None
    total = sum(weights)
    if total <= 0.0:  # every word in every passage: none says more than another, count them
        return len(held) / len(evidence.words) if evidence.words else 1.0
    return sum(weight for word, weight in zip(evidence.words, weights, strict=True) if word in held) / total


def judge(evidence: Evidence) -> Verdict:
    """The verdict of the rule above on one answer."""
    best = evidence.best_score
    if best is None:
        return Verdict(False, "not confident: there is no hit")
    if not evidence.any_word_held and not evidence.named and best <= NEGLIGIBLE_SCORE:
        return Verdict(False, f"not confident: no note searched holds a word of the query and the best score is {best:.2f} "
                              f"(at most {NEGLIGIBLE_SCORE})", WEAK_MATCHES_WARNING)
    if evidence.common_only and not evidence.named:
        return Verdict(False, "not confident: the query holds only common words, which name nothing to look for",
                       COMMON_WORDS_WARNING.format(words=", ".join(evidence.words)))
    if not evidence.every_word and not evidence.named and best <= NEGLIGIBLE_SCORE:
        return Verdict(False, f"not confident: no note holds every word of the query and the best score is {best:.2f} "
                              f"(at most {NEGLIGIBLE_SCORE})", LOW_CONFIDENCE_WARNING.format(best=best))
    if _first_letters_alone(evidence):
        word = evidence.words[0]
        asked = ", ".join(evidence.asked[0]).replace('"', "") if evidence.asked else word
        return Verdict(False, f"not confident: no note holds {word!r}, only its first letters ({asked}), and the meaning "
                              f"side does not rank the first hit among its first {FIRST_LETTERS_MEANING_RANK}",
                       FIRST_LETTERS_WARNING.format(word=word, asked=asked))
    held = evidence.first_holds
    if held is not None and asks_first_holds(evidence) and len(held) <= 1:
        count = len(evidence.words)
        shown = f"one ({held[0]})" if held else "none"
        return Verdict(False, f"not confident: the first hit holds {shown} of the query's {count} words "
                              f"({', '.join(evidence.words)}) and the meaning side ranks another note first",
                       ONE_WORD_WARNING.format(held=shown, count=count))
    share = held_share(evidence)
    if share is not None and asks_word_weights(evidence) and share < FEW_WORDS_SHARE:
        return Verdict(False, f"not confident: the first hit holds {share:.0%} of what the query's words say (weighed by "
                              f"how rare each is in the vault; {', '.join(held) if held else 'none'} of "
                              f"{', '.join(evidence.words)}) and {_not_near(evidence)}",
                       NOT_NEAR_WARNING.format(share=share))
    if share is not None and held is not None and asks_standing_out(evidence) and len(held) <= 1 and share < 0.5:
        count, following = len(evidence.words), evidence.next_score or 0.0
        shown = f"one ({held[0]})" if held else "none"
        return Verdict(False, f"not confident: the first hit holds {shown} of the query's {count} words ({share:.0%} of what "
                              f"they say), the meaning side scores it {evidence.first_similarity:.2f} (below "
                              f"{JUST_NEAR} × {evidence.meaning_floor}) and the next hit scores {following:.2f} of its "
                              f"{best:.2f}: it does not stand out", ALIKE_WARNING.format(held=shown, count=count, ratio=following / best))
    return Verdict(True, f"confident: {_confident_because(evidence, best)}")


def _not_near(evidence: Evidence) -> str:
    if evidence.first_similarity is None:
        return "the meaning side did not propose it"
    return f"the meaning side scores it {evidence.first_similarity:.2f}, below the {evidence.meaning_floor:.2f} unrelated notes can reach"


def _first_letters_alone(evidence: Evidence) -> bool:
    """Rule 7: a one-word query held only by its first letters, its first hit far from it in meaning."""
    rank = evidence.first_meaning_rank
    return (len(evidence.words) == 1 and evidence.words[0] in evidence.by_first_letters and not evidence.named
            and not evidence.first_by_meaning and (rank is None or rank > FIRST_LETTERS_MEANING_RANK))


def _confident_because(evidence: Evidence, best: float) -> str:
    if evidence.named:
        return "a note is named as asked"
    reasons = [f"the best score is {best:.2f}" + ("" if best > NEGLIGIBLE_SCORE else f" (at most {NEGLIGIBLE_SCORE})")]
    if evidence.every_word:
        reasons.append("a note holds every word of the query")
    if evidence.first_by_meaning:
        reasons.append("the first hit is the nearest in meaning")
    elif evidence.first_holds is not None and len(evidence.first_holds) > 1:
        reasons.append(f"the first hit holds {len(evidence.first_holds)} of the query's {len(evidence.words)} words")
    return ", ".join(reasons)
