"""verbatim_secrets.py: what an agent's write may not spell out over MCP (adr/0011 "Secrets an agent sends")."""

from __future__ import annotations

import pytest

from vaultmem.verbatim_secrets import verbatim_secret


@pytest.mark.parametrize(("text", "kind", "masked"), [
    ("The home wifi password is Elm-hunter2-77.", "password", "El…77"),  # the s35 agent trial's words
    ("My bank PIN is 4921", "pin", "4…1"),
    ("The PIN for the bike lock is 4921.", "pin", "4…1"),
    ('password: "s3cr3t!"', "password", "s…t"),
    ("the password is hunter2", "password", "h…2"),
    ("The alarm code at 9 Harbour Road is 7391.", "alarm code", "7…1"),  # the trial's second half: stored at first
    ("Lock combination: 12-34-56", "combination", "12…56"),
    ("card 4111 1111 1111 1111, expires 09/28", "card number", "41…11"),
    ("deploy key sk-proj-abcdefghijklmnopqrstuvwxyz123", "key", "sk…23"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n", "key", "--…--"),
])
def test_a_secret_written_out_is_found_and_shown_masked(text: str, kind: str, masked: str) -> None:
    secret = verbatim_secret(text)
    assert secret is not None and (secret.kind, secret.masked()) == (kind, masked)
    assert secret.describe() == f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} {masked!r}"  # was "a alarm code"


@pytest.mark.parametrize("text", [
    "the wifi password is in 1Password",  # what remember's description asks an agent to write instead
    "The PIN is on the back of the card",
    "api key: see 1Password",
    "Password policy: 12 characters minimum",
    "passwords must be 12 characters",
    "Reset the router password: hold the button for 10 seconds",
    "The access token was rotated on Monday",
    "Zoe's mum is Claire, phone 07700 900123.",
    "Sam borrowed £500 from brother Luis and must repay it by 2026-12-20.",
    "At Contoso Health Sam's badge number is CH-20931.",
    "The alarm code for 9 Harbour Road is kept in Sam's phone notes app.",
    "Sam lives at 9 Harbour Road, postcode LS10 1JF.",
    "The door code changed on Monday",
    "Order 4111 1111 1111 1112 shipped",  # 16 digits that fail the Luhn check: not a card
])
def test_what_only_talks_about_a_secret_is_not_one(text: str) -> None:
    assert verbatim_secret(text) is None
