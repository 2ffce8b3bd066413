"""Sentences said again in other words, or a fact that changed: which measure tells them apart.

A merge leaves out a merged note's paragraph that the kept note already says (merging.says_again, adr/0010's
last addendum). The pairs below are (merged sentence, kept sentence, same fact?, where it comes from):
rewordings an agent or a person wrote, and facts of one topic that differ or changed, where leaving
the sentence out would drop a fact from the kept note. For each measure: the rewordings it catches and
the different facts it takes for rewordings.

    python -m benchmarks.said_again
"""

from __future__ import annotations

import re

from vaultmem.embedders import WordLlamaEmbedder
from vaultmem.merging import FILLERS, says_again

PAIRS = [  # (merged sentence, kept sentence, same fact?, source)
 ("Maya takes her coffee as a flat white with oat milk, no sugar.", "Maya takes her coffee as a flat white with oat milk and no sugar.", True, "agent trial"),
 ("Maya takes her coffee as a flat white with oat milk and no sugar.", "Maya takes her coffee as a flat white with oat milk, no sugar.", True, "agent trial"),
 ("Maya's partner Jonas is an architect at a small firm.", "Maya's partner is Jonas; he is an achitect at a small firm in the city.", True, "agent trial (typo)"),
 ("Maya's partner is Jonas; he is an achitect at a small firm in the city.", "Maya's partner Jonas is an architect at a small firm.", True, "agent trial (adds 'in the city')"),
 ("The Harbor daily standup moves to 9:45 Lisbon time, starting Tuesday 1 December.", "Confirmed: the Harbor daily standup moves to 9:45 Lisbon time (10:45 in Berlin), starting Tuesday 1 December.", True, "sample standup"),
 ("The team agreed on it today, so the Berlin people are not stuck between two meetings.", "The whole team agreed to move the standup, so the Berlin people are not stuck between two meetings any more, and the new standup time is already in everyone's calendar.", True, "sample standup"),
 ("Maya prefers oat milk in her coffee, never dairy.", "Maya takes oat milk in her coffee and never dairy.", True, "sample trio"),
 ("Oat milk, not cow milk: that is how Maya takes her coffee, every time.", "Maya prefers oat milk in her coffee, never dairy.", True, "sample trio"),
 ("If a place only has cow's milk, she drinks the coffee black.", "If the café has no oat milk, get her coffee black rather than with cow's milk.", True, "sample trio"),
 ("If a café has only regular milk, she would rather have her coffee black than with dairy.", "If the café has no oat milk, get her coffee black rather than with cow's milk.", True, "sample trio"),
 ("Dairy in coffee is a no for her.", "Dairy milk in her coffee is simply not an option for her.", True, "sample trio"),
 ("Dentist on Dec 9 at 14:30", "dentist appointment: 9 December, 2:30pm", True, "adr 0010 review"),
 ("Sam is allergic to peanuts.", "Sam is allergic to peanuts", True, "household trial (L2/L3)"),
 ("The boiler was serviced today.", "The boiler was serviced today", True, "household trial"),
 ("Maya's sister Lena lives in Berlin; her birthday is July 2.", "Lena, Maya's sister, lives in Berlin and her birthday is July 2.", True, "reworded by hand"),
 ("Maya is allergic to penicillin.", "Maya has a penicillin allergy.", True, "reworded by hand"),
 # different or changed facts in one topic
 ("The plumber comes on Friday.", "The plumber comes on Tuesday at ten", False, "agent trial (changed)"),
 ("Maya lives in San Francisco, in the Mission district.", "She no longer lives in San Francisco.", False, "agent trial (moved)"),
 ("Maya lives in San Francisco, in the Mission district.", "Maya moved to Portland, Oregon on December 1 (Alberta Arts district).", False, "agent trial"),
 ("Maya works at Lumen Labs as a senior product designer.", "Maya works at Harbor Studio as design lead, since December 1.", False, "agent trial"),
 ("Maya's locker is number 14 at the gym.", "Maya's locker is number 27 at the gym.", False, "s28 trial"),
 ("The dentist appointment is on the 14th at 10:00.", "The dentist appointment is on the 21st at 11:30.", False, "s28 trial"),
 ("Maya lives in Porto.", "Maya lives in Lisbon.", False, "adr 0010"),
 ("Maya takes sugar in her coffee.", "Maya takes no sugar in her coffee.", False, "negation"),
 ("Maya takes no sugar in her coffee.", "Maya takes sugar in her coffee.", False, "negation"),
 ("Soy milk in coffee is a no for taste; almond milk is acceptable if there is no oat milk.", "Maya prefers oat milk in her coffee, never dairy.", False, "sample trio"),
 ("Cheese and butter in small amounts are fine — it is milk itself she avoids.", "Dairy milk in her coffee is simply not an option for her.", False, "sample trio"),
 ("At home: Oatly Barista, kept in the fridge door; buy two cartons at a time.", "At home there is always a carton of oat milk in the fridge for the morning coffee, and guests who want dairy milk in their coffee bring their own.", False, "sample trio"),
 ("Sam is allergic to peanuts.", "Sam is allergic to penicillin.", False, "household"),
 ("Single shot after 15:00.", "Single shot before 15:00.", False, "constructed"),
 ("Maya's boss is Priya Natarajan, head of design at Lumen Labs.", "Maya's boss is Priya Raman, head of design at Harbor.", False, "agent/sample"),
 ("Jonas's parents visit for the weekend of December 5-6; they stay in the guest room.", "Jonas's parents visit for the weekend of December 12-13; they stay in a hotel.", False, "constructed changed"),
 ("Maya prefers meetings in the morning, before 11.", "Maya prefers meetings in the afternoon, after 2.", False, "constructed changed"),
 ("Key handover for the new Portland apartment at 4pm.", "Key handover for the new Portland apartment at 5pm.", False, "constructed changed"),
 ("The team agreed on it today.", "The team did not agree on it today.", False, "negation"),
 ("Staging Postgres listens on port 5433", "Staging Postgres listens on port 6543 (moved from 5433 on Dec 1)", False, "sync trial (revised)"),
 ("Maya lives in Porto.", "Maya lives in Porto Alegre.", False, "constructed"),
 ("The standup is at 9.", "The standup is at 9:30.", False, "constructed"),
 ("Maya likes Tom.", "Maya's sister likes Tom.", False, "constructed"),
 # the same words in another order (review of s32)
 ("Bob owes Alice 50 euros.", "Alice owes Bob 50 euros.", False, "constructed, order"),
 ("The review moved from Tuesday to Monday.", "The review moved from Monday to Tuesday.", False, "constructed, order"),
 ("The visa deadline is 2027-02-01.", "The visa deadline is 2027-01-02.", False, "constructed, order"),
 ("Maya likes Tom's sister.", "Maya's sister likes Tom.", False, "constructed, order"),
 ("Keep the freezer at 18 degrees.", "Keep the freezer at -18 degrees.", False, "constructed, sign"),
 # A longer sentence: one changed word moves a mean of token vectors less.
 ("Maya flies to Kyoto on January 20, 2027, from SFO to KIX on the evening flight, and Jonas drives her to the airport.",
  "Maya flies to Kyoto on January 27, 2027, from SFO to KIX on the evening flight, and Jonas drives her to the airport.", False, "agent trial, date changed"),
 ("Right now Maya is working from a café with slow wifi, so keep answers short and do not send large attachments.",
  "Right now Maya is working from a café with fast wifi, so keep answers short and do not send large attachments.", False, "agent trial, one word changed"),
]
_WORD = re.compile(r"\w+")


