"""Read and write string attributes (``"key"="value"``) on IR functions and call sites.

Attributes live as verbatim strings or shared ``AttributeGroup``s (``#N``); writes go inline so
a shared group is never changed for other users, and a removed key is taken out of a private
copy of any group that carries it.
"""

from __future__ import annotations

from kernelkit.ir.module import AttributeGroup
from kernelkit.ir.names import quote_string
from kernelkit.mux.names import ATTR_BARRIER_SCHEDULE, BarrierSchedule


def _split(text: str) -> tuple[str, str | None]:
    """``"key"="value"`` -> (key, value); ``"key"`` -> (key, None); ``nounwind`` -> (nounwind, None)."""
    if not text.startswith('"'):
        return text, None
    end = text.index('"', 1)
    key = text[1:end]
    rest = text[end + 1:]
    if rest.startswith('="') and rest.endswith('"'):
        return key, rest[2:-1]
    return key, None


def _format(key: str, value: str | None) -> str:
    if value is None:
        return f'"{quote_string(key)}"'
    return f'"{quote_string(key)}"="{quote_string(value)}"'


def _flat(attributes: list) -> list[str]:
    out: list[str] = []
    for a in attributes:
        out.extend(a.attributes if isinstance(a, AttributeGroup) else [a])
    return out


def has_attribute(owner, key: str) -> bool:
    return any(_split(a)[0] == key for a in _flat(owner.attributes))


def get_attribute(owner, key: str) -> str | None:
    """The value of string attribute ``key`` (``""`` when it has none), or None when absent."""
    found = None
    for a in _flat(owner.attributes):
        k, v = _split(a)
        if k == key:
            found = "" if v is None else v
    return found


def remove_attribute(owner, key: str) -> None:
    new: list = []
    for a in owner.attributes:
        if isinstance(a, AttributeGroup):
            if any(_split(x)[0] == key for x in a.attributes):
                new.extend(x for x in a.attributes if _split(x)[0] != key)
            else:
                new.append(a)
        elif _split(a)[0] != key:
            new.append(a)
    owner.attributes = new


def set_attribute(owner, key: str, value: str | None = None) -> None:
    """Set string attribute ``key`` (``"key"`` when value is None, else ``"key"="value"``)."""
    remove_attribute(owner, key)
    owner.attributes = [*owner.attributes, _format(key, value)]


def set_barrier_schedule(call, schedule: BarrierSchedule) -> None:
    """``"mux-barrier-schedule"`` on a barrier call site (spec 003 "Function Attributes")."""
    set_attribute(call, ATTR_BARRIER_SCHEDULE, schedule.value)


def get_barrier_schedule(call) -> BarrierSchedule:
    """The call site's schedule; ``unordered`` when it carries none."""
    value = get_attribute(call, ATTR_BARRIER_SCHEDULE)
    return BarrierSchedule(value) if value else BarrierSchedule.UNORDERED
