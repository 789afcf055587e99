"""`kernelkit cache info|clear`: where the compile cache is, what it holds, and emptying it."""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("cache", help="the compile cache: `cache info` (where, how big) or `cache clear`")
    p.add_argument("action", choices=("info", "clear"))
    p.add_argument("--json", action="store_true", help="with info: machine-readable output")
    p.set_defaults(func=run)


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def run(args) -> int:
    from kernelkit import cache

    root = cache.cache_root()
    if args.action == "clear":
        count, size = cache.clear(root)
        print(f"removed {count} entries ({_size(size)}) from {root}")
        return 0
    found = cache.entries(root)
    spaces: dict[str, list[int]] = {}
    for e in found:
        spaces.setdefault(e.namespace, [0, 0])
        spaces[e.namespace][0] += 1
        spaces[e.namespace][1] += e.size
    total = sum(e.size for e in found)
    doc = {"directory": str(root), "entries": len(found), "bytes": total, "limit_bytes": cache.max_bytes(),
           "disabled": cache.cache_disabled(),
           "namespaces": {k: {"entries": v[0], "bytes": v[1]} for k, v in sorted(spaces.items())}}
    if args.json:
        import json

        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"cache directory: {root}")
    print(f"{len(found)} entries, {_size(total)} of at most {_size(doc['limit_bytes'])} "
          f"(KERNELKIT_CACHE_MAX_BYTES)")
    for name, v in doc["namespaces"].items():
        print(f"  {name:16} {v['entries']:6} entries  {_size(v['bytes'])}")
    return 0
