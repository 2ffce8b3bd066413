"""The question form a query opens with, left out of what the meaning side embeds (pure).

"how do I write a table" asks about writing a table; "how do I", "is there a way to", "what is
the best way to" only say that it is a question. The meaning side's vector is the mean of the
query's token vectors (WordLlama), so those four or five tokens weigh as much as the two that
name the topic, and they pull the query toward every page of a manual that asks or answers a
"how do I" (a FAQ, a troubleshooting page) instead of the page about tables. The keyword side
already leaves them out as stop words; this does the same for the query's vector. Only the form
at the very start is taken off, once, and only when words are left after it: a question later in
the text, or a query that is nothing but the form ("how do I"), is embedded as written.

Measured on the seven evaluation sets (benchmarks/PASSAGES.md §52, adr/0004 addendum): no set
falls; daily's "how do I get online at my parents' house" 6 → 4, help's meaning side alone
hit@1 .482 → .500. Leaving out every stop word instead had cost the docs set's recall@10 (§11).
"""

from __future__ import annotations

import re

# English question forms whose words say "this is a question", not what it is about.
_OPENING_FORM = re.compile(
    r"^\s*(?:how\s+(?:do|can|could|would|should|shall)\s+(?:i|we|you)"
    r"|how\s+to"
    r"|is\s+there\s+a\s+way\s+to"
    r"|what(?:'s|’s|\s+is)\s+the\s+(?:best\s+)?way\s+to"
    r"|can\s+i|do\s+i\s+need\s+to|i\s+want\s+to|i\s+need\s+to)\s+",
    re.IGNORECASE,
)


def without_question_form(query: str) -> str:
    """``query`` without the question form it opens with ("how do I write a table" → "write a
    table"); the query as given when it opens with none or is nothing but one."""
    rest = _OPENING_FORM.sub("", query, count=1)
    return rest if rest.strip() and rest != query else query
