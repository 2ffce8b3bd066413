"""verbatim_secrets.py: what an agent's write may not spell out over MCP (adr/0011 "Secrets an agent sends")."""

from __future__ import annotations

import pytest

from vaultmem.verbatim_secrets import verbatim_secret, verbatim_secret_property


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
    ("The gym locker code is 4512", "locker code", "4…2"),  # a locker's code opens it: a secret, as a door code
    ("Sam's Visa is 4539 1488 0343 6467, CVV 123", "card number", "45…67"),
    ("Amex 3782 822463 10005", "card number", "37…05"),  # as American Express groups its 15 digits
    ("the PIN of the kid's tablet is 1234", "pin", "1…4"),
    ("password: **hunter22**", "password", "hu…22"),  # Markdown around it hides nothing
    ("The combination to the bike lock is 12-34-56", "combination", "12…56"),
    ("Zoom account password: Bluebird!88", "password", "Bl…88"),  # a meeting's word spares only its passcode or PIN
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


# s35 review: 167 memories an agent would plausibly store, and every paragraph of this machine's
# text (the kepano vault, the benchmark conversations and docs, site-packages READMEs,
# /usr/share/doc: 992,000 paragraphs). The detector refused 32 of the memories (19%) and 423 of
# the paragraphs; each kind of wrong refusal is one case here.
@pytest.mark.parametrize("text", [
    # digits inside a word, and numbers that are not issued as cards but pass the Luhn check
    "The release was built from commit 3abf981542788310104bc96b9c9cf70dd39b361b",
    "The fix is in commit 84963318952064a93bfc52edd6b0ef70593384ee",
    "My phone's IMEI is 356938035643809",  # an IMEI's check digit is Luhn's
    "Sam's dog's microchip number is 956000012345678",
    "The cat's microchip is 985 112 003 456 789",
    "USPS tracking number: 9400 1118 9922 3343 5566 77",
    "Amazon order 114-3941689-8772237 arrives Friday",
    "IBAN for rent: DE89 3704 0044 0532 0135 00",
    "zero pad: [000001288929712]",
    "Fixes https://oss-fuzz.com/testcase-detail/5390364397928448",  # a number in a web address
    "Mo Tu We Th Fr Sa Su 19 20 21 22 23 24 25",
    # where the secret is kept, or when it changed
    "Wifi password: (in the kitchen drawer)",
    "password: [[Bitwarden]]",
    "Netflix password: [[Vault 2024]]",
    "The alarm code is *in the safe*",
    "Password reset email: sam@example.com",
    "Password reset link: https://accounts.example.com/reset",
    "API key page: https://platform.openai.com/api-keys",
    "Password changed: 2026-01-10",
    "Door code updated: 2026-02-01",
    "Password: N/A (the account uses SSO)",
    "API key: <your key>",
    "api key = ${OPENAI_API_KEY}",
    "API key: YOUR_API_KEY",
    "c->password = g_strdup(value);",
    # another thing named by the secret's word
    "Sam's password manager is 1Password",
    "Password manager: 1Password, family plan",
    "The API key name is prod-2026",
    "Access token lifetime: 3600 s",
    "The shed's combination lock: Master-1500D",
    "Keyboard shortcut: the key combination is Ctrl+Shift+P",
    "The best combination is salt+lemon on the fish",
    "The winning combination was 4-3-3",
    # India's postal code is its PIN code; a meeting's passcode is in its invitation
    "Our postal PIN code is 400001, Mumbai",
    "PIN code of Sam's office: 560001 (Bengaluru)",
    "Pin code: 560034, Koramangala, Bengaluru",
    "Zoom passcode: 482913 for the Thursday call",
    "Dial-in PIN: 4821# (Teams)",
])
def test_an_ordinary_memory_the_first_detector_refused_is_stored(text: str) -> None:
    assert verbatim_secret(text) is None


@pytest.mark.parametrize(("key", "value", "masked"), [
    ("password", "Elm-hunter2-77", "El…77"),
    ("wifi_password", "Elm-hunter2-77", "El…77"),  # a property key's words joined by _ or -
    ("door-code", 7391, "7…1"),
    ("pins", ["bike", "4921"], "4…1"),  # each item of a list
])
def test_a_property_that_spells_out_a_secret_is_found(key: str, value: object, masked: str) -> None:
    secret = verbatim_secret_property(key, value)
    assert secret is not None and secret.masked() == masked


def test_a_property_naming_where_a_secret_is_kept_is_not_one() -> None:
    assert verbatim_secret_property("wifi_password", "in 1Password") is None
    assert verbatim_secret_property("password_manager", "1Password") is None
