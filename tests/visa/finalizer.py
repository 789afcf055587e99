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
    """(normalised Gen assembly, vISA text GenX_IR dumps) of GenX_IR reading a vISA binary."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "k.isa").write_bytes(data)
        proc = _run(folder, ["k.isa", "-platform", platform, "-dumpcommonisa", "-output"])
        asm = folder / ".asm"
        if proc.returncode != 0 or not asm.exists():
            raise AssertionError(f"GenX_IR rejected binary ({proc.returncode}): {proc.stdout}{proc.stderr}")
        dump = folder / ".visaasm"
        return normalise(asm.read_text()), dump.read_text() if dump.exists() else ""
