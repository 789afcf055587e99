"""`kernelkit targets [--json]`: the compilers kernelkit has, their devices and options."""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("targets", help="list compile targets, their devices/processors and options")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def describe() -> list[dict]:
    from kernelkit.mux.registry import get_compilers

    rows = []
    for info in get_compilers():
        rows.append({
            "target": info.name,
            "description": info.description,
            "device": info.device_info.device_name,
            "devices": info.devices(),
            "pointer_size": info.device_info.pointer_size,
            "deferred_compilation": info.supports_deferred_compilation,
            "options": [{"name": o.name, "takes_value": o.takes_value, "help": o.help}
                        for o in info.options()],
        })
    return rows


def render(rows: list[dict]) -> str:
    if not rows:
        return "no targets are installed\n"
    lines = []
    for row in rows:
        head = f"{row['target']}: {row['description']}" if row["description"] else row["target"]
        lines.append(head)
        devices = row["devices"]
        shown = ", ".join(devices[:24]) + (f", ... ({len(devices)} in all)" if len(devices) > 24 else "")
        lines.append(f"  devices: {shown}")
        lines.append(f"  {row['pointer_size'] * 8}-bit addresses, deferred compilation: "
                     f"{'yes' if row['deferred_compilation'] else 'no'}")
        for opt in row["options"]:
            value = " VALUE" if opt["takes_value"] else ""
            lines.append(f"  {opt['name']}{value}  {opt['help']}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    rows = describe()
    if args.json:
        import json

        json.dump({"targets": rows}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(rows))
    return 0
