"""YAML text as LLVM's YAML I/O writes it (code object V2 ``NT_AMD_HSA_METADATA``).

LLVM style: ``---``/``...`` document markers, keys padded to 16 columns, two-space indents,
``- `` sequence items, flow sequences of scalars ``[ 1, 0 ]``, scalars quoted only when needed.
Reading goes through ``yaml.safe_load``.
"""

from __future__ import annotations

from typing import Any

import yaml

from kernelkit.errors import FormatError

_SAFE = set("_-^., \t")
_RESERVED = {"true", "false", "null", "~", "yes", "no", "on", "off", "y", "n", "True", "False", "Null",
             "NULL", "TRUE", "FALSE", "Yes", "No", "YES", "NO", "On", "Off", "ON", "OFF"}


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return s.lower().startswith(("0x", "0o", "-0x", ".inf", "-.inf", ".nan"))
    return True


def quote(s: str) -> str:
    """LLVM's ``needsQuotes``: single quotes when needed, double quotes for control characters."""
    if s == "" or s[0] in " " or s[-1] in " " or s in _RESERVED or _is_number(s):
        return "'" + s.replace("'", "''") + "'"
    need = "none"
    if s[0] in "-?:\\,[]{}#&*!|>'\"%@`":
        need = "single"
    for ch in s:
        if ch.isascii() and ch.isalnum() or ch in _SAFE or ord(ch) >= 0x80:
            continue
        if ord(ch) < 0x20 or ord(ch) == 0x7F:
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        need = "single"
    return s if need == "none" else "'" + s.replace("'", "''") + "'"


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return quote(str(v))


def _key(k: str) -> str:
    return k + ":" + (" " * (16 - len(k)) if len(k) < 16 else " ")


def _emit_map(m: dict, indent: int, out: list[str], first_prefix: str | None = None) -> None:
    for i, (k, v) in enumerate(m.items()):
        lead = first_prefix if (i == 0 and first_prefix is not None) else " " * indent
        if isinstance(v, dict):
            out.append(lead + k + ":")
            _emit_map(v, indent + 2, out)
        elif isinstance(v, list) and v and all(not isinstance(x, (dict, list)) for x in v) and \
                all(isinstance(x, (int, float)) for x in v):
            out.append(lead + _key(k) + "[ " + ", ".join(_scalar(x) for x in v) + " ]")
        elif isinstance(v, list):
            out.append(lead + k + ":")
            for item in v:
                if isinstance(item, dict):
                    _emit_map(item, indent + 4, out, " " * (indent + 2) + "- ")
                else:
                    out.append(" " * (indent + 2) + "- " + _scalar(item))
        else:
            out.append(lead + _key(k) + _scalar(v))


def dump(document: dict) -> str:
    out = ["---"]
    _emit_map(document, 0, out)
    out.append("...")
    return "\n".join(out) + "\n"


# nodes a document may hold once aliases are expanded: a few times its text ("billion laughs": a few
# kilobytes of nested aliases expanding to gigabytes are refused before anything is built)
EXPANSION_PER_CHAR = 4
EXPANSION_MIN = 10_000


def _expanded_size(root: yaml.Node, limit: int) -> int:
    """Node count with every alias expanded, computed on the shared graph (linear time); a
    recursive alias or a count past ``limit`` is a FormatError."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    active: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            children = node.value if isinstance(node, yaml.SequenceNode) else [
                n for pair in node.value for n in pair]
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[key] > limit:
                line = node.start_mark.line + 1 if node.start_mark else None
                raise FormatError(f"YAML aliases expand to more than {limit} nodes", line=line,
                                  field="NT_AMD_HSA_METADATA")
            continue
        if key in sizes:
            continue
        if not isinstance(node, (yaml.SequenceNode, yaml.MappingNode)):
            sizes[key] = 1
            continue
        if key in active:
            line = node.start_mark.line + 1 if node.start_mark else None
            raise FormatError("recursive YAML alias", line=line, field="NT_AMD_HSA_METADATA")
        active.add(key)
        stack.append((node, True))
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


class _Bounded:
    """``safe_load`` with alias expansion bounded; timestamps stay strings (LLVM's YAML I/O has no
    timestamp type) and ``!!binary`` is refused (nothing in the metadata is binary)."""

    limit = EXPANSION_MIN

    def construct_document(self, node):
        _expanded_size(node, self.limit)
        return super().construct_document(node)


class _MetadataLoader(_Bounded, yaml.SafeLoader):
    """PyYAML's own parser (Python): deep nesting ends in a RecursionError, caught."""


# libyaml's parser (C) reads a document ~5x faster, but its composer recurses in C per nesting level
# (100,000 nested "[" crash the process): it reads only documents nested at most _C_DEPTH deep,
# which its event parser (a state machine, no recursion) tells first
_C_DEPTH = 256
_FAST_BASE = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
_LOADERS = [_MetadataLoader]
if _FAST_BASE is not None:
    class _FastMetadataLoader(_Bounded, _FAST_BASE):
        """libyaml's parser, for documents shallow enough (``_shallow``)."""

    _LOADERS.append(_FastMetadataLoader)


def _refuse_binary(loader, node):
    raise yaml.constructor.ConstructorError(None, None, "!!binary is not allowed in metadata",
                                            node.start_mark)


for _loader in _LOADERS:
    _loader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)
    _loader.add_constructor("tag:yaml.org,2002:binary", _refuse_binary)


def _shallow(text: str) -> bool:
    """Whether no collection of ``text`` is nested more than _C_DEPTH deep (libyaml's events)."""
    depth = 0
    for event in yaml.parse(text, Loader=_FAST_BASE):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > _C_DEPTH:
                return False
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return True


def load(text: str, *, offset: int | None = None) -> Any:
    loader = None
    try:
        fast = _FAST_BASE is not None and _shallow(text)
        loader = (_LOADERS[-1] if fast else _MetadataLoader)(text)
        loader.limit = max(EXPANSION_MIN, EXPANSION_PER_CHAR * len(text))
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        raise FormatError(f"bad YAML metadata: {exc}".splitlines()[0], offset=offset,
                          line=None if line is None else line + 1, field="NT_AMD_HSA_METADATA") from exc
    except RecursionError:
        raise FormatError("YAML metadata nested too deeply", offset=offset,
                          field="NT_AMD_HSA_METADATA") from None
    except UnicodeError as exc:     # libyaml reads UTF-8: a lone surrogate cannot be encoded
        raise FormatError(f"bad YAML metadata: {exc}", offset=offset, field="NT_AMD_HSA_METADATA") from None
    finally:
        if loader is not None:
            loader.dispose()
