"""Strict YAML reading for configuration files and scripts.

Owns: turning YAML text into plain Python data while refusing the YAML 1.1 surprises that bite
operators (``no``/``yes``/``on``/``off`` read as booleans, duplicate keys silently overwritten,
``012`` read as octal, ``1:30`` read as base 60). Only ``true``/``false`` are booleans here.
Errors name the file and the line. Never knows what the data means.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml


class YamlError(ValueError):
    """A YAML file that cannot be read; the message names the file and the line."""


class _StrictLoader(yaml.SafeLoader):
    pass


# Start from SafeLoader's resolvers, minus the ones for bool and int, then add strict ones.
_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?(?:0|[1-9][0-9_]*))$"), list("-+0123456789")
)


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key] + 1})", key_node.start_mark
            )
        seen[key] = key_node.start_mark.line
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def loads(text: str, name: str = "<string>") -> Any:
    """Parse YAML (or JSON, which is YAML) text strictly; ``name`` is used in errors."""
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise YamlError(f"{name}{line}: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{name}: {exc}") from None


def load(path: str | Path) -> Any:
    """Read and parse a YAML file strictly."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise YamlError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return loads(text, str(p))
