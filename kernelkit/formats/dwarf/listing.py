"""The text listing of ``kernelkit inspect --debug``: per kernel its pc range, frame base,
parameters and variables with their locations, and its line rows."""

from __future__ import annotations


def _location(value) -> str:
    if value is None:
        return "(no location)"
    if isinstance(value, dict) and "expression" in value:
        return ", ".join(value["expression"])
    if isinstance(value, dict) and "location_list" in value:
        return "; ".join(f"[{e.get('low_pc', 0):#x}, {e.get('high_pc', 0):#x}): {', '.join(e['expression'])}"
                         for e in value["location_list"])
    return f"(not a location: {value!r})"       # damaged DWARF: an attribute of another form


def _name(value) -> str:
    """A name, ``?`` where there is none, or what damaged DWARF gave instead (an attribute of another form)."""
    if isinstance(value, str):
        return value or "?"
    return "?" if value is None else f"(not a name: {value!r})"


def _pc(value) -> str:
    """An address, or ``?`` where damaged DWARF gave none."""
    return f"{value:#x}" if isinstance(value, int) else "?"


def render_debug(doc: dict) -> str:
    units = doc["units"]
    out = [f"DWARF of {doc['target']} (wave{doc['wave_size']}): "
           + ", ".join(f"unit at {u['offset']:#x} version {u['version']}" for u in units)]
    for k in doc["functions"]:
        role = f"kernel {k['kernel']} entry" if k["kernel"] else f"function {k['linkage_name'] or k['name']}"
        out.append(f"{role} ({k['name']})  pc [{_pc(k['low_pc'])}, {_pc(k['high_pc'])})  "
                   f"frame base {_location(k['frame_base'])}")
        for v in k["variables"]:
            out.append(f"  {_name(v['tag']):<16} {_name(v['name']):<12} line {v['line']}: {_location(v['location'])}")
        for row in k["lines"]:
            flags = " stmt" if row["is_stmt"] else ""
            flags += " end_sequence" if row["end_sequence"] else ""
            out.append(f"  {row['address']:#08x}  {row['file']}:{row['line']}:{row['column']}{flags}")
    for frame in doc["frames"]:
        if frame["kind"] == "CIE":
            out.append(f"CIE at {frame['offset']:#x}: augmentation {frame['augmentation']!r}, code alignment "
                       f"{frame['code_alignment_factor']}, data alignment {frame['data_alignment_factor']}, "
                       f"return address {frame['return_address_register']}")
        else:
            out.append(f"FDE at {frame['offset']:#x}: pc [{frame['initial_location']:#x}, "
                       f"{frame['initial_location'] + frame['address_range']:#x}), {len(frame['rows'])} rule rows")
            for row in frame["rows"]:
                rules = ", ".join(f"{reg}={rule}" for reg, rule in row["rules"].items())
                out.append(f"  {_pc(row['pc'])}: CFA={row['cfa'] or '?'}" + (f": {rules}" if rules else ""))
    for table in doc.get("loclists", []):
        out.append(f".debug_loclists table at {table['offset']:#x}: version {table['version']}, "
                   f"{table['offset_entry_count']} offsets")
        for entry in table["entries"]:
            operands = ", ".join(f"{v:#x}" for v in entry["operands"])
            expression = f": {', '.join(entry['expression'])}" if "expression" in entry else ""
            out.append(f"  {entry['offset']:#010x}  {entry['kind']} ({operands}){expression}")
    return "\n".join(out) + "\n"
