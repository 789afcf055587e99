"""Run Intel's vISA finalizer (GenX_IR) on text and on binaries and normalise its Gen assembly."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

PLATFORMS = ("SKL", "ICLLP", "TGLLP", "DG2")


def _run(folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(["GenX_IR", *args], cwd=folder, capture_output=True, text=True, timeout=120)


def normalise(asm: str) -> list[str]:
    """Instruction lines of a Gen assembly listing: comments dropped, labels renamed L0, L1, ...
    in order of definition, runs of blanks collapsed (label names change the column widths)."""
    lines = [ln.split("//", 1)[0].rstrip() for ln in asm.splitlines()]
    lines = [ln for ln in lines if ln.strip()]
    labels = [ln[:-1] for ln in lines if re.fullmatch(r"[\w$.]+:", ln)]
    names = {name: f"L{i}" for i, name in enumerate(labels)}
    if not names:
        return [" ".join(ln.split()) for ln in lines]
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")
    return [" ".join(pattern.sub(lambda m: names[m.group(1)], ln).split()) for ln in lines]


def split_attribute_lines(dump: str) -> str:
    """A GenX_IR dump with the finalizer's printing slip undone: in a function's text it prints the
    last ``.kernel_attr`` and the first instruction on one line."""
    return re.sub(r"^(\.kernel_attr \S+) {2,}(\S)", r"\1\n    \2", dump, flags=re.M)


def dump_lines(text: str) -> list[str]:
    """Declaration and instruction lines of a vISA text, to compare our printed text with the text
    GenX_IR -dumpcommonisa prints for our binary. Normalised: comments, ``/// $n`` tags, blank runs
    and ``.funcdecl`` lines dropped; the finalizer's label suffixes (``SKIP`` -> ``SKIP_41``) cut;
    its ``fence_local.`` spelled ``fence_local``; byte immediates compared by their low byte (it prints
    ``0xfe:b`` sign-extended as ``0xfffffffe:b``); ``.version`` lines dropped (one per dumped routine);
    a function's last ``.kernel_attr`` and its first instruction, which it prints on one line, split."""
    out = []
    for line in split_attribute_lines(text).splitlines():
        if line.startswith(".version"):
            continue
        line = re.sub(r"\s*///.*$", "", line)
        if line.lstrip().startswith("//") or line.startswith(".funcdecl"):
            continue
        line = " ".join(line.split())
        line = re.sub(r"\b([A-Za-z_]\w*?)(?:_\d+)+\b", r"\1", line)
        line = re.sub(r"^(fence_\w+)\.$", r"\1", line)
        line = re.sub(r"0x([0-9a-f]+):(u?b)\b", lambda m: f"0x{int(m.group(1), 16) & 0xFF:x}:{m.group(2)}", line)
        if line:
            out.append(line)
    return out


def finalize_text(text: str, platform: str) -> tuple[list[str], str]:
    """(normalised Gen assembly, finalizer output) of GenX_IR compiling vISA text."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "k.visaasm").write_text(text)
        proc = _run(folder, ["k.visaasm", "-platform", platform, "-output"])
        asm = folder / "k.asm"
        if not asm.exists():        # texts with a .global_function are written to ./.asm
            asm = folder / ".asm"
        if proc.returncode != 0 or not asm.exists():
            raise AssertionError(f"GenX_IR rejected text ({proc.returncode}): {proc.stdout}{proc.stderr}")
        return normalise(asm.read_text()), proc.stdout


def finalize_binary(data: bytes, platform: str) -> tuple[list[str], str]:
    """(normalised Gen assembly, vISA text GenX_IR dumps) of GenX_IR reading a vISA binary; the dump
    is the kernel's text followed by each function's (GenX_IR writes function i to ``_f<i>.visaasm``)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "k.isa").write_bytes(data)
        proc = _run(folder, ["k.isa", "-platform", platform, "-dumpcommonisa", "-output"])
        asm = folder / ".asm"
        if proc.returncode != 0 or not asm.exists():
            raise AssertionError(f"GenX_IR rejected binary ({proc.returncode}): {proc.stdout}{proc.stderr}")
        dumps = [folder / ".visaasm"] + sorted(folder.glob("_f*.visaasm"), key=lambda p: int(p.stem[2:]))
        return normalise(asm.read_text()), "".join(d.read_text() for d in dumps if d.exists())
