"""The README and docs/ as a reader follows them: every relative link opens a file that is there,
at a heading that is there, and the README's most-used commands run as written (s36: the README
was split into docs/, and each link had to be pointed at where its section went)."""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from helpers import REPO

from vaultmem.config import VaultConfig, config_from_dict

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
# What a command prints when it found nothing to show (cli/recall.py, cli/tasks.py, expire, consolidate).
EMPTY_ANSWERS = {"no tasks", "no notes", "no matching notes", "no expired notes", "no near-duplicates found"}


def without_fences(text: str) -> str:
    return re.sub(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", "", text, flags=re.MULTILINE | re.DOTALL)


def without_code(text: str) -> str:
    """The text a reader sees as prose: fenced blocks and inline code spans blanked out."""
    return re.sub(r"(`+)(?!`).+?(?<!`)\1(?!`)", "", without_fences(text), flags=re.DOTALL)


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as '-'."""
    anchors = set()
    for line in without_fences(path.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"#{1,6} +(.+?) *#*$", line)
        if heading:
            anchors.add(re.sub(r"[^\w\- ]", "", heading.group(1).replace("`", "").lower()).replace(" ", "-"))
    return anchors


def relative_links(path: Path) -> list[str]:
    links = re.findall(r"\]\(([^)\s]+)\)", without_code(path.read_text(encoding="utf-8")))
    return [link for link in links if not re.match(r"[a-z]+:", link)]


def broken_links(path: Path) -> list[str]:
    broken = []
    for link in relative_links(path):
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        if not file.exists():
            broken.append(f"{link}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in heading_anchors(file):
            broken.append(f"{link}: no heading makes #{anchor}")
    return broken


def test_every_relative_link_in_the_readme_and_docs_opens_a_file_and_heading_that_are_there() -> None:
    assert len(PAGES) > 5
    for path in PAGES:
        assert broken_links(path) == [], path.relative_to(REPO)


def test_the_link_check_finds_a_link_to_a_section_that_moved(tmp_path: Path) -> None:
    # The check itself: a link left pointing at the README's old #the-cli, and one at a file not there.
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n## Here\n\n### `tasks`\n\n[ok](#here) [code heading](#tasks) [moved](#the-cli) [gone](docs/nothing.md) "
                    "`[code](#not-a-link)`\n",
                    encoding="utf-8")
    assert broken_links(page) == ["#the-cli: no heading makes #the-cli", "docs/nothing.md: no such file"]


def test_every_doc_is_linked_from_the_readme() -> None:
    linked = {(REPO / link.partition("#")[0]).resolve() for link in relative_links(REPO / "README.md")}
    assert [path.name for path in PAGES[1:] if path.resolve() not in linked] == []


def test_the_readmes_most_used_commands_run_as_written_on_a_copy_of_the_sample_vault(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The commands you will use most\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.+?)\n```", section, re.DOTALL)
    assert block is not None
    vault = tmp_path / "sample_vault"
    shutil.copytree(REPO / "sample_vault", vault, ignore=shutil.ignore_patterns(".vaultmem"))
    for line in block.group(1).splitlines():
        command = shlex.split(line, comments=True)
        assert command[0] == "vaultmem", line
        result = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, timeout=120, cwd=vault,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        # check exits 1 when it finds problems, and the sample vault breaks some notes on purpose.
        assert result.returncode == (1 if command[1] == "check" else 0), (line, result.stdout, result.stderr)
        assert result.stdout.strip(), line
        # An example that answers nothing shows nothing of what it is for (s37: `tasks` said "no tasks": the sample
        # vault held no task line at all, and "next week" moved with the calendar).
        assert not EMPTY_ANSWERS & set(result.stdout.splitlines()), (line, result.stdout)
    assert not (vault / "memories" / "harbor-standup.md").exists()  # remembered, revised, then forgotten
    assert (vault / "_archive" / "memories" / "harbor-standup.md").is_file()


def test_the_configuration_page_shows_every_setting_with_the_default_vaultmem_uses() -> None:
    # docs/configuration.md's example file is the reference a reader copies: read as a .vaultmem.toml it must
    # change nothing (each value the default), and name every setting VaultConfig holds.
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.+?)```", page, re.DOTALL)
    assert block is not None
    written = tomllib.loads(block.group(1))
    assert config_from_dict(written) == dataclasses.replace(VaultConfig(), remember_dir_set=True)
    shown = {key for key, value in written.items() if not isinstance(value, dict)}
    shown |= {f"{table}.{key}" for table, value in written.items() if isinstance(value, dict) for key in value}
    tables = {"policy": "ttl"}  # the [ttl] table fills VaultConfig.policy, one line per layer
    held = set()
    for setting in dataclasses.fields(VaultConfig):
        value = getattr(VaultConfig(), setting.name)
        if setting.name == "remember_dir_set":
            continue  # not a setting: whether remember_dir was written
        if setting.name in tables:
            held |= {f"{tables[setting.name]}.{layer}" for layer in ("L1", "L2", "L3")}
        elif dataclasses.is_dataclass(value):
            held |= {f"{setting.name}.{field.name}" for field in dataclasses.fields(value)}
        else:
            held.add(setting.name)
    assert shown == held


def cli_help(*command: str) -> str:
    return subprocess.run([sys.executable, "-m", "vaultmem", *command, "--help"], capture_output=True, text=True, timeout=120,
                          check=True, env={**os.environ, "PYTHONPATH": str(REPO)}).stdout


def test_every_option_of_every_command_is_in_its_row_of_the_cli_pages_table() -> None:
    # docs/cli.md's table is where a reader looks an option up; each option `--help` lists is in its command's row.
    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    commands = re.findall(r"^  ([a-z]+) ", cli_help().split("Commands:\n", 1)[1], re.MULTILINE)
    assert len(commands) > 15
    missing = []
    for command in commands:
        row = next((line for line in page.splitlines() if line.startswith(f"| `{command}")), "")
        listed = cli_help(command) + "".join(cli_help(command, sub) for sub in (["export", "import"] if command == "usage" else []))
        options = set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", listed, re.MULTILINE)) | set(re.findall(r" / (--[a-z][a-z-]*)", listed))
        missing += [f"{command} {option}" for option in sorted(options - {"--help", "--json"}) if option not in row]
    assert missing == []
