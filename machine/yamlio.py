"""Strict YAML reading for configuration files and scripts.

Owns: turning YAML text into plain Python data while refusing the YAML 1.1 surprises that bite
operators (``no``/``yes``/``on``/``off`` read as booleans, duplicate keys silently overwritten,
``012`` read as octal, ``1:30`` read as base 60). Only ``true``/``false`` are booleans here.
Also refuses hostile or careless files before they cost time or memory: a file over
``MAX_BYTES``, nesting deeper than ``MAX_DEPTH``, more than ``MAX_ALIASES`` aliases or a document
that aliases expand to more than ``MAX_NODES`` nodes (an alias bomb), a scalar longer than
``MAX_SCALAR`` characters, and keys that cannot be keys (``? [a, b]``).
Errors name the file and the line. Never knows what the data means.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import IO, Any

import yaml

MAX_BYTES = 1_000_000  # no configuration, profile or script comes near this
MAX_DEPTH = 64  # nesting levels, aliases expanded
MAX_ALIASES = 1000
MAX_NODES = 200_000  # nodes of the document with every alias expanded
MAX_SCALAR = 10_000  # characters of one scalar


class YamlError(ValueError):
    """A YAML file that cannot be read; the message names the file and the line."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader with bounded nesting, aliases and scalars (checked while composing)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        mark: Any = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise yaml.composer.ComposerError(None, None, f"more than {MAX_ALIASES} aliases", mark)
        elif isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_SCALAR:
            raise yaml.composer.ComposerError(
                None, None, f"a value of {len(event.value)} characters (at most {MAX_SCALAR})", mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


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
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, f"a {type(key).__name__} cannot be a key", key_node.start_mark
            ) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key] + 1})", key_node.start_mark
            )
        seen[key] = key_node.start_mark.line
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a node graph whose aliases expand past ``MAX_NODES`` nodes or ``MAX_DEPTH`` levels,
    or refer to themselves; each shared node is measured once, without recursion."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        if done:
            open_.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if size[key] > MAX_NODES:
                raise yaml.composer.ComposerError(
                    None, None, f"aliases expand this to more than {MAX_NODES} values (an alias bomb?)", node.start_mark
                )
            if depth[key] > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"aliases nest this deeper than {MAX_DEPTH} levels", node.start_mark
                )
            continue
        if key in size:
            continue
        if key in open_:
            raise yaml.composer.ComposerError(None, None, "an alias refers to the value it is in", node.start_mark)
        open_.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def loads(text: str, name: str = "<string>") -> Any:
    """Parse YAML (or JSON, which is YAML) text strictly; ``name`` is used in errors."""
    if len(text) > MAX_BYTES:
        raise YamlError(f"{name}: {len(text)} characters is too large (at most {MAX_BYTES})")
    unreadable = text_problem(text, name)
    if unreadable:
        raise YamlError(unreadable)
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise YamlError(f"{name}{line}: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{name}: {exc}") from None
    finally:
        loader.dispose()


def text_problem(text: str, name: str) -> str | None:
    """Why ``text`` cannot be YAML text at all, as ``name:line: ...`` (a control character
    such as NUL or BEL, a lone surrogate from undecodable bytes), or None when every
    character may be in a YAML file."""
    m = _UNPRINTABLE.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    code = ord(m.group())
    what = (f"a byte that is not UTF-8 text (0x{code - 0xDC00:02x})" if 0xDC80 <= code <= 0xDCFF
            else f"the control character U+{code:04X}{_NAMES.get(code, '')}")
    return f"{name}:{line}: column {column}: {what}: a YAML file holds printable text only"


# What YAML's reader refuses (its printable set is TAB, LF, CR, U+0020-U+007E, NEL, U+00A0-U+D7FF,
# U+E000-U+FFFD and beyond U+FFFF); found first so that the error names the line, not a position.
_UNPRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
_NAMES = {0: " (NUL)", 7: " (BEL)", 8: " (backspace)", 0x1B: " (ESC)", 0x7F: " (DEL)"}


def decode(data: bytes, name: str) -> str:
    """Bytes of a YAML file or of standard input as UTF-8 text; refused (with the line of the
    first byte that is not UTF-8) when they are not, or are over ``MAX_BYTES``."""
    if len(data) > MAX_BYTES:
        raise YamlError(f"{name}: too large (more than {MAX_BYTES} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise YamlError(f"{name}:{line}: not UTF-8 text (byte {exc.start}, 0x{data[exc.start]:02x})") from None


def read_text(path: str | Path) -> str:
    """A YAML file's text, refusing one over ``MAX_BYTES`` without reading past that."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise YamlError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return decode(data, str(p))


def read_stream(stream: IO[Any], name: str = "<stdin>") -> str:
    """The text of a stream (standard input: its bytes, decoded as ``read_text`` decodes a
    file's; a text stream without bytes beneath, as it is)."""
    source = getattr(stream, "buffer", stream)
    try:
        data = source.read(MAX_BYTES + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise YamlError(f"{name}: cannot read: {exc}") from None
    if isinstance(data, str):
        if len(data) > MAX_BYTES:
            raise YamlError(f"{name}: too large (more than {MAX_BYTES} characters)")
        return data
    return decode(data, name)


def load(path: str | Path) -> Any:
    """Read and parse a YAML file strictly."""
    return loads(read_text(path), str(path))
