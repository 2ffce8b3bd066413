"""How each surface spells search's options, for the sentences that tell a caller which one
to change (explain's reasons).

The command line, the MCP server and the Python API take the same options under their own
names: ``-k``, ``--layer``, ``--include-expired`` typed in a shell; ``k``, ``layers``,
``include_expired`` as MCP arguments and as Python keywords. A sentence names only the
spelling of the surface that asked: an agent over MCP has no use for ``-k``, and a person at
the shell none for ``include_expired``. The shell says which surface it is (:class:`Surface`);
the library picks the names here, once, rather than each sentence being rewritten after.

The other way a message names arguments is :class:`errors.Argument` (and an operation to run,
:class:`errors.Operation`: `vaultmem check`, ``Vault.check()``, the check tool), in a refusal or
warning the library raises or returns without knowing who will show it
(:class:`errors.UsageError`, :class:`errors.Spelled`): the shell spells it as it prints it. Use
this module where the caller's surface is passed in anyway (explain); use those everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Surface(Enum):
    """Who asked: the Python API (the default), the command line, or an MCP client."""

    API = "api"
    CLI = "cli"
    MCP = "mcp"


@dataclass(frozen=True)
class OptionNames:
    """Search's options as one surface spells them."""

    k: str
    layers: str
    tags: str
    since: str
    until: str
    include_expired: str  # the option turned on, as it is written
    assign: str  # between an option and its value: ``-k 4``, ``k=4``
    check: str  # where the notes' problems are listed
    surface: Surface  # whose names these are: a Spelled message (errors.py) says itself as it does

    def k_of(self, value: int) -> str:
        return f"{self.k}{self.assign}{value}"


_ARGUMENTS = {"k": "k", "layers": "layers", "tags": "tags", "since": "since", "until": "until", "assign": "="}

OPTION_NAMES = {
    Surface.CLI: OptionNames(k="-k", layers="--layer", tags="--tag", since="--since", until="--until",
                             include_expired="--include-expired", assign=" ", check="`vaultmem check`",
                             surface=Surface.CLI),
    Surface.MCP: OptionNames(**_ARGUMENTS, include_expired="include_expired=true", check="the check tool",
                             surface=Surface.MCP),
    Surface.API: OptionNames(**_ARGUMENTS, include_expired="include_expired=True", check="Vault.check()",
                             surface=Surface.API),
}


def option_names(surface: Surface) -> OptionNames:
    return OPTION_NAMES[surface]
