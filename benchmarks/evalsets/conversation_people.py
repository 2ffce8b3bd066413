"""The people of the generated conversations: five pairs of friends, each with a life.

Plain data, no logic (``conversations.py`` does the sampling). A field a thread needs
(``kid``, ``partner``) is left out for people who do not have one, and threads that
need it are never given to them.
"""

from __future__ import annotations

from typing import Any

# she/he: the pronouns questions use when they speak about the person.
_SHE = {"they": "she", "them": "her", "their": "her"}
_HE = {"they": "he", "them": "him", "their": "his"}

PEOPLE: dict[str, dict[str, Any]] = {
    "Ana": {
        **_SHE, "partner": "Luis", "kid": "Tomás", "kid_they": "he", "kid_their": "his",
        "sibling": "Marta", "sibling_rel": "sister", "parent": "Helena", "parent_rel": "mum",
        "parent_they": "she", "city": "Porto", "job": "product designer", "company": "Lumen Health",
        "colleague": "Priyanka", "boss": "Derek",
        "project": "the redesign of the patient check-in app", "project_short": "check-in app redesign",
        "project_push": "Derek promised the hospital group a demo of the new check-in flow",
        "colleague_issue": "keeps presenting my wireframes in the leadership review as if they were hers",
        "project_done": "The check-in app went live at the first two clinics on Monday and the waiting room queue was half as long by lunchtime.",
    },
    "Ben": {
        **_HE, "partner": "Chloe", "sibling": "Sam", "sibling_rel": "brother", "parent": "Graham",
        "parent_rel": "dad", "parent_they": "he", "city": "Leeds", "job": "chemistry teacher",
        "company": "Hillside Academy", "colleague": "Femi", "boss": "Mrs Doyle",
        "project": "the new practical exam for the year elevens", "project_short": "practical exam",
        "project_push": "Mrs Doyle wants the whole practical exam rewritten before the inspectors visit",
        "colleague_issue": "books the good lab every single week without asking anyone else",
        "project_done": "The year elevens sat the new practical on Thursday and not a single test tube was broken, which is a school record.",
    },
    "Grace": {
        **_SHE, "partner": "Daniel", "kid": "Lily", "kid_they": "she", "kid_their": "her",
        "sibling": "Joy", "sibling_rel": "sister", "parent": "Min-ji", "parent_rel": "mom",
        "parent_they": "she", "city": "Seattle", "job": "emergency room nurse", "company": "St. Mary's",
        "colleague": "Tasha", "boss": "Maureen",
        "project": "training the new grads on the triage protocol", "project_short": "triage training",
        "project_push": "Maureen moved the new graduates' first solo shifts two weeks earlier",
        "colleague_issue": "swaps out of every night shift and somehow I always end up covering",
        "project_done": "All six new grads passed their triage sign-off this week, even the one who fainted at his first blood draw.",
    },
    "Marcus": {
        **_HE, "partner": "Priya", "sibling": "Dre", "sibling_rel": "brother", "parent": "Loretta",
        "parent_rel": "mom", "parent_they": "she", "city": "Atlanta", "job": "sous-chef",
        "company": "Olive & Ash", "colleague": "Luca", "boss": "Chef Renata",
        "project": "the new autumn tasting menu", "project_short": "tasting menu",
        "project_push": "Chef Renata wants seven courses ready for the critics' night",
        "colleague_issue": "leaves his station a disaster at close and the morning crew blames me",
        "project_done": "The tasting menu launched on Friday, we did ninety covers and the smoked duck course sold out by nine.",
    },
    "Sofia": {
        **_SHE, "partner": "Erik", "sibling": "Johan", "sibling_rel": "brother", "parent": "Ingrid",
        "parent_rel": "mum", "parent_they": "she", "city": "Gothenburg", "job": "data analyst",
        "company": "Nordvik Freight", "colleague": "Amir", "boss": "Karin",
        "project": "the dashboard that predicts late container ships", "project_short": "delay dashboard",
        "project_push": "Karin promised the port authority a working forecast by the end of the quarter",
        "colleague_issue": "rewrites my SQL queries without telling me and then they break the reports",
        "project_done": "The delay dashboard is live and it flagged two late ships before the captains even radioed in.",
    },
    "Omar": {
        **_HE, "partner": "Leila", "kid": "Yasmin", "kid_they": "she", "kid_their": "her",
        "sibling": "Rana", "sibling_rel": "sister", "parent": "Samir", "parent_rel": "dad",
        "parent_they": "he", "city": "Toronto", "job": "civil engineer", "company": "Brightline Structures",
        "colleague": "Kevin", "boss": "Patricia",
        "project": "the pedestrian bridge over the rail yard", "project_short": "pedestrian bridge",
        "project_push": "the city council wants the bridge open before the marathon in the autumn",
        "colleague_issue": "signs off on drawings he hasn't actually checked, and I find the mistakes at the last minute",
        "project_done": "They lifted the last steel span of the bridge into place overnight and it fit within two millimetres.",
    },
    "Hannah": {
        **_SHE, "sibling": "Miriam", "sibling_rel": "sister", "parent": "Ruth", "parent_rel": "mom",
        "parent_they": "she", "city": "Chicago", "job": "freelance illustrator", "company": "Fernhill Press",
        "colleague": "Jonah", "boss": "Claire",
        "project": "the illustrations for a children's book about a lighthouse keeper", "project_short": "lighthouse book",
        "project_push": "Claire at Fernhill Press wants all twenty-four spreads a month early for the book fair",
        "colleague_issue": "plays drum and bass all day in the studio we share and says headphones hurt his ears",
        "project_done": "The lighthouse book went to the printer yesterday and Claire sent me a photo of the proof with the cover glowing.",
    },
    "Raj": {
        **_HE, "partner": "Sameer", "sibling": "Anjali", "sibling_rel": "sister", "parent": "Meena",
        "parent_rel": "mom", "parent_they": "she", "city": "Austin", "job": "software engineer",
        "company": "Tessellate", "colleague": "Megan", "boss": "Victor",
        "project": "moving the payments service off the old mainframe", "project_short": "payments migration",
        "project_push": "Victor told the board the payments move would be finished before the holiday freeze",
        "colleague_issue": "approves every pull request in thirty seconds without reading it, so the bugs land on my pager",
        "project_done": "We switched the payments traffic over at two in the morning on Sunday and not one transaction was dropped.",
    },
    "Lucy": {
        **_SHE, "partner": "Fergus", "kid": "Aoife", "kid_they": "she", "kid_their": "her",
        "sibling": "Declan", "sibling_rel": "brother", "parent": "Bridget", "parent_rel": "mam",
        "parent_they": "she", "city": "Galway", "job": "pharmacist", "company": "Brennan's Pharmacy",
        "colleague": "Niamh", "boss": "Tom Brennan",
        "project": "the flu vaccine clinic we run in the back room", "project_short": "vaccine clinic",
        "project_push": "Tom Brennan signed us up to vaccinate the whole staff of the hospital laundry in one week",
        "colleague_issue": "never restocks the shelves after her shift, so I start every morning unpacking boxes",
        "project_done": "We gave four hundred and twelve flu jabs at the clinic this season, a record for the shop.",
    },
    "Kenji": {
        **_HE, "partner": "Emma", "kid": "Ren", "kid_they": "he", "kid_their": "his",
        "sibling": "Takeshi", "sibling_rel": "brother", "parent": "Hiroko", "parent_rel": "mother",
        "parent_they": "she", "city": "Vancouver", "job": "architect", "company": "Cedar & Stone",
        "colleague": "Paolo", "boss": "Fiona",
        "project": "the design for the new public library branch", "project_short": "library design",
        "project_push": "Fiona wants the library competition entry finished ten days earlier than planned",
        "colleague_issue": "changes the shared model overnight and never leaves a note about what he moved",
        "project_done": "We won the library competition! The jury loved the reading room under the timber roof.",
    },
}

PAIRS: tuple[tuple[str, str, str], ...] = (
    # (speaker, speaker, how they know each other: said once in the first session)
    ("Ana", "Ben", "since we shared that awful flat in our first year at uni"),
    ("Grace", "Marcus", "since the summer we both worked at the lake camp"),
    ("Sofia", "Omar", "since our exchange semester in Montreal"),
    ("Hannah", "Raj", "since we sat next to each other in every maths class at school"),
    ("Lucy", "Kenji", "since that hiking trip in the Alps where we both got lost"),
)
