"""``check`` warns of an API key or private key written in a note (vaultmem/written_keys.py): a
notice naming the file, the line and the fix, never a problem (exit 0); ``allow_secrets: true``
silences one note; shapes that only look like keys are left alone."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from helpers import REAL_VAULTS, run_cli, write_vault
from vaultmem import Vault
from vaultmem.written_keys import keys_in_properties, keys_in_text

# Made up, in the providers' shapes (none is a live key).
AWS = "AKIA4QZ7XJ2M5R8TNW3K"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
OPENAI = "sk-proj-" + "Xy7Qa2Lm9Rt4Vb6Nc8Kd1Fg3Hj5Pw0Zs"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
PRIVATE = ("-----BEGIN OPENSSH PRIVATE KEY-----\n"
           "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
           "-----END OPENSSH PRIVATE KEY-----\n")

NOTES = {
    "infra/aws.md": f"# AWS\n\nThe deploy user:\n\naccess key {AWS}\n",
    "dev/github.md": f"---\ntoken: {GITHUB}\n---\nThe CI token is in the frontmatter.\n",
    "ai/openai.md": f"Playground key: `{OPENAI}`\n\nSlack bot: {SLACK}\n",
    "ssh/laptop.md": f"My laptop's key:\n\n```\n{PRIVATE}```\n",
    "ssh/test-key.md": f"---\nallow_secrets: true\n---\nA throwaway key for the CI fixture:\n\n{PRIVATE}",
    # Only look like keys: a slug, AWS's documented example id, a how-to showing a block's format.
    "ml/sk-learn.md": "Compare in sk-learn-model-comparison-notes-for-the-2024-course and with AKIAIOSFODNN7EXAMPLE.\n",
    "ssh/howto.md": "A key file starts with `-----BEGIN OPENSSH PRIVATE KEY-----` and ends with its END line.\n",
    "ssh/howto-block.md": "```\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n```\n",
}


@pytest.fixture
def vault_with_keys(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)


def test_check_warns_of_each_key_naming_file_line_and_fix_and_exits_0(vault_with_keys: Path) -> None:
    # Was: check said nothing of a cloud key pasted into a note of a vault that goes to git and agents.
    result = run_cli(vault_with_keys, "check", "--json")
    assert result.exit_code == 0, result.stdout  # a notice, not a problem
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["problems"] == []
    found = sorted((notice["path"], notice["message"].split(":")[0]) for notice in report["notices"] if notice["field"] == "secret")
    assert found == [("ai/openai.md", "ai/openai.md, line 1"), ("ai/openai.md", "ai/openai.md, line 3"),
                     ("dev/github.md", "dev/github.md, its frontmatter property 'token'"),
                     ("infra/aws.md", "infra/aws.md, line 5"), ("ssh/laptop.md", "ssh/laptop.md, line 4")]
    told = {notice["path"]: notice for notice in report["notices"] if notice["field"] == "secret"}
    assert "an AWS access key id is written out (AKIA…3K)" in told["infra/aws.md"]["message"]
    assert AWS not in result.stdout and GITHUB not in result.stdout  # masked, never the key
    assert "password manager" in told["infra/aws.md"]["fix"] and "rotate" in told["infra/aws.md"]["fix"]
    assert "allow_secrets: true" in told["infra/aws.md"]["fix"]


def test_the_command_line_names_the_file_and_line(vault_with_keys: Path) -> None:
    shown = run_cli(vault_with_keys, "check").stdout
    assert "secret: infra/aws.md, line 5: an AWS access key id is written out (AKIA…3K)" in shown, shown
    assert "ssh/test-key.md" not in shown  # allow_secrets: true


def test_the_python_api_reports_the_same_notes(tmp_path: Path) -> None:
    with Vault(write_vault(tmp_path / "vault", NOTES)) as vault:
        notices = [notice for notice in vault.check().notices if notice.field == "secret"]
    assert {notice.path for notice in notices} == {"infra/aws.md", "dev/github.md", "ai/openai.md", "ssh/laptop.md"}


@pytest.mark.parametrize("text", [
    "sk-learn-model-comparison-notes-for-the-2024-course",  # a slug: no capitals
    "see [[sk-Learn-Model-Selection-Guide-2023]]",  # a title's slug: capitals and a digit, but words between its hyphens
    "AKIAIOSFODNN7EXAMPLE",  # AWS's documentation
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",  # a placeholder
    "the task-Ab1cdefghijklmnopqrstuvwxyz0123456789 id",  # not at a word's start
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt\n",
])
def test_what_only_looks_like_a_key_is_no_key(text: str) -> None:
    assert list(keys_in_text(text)) == []


def test_no_warning_on_the_sample_and_kepano_vaults(sample_vault: Path, tmp_path: Path) -> None:
    kepano = tmp_path / "kepano"
    shutil.copytree(REAL_VAULTS / "kepano-obsidian", kepano, ignore=shutil.ignore_patterns(".vaultmem"))
    for root in (sample_vault, kepano):
        with Vault(root) as vault:
            assert [notice.message for notice in vault.check().notices if notice.field == "secret"] == []


def test_a_key_in_a_nested_frontmatter_map_is_found_with_its_path(tmp_path: Path) -> None:
    """``env:`` holding ``OPENAI_API_KEY: sk-…`` (a map under a property, as a project note keeps its
    settings): only a property's text or list of texts was looked at, and check said nothing."""
    nested = f"---\nenv:\n  OPENAI_API_KEY: {OPENAI}\n  accounts:\n    - {{name: ci, token: {GITHUB}}}\n---\nSettings.\n"
    with Vault(write_vault(tmp_path / "vault", {"dev/settings.md": nested})) as vault:
        notices = [notice for notice in vault.check().notices if notice.field == "secret"]
    assert sorted(notice.message.split(":")[0] for notice in notices) == [
        "dev/settings.md, its frontmatter property 'env.OPENAI_API_KEY'", "dev/settings.md, its frontmatter property 'env.accounts.token'"]
    assert all(OPENAI not in notice.message and GITHUB not in notice.message for notice in notices)
    assert [key.property for key in keys_in_properties({"a": {"b": [[{"c": AWS}]]}})] == ["a.b.c"]


def test_a_pasted_log_of_thousands_of_key_ids_is_checked_in_linear_time() -> None:
    """A CloudTrail log pasted into a note names an access key id on every event: each key's line
    was counted from the text's start (8,000 ids in 1.5 MB: 3.4 s of CPU a check; 16,000, four
    times that). Each is named with its own line still."""
    count = 16_000
    ids = [f"ASIA{number:016d}".replace("0", "Q") for number in range(count)]
    log = "\n".join(f'{{"eventName": "GetObject", "userIdentity": {{"accessKeyId": "{key}", "arn": "arn:aws:sts::123456789012:'
                    f'assumed-role/deploy/session"}}}}' for key in ids)
    started = time.process_time()
    found = list(keys_in_text(log, first_line=5))
    spent = time.process_time() - started
    assert [key.line for key in found] == list(range(5, 5 + count))
    assert spent < 4, f"{spent:.1f} s of CPU for {count} keys"
