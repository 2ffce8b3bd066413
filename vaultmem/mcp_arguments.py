"""Strict tool arguments for the MCP server: unknown names and mistyped values are errors.

The SDK builds each tool's argument model from the function signature, but that model
ignores arguments it does not know (``recall(layer="L3")`` would silently search every
layer, since the parameter is ``layers``) and coerces in pydantic's lax mode (``"yes"``
becomes ``True``). A :class:`StrictTool` forbids extra arguments and validates in strict
mode, and turns the first problems into one or two plain sentences that name the
argument, led by ``UsageError:`` like every other error an agent fixes by changing its
arguments — pydantic's own text spans several lines and ends in a validator URL, which a
model reads as noise. See adr/0011-mcp-server.md.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

if TYPE_CHECKING:
    from mcp.server.mcpserver.context import Context

SHOWN_VALUE_CHARS = 40  # an agent may send a megabyte by mistake: never echo it whole

# pydantic error type → what the value must be, in words.
EXPECTED = {
    "bool_type": "true or false (a JSON boolean)",
    "int_type": "a whole number",
    "float_type": "a number",
    "string_type": "a string",
    "list_type": "a list",
}
BOUNDS = {"ge": "at least", "gt": "greater than", "le": "at most", "lt": "less than"}


def one_or_list(value: object) -> object:
    """A list argument that takes one item sent bare as a list of that one (``supersedes:
    "coffee"``, as agents send it for a single note): one string names one note — a path or
    id is never split, so there is nothing else it could mean. Another type is refused in
    words, not as pydantic's "valid list" (which hid that one string is fine)."""
    if isinstance(value, str):
        return [value]
    if value is not None and not isinstance(value, list):
        raise PydanticCustomError("one_or_list", "must be a note's id or path, or a list of them")
    return value


class StrictTool(Tool):
    """An SDK tool whose arguments are checked strictly, with errors in plain words."""

    @classmethod
    def strict(cls, fn: Callable[..., Any], *, name: str, description: str, annotations: ToolAnnotations) -> StrictTool:
        tool = cls.from_function(fn, name=name, description=description, annotations=annotations)
        assert isinstance(tool, cls)  # from_function builds cls(...)
        lax = tool.fn_metadata.arg_model
        strict = cast("type[ArgModelBase]", type(lax.__name__, (lax,), {"model_config": ConfigDict(extra="forbid", strict=True)}))
        return tool.model_copy(update={
            "fn_metadata": tool.fn_metadata.model_copy(update={"arg_model": strict}),
            "parameters": strict.model_json_schema(by_alias=True),  # now says additionalProperties: false
        })

    @property
    def parameter_names(self) -> list[str]:
        return list(self.parameters.get("properties", {}))

    async def run(self, arguments: dict[str, Any], context: Context[Any, Any], convert_result: bool = False) -> Any:
        try:
            self.fn_metadata.validate_arguments(arguments)
        except ValidationError as error:
            # UsageError, as the vault's own argument errors lead: an agent that branches on the kind
            # (fix the arguments) must not have to recognise these sentences as a second family.
            raise ToolError(f"Error executing tool {self.name}: UsageError: {explain(error, self.name, self.parameter_names)}") from error
        return await super().run(arguments, context, convert_result)


def explain(error: ValidationError, tool: str, parameters: Sequence[str]) -> str:
    """The first problem as a sentence; the names of any others in a second one."""
    details = error.errors(include_url=False)
    first = describe(details[0], tool, parameters)
    others = sorted({location(detail["loc"]) for detail in details[1:]} - {location(details[0]["loc"])})
    return first if not others else f"{first} Also wrong: {', '.join(others)}."


def describe(detail: ErrorDetails, tool: str, parameters: Sequence[str]) -> str:
    kind, where, context = detail["type"], location(detail["loc"]), detail.get("ctx", {})
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(where, parameters, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return f"unknown argument '{where}'{hint}; {tool} takes {', '.join(parameters)}."
    if kind == "missing":
        return f"missing required argument '{where}'."
    if kind == "one_or_list":
        return f"argument '{where}' {detail['msg']}, not {shown(detail.get('input'))}."
    if kind in EXPECTED:
        given = detail.get("input")
        # One note or tag sent bare: say the list it goes in, which the agent can send as it is.
        wrapped = f" (a list of one: [{shown(given)}])" if kind == "list_type" and isinstance(given, str) else ""
        return f"argument '{where}' must be {EXPECTED[kind]}, not {shown(given)}{wrapped}."
    bound = next((key for key in BOUNDS if key in context), None)
    if bound is not None:
        return f"argument '{where}' must be {BOUNDS[bound]} {context[bound]}, not {shown(detail.get('input'))}."
    if kind in ("too_short", "string_too_short") and context.get("min_length") == 1:
        return f"argument '{where}' must not be empty."
    message = detail["msg"]
    return f"argument '{where}': {message[:1].lower()}{message[1:]} (got {shown(detail.get('input'))})."


def location(loc: tuple[int | str, ...]) -> str:
    """('tags', 1) → 'tags[1]'."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "arguments"


def shown(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= SHOWN_VALUE_CHARS else text[: SHOWN_VALUE_CHARS - 1] + "…"