def words(sentence: str) -> set[str]:
    return {word.casefold() for word in _WORD.findall(sentence)}


def main() -> None:
    embedder = WordLlamaEmbedder()
    cosines = [float(vectors[0] @ vectors[1]) for vectors in (embedder.embed([merged, kept]) for merged, kept, _, _ in PAIRS)]
    measures = {
        "cosine >= 0.98": [cosine >= 0.98 for cosine in cosines],
        "every word in the kept sentence": [words(merged) <= words(kept) for merged, kept, _, _ in PAIRS],
        "the same words in any order (until s32 review)": [words(merged) - FILLERS == words(kept) - FILLERS for merged, kept, _, _ in PAIRS],
        "the same words in order (merging.says_again)": [says_again(kept, merged) for merged, kept, _, _ in PAIRS],
    }
    same = [pair[2] for pair in PAIRS]
    print(f"{sum(same)} rewordings, {len(same) - sum(same)} different facts")
    print(f"closest different facts by cosine: {sorted((c for c, s in zip(cosines, same, strict=True) if not s), reverse=True)[:3]}")
    for name, said in measures.items():
        caught = sum(s and d for s, d in zip(said, same, strict=True))
        wrong = [pair[0] for s, d, pair in zip(said, same, PAIRS, strict=True) if s and not d]
        print(f"{name}: {caught} rewordings caught, {len(wrong)} different facts taken for one {wrong}")


if __name__ == "__main__":
    main()
