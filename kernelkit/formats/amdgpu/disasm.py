"""Disassemble AMDGPU machine code through LLVM's C disassembler API (``LLVMCreateDisasmCPU``,
``LLVMDisasmInstruction``) of a shared libLLVM on the machine (Debian ``libllvm22``); llvmlite's
own library has no MC disassembler.

LLVM aborts the whole process when asked to disassemble for a subtarget it has no decoder for,
so the processor is checked first (``unsupported_reason``: no LLVM disassembles gfx6/gfx7 or
R600) and the library runs in a child process (``python -m kernelkit.formats.amdgpu.disasm``):
whatever it does, the caller gets a clear message, never a crash.
"""

from __future__ import annotations

import ctypes
import glob
import json
import os
import subprocess
import sys
from dataclasses import dataclass

from kernelkit.errors import KernelkitError

LIBRARY_ENV = "KERNELKIT_LIBLLVM"            # a libLLVM to use instead of the one found
LIBRARY_PATTERNS = ("/usr/lib/x86_64-linux-gnu/libLLVM.so.*", "/usr/lib/x86_64-linux-gnu/libLLVM-*.so",
                    "/usr/lib/llvm-*/lib/libLLVM*.so*", "/usr/lib64/libLLVM*.so*", "/usr/local/lib/libLLVM*.so*")
TRIPLE = "amdgcn-amd-amdhsa"
MIN_LIBRARY_MAJOR = 15       # gfx90a/gfx940 decoders and the spelling LLVM writes today
# processors LLVM has no AMDGPU disassembler tables for (its decoder starts at GFX8)
NO_DECODER_PREFIXES = ("gfx6", "gfx7")


class DisassemblerUnavailable(KernelkitError):
    """No usable libLLVM, or a processor LLVM cannot disassemble."""


@dataclass
class Instruction:
    offset: int
    size: int
    text: str


def _major(path: str) -> int:
    digits = [int(part) for part in os.path.basename(path).replace("-", ".").split(".") if part.isdigit()]
    return digits[0] if digits else 0


def find_library() -> str:
    """The path of the newest libLLVM found (``$KERNELKIT_LIBLLVM`` first)."""
    forced = os.environ.get(LIBRARY_ENV)
    if forced:
        if not os.path.exists(forced):
            raise DisassemblerUnavailable(f"{LIBRARY_ENV}={forced}: no such file")
        return forced
    found = sorted({p for pattern in LIBRARY_PATTERNS for p in glob.glob(pattern)}, key=lambda p: (_major(p), p))
    found = [p for p in found if _major(p) >= MIN_LIBRARY_MAJOR]
    if not found:
        raise DisassemblerUnavailable("no libLLVM with the AMDGPU disassembler found (install Debian's "
                                      f"libllvm22, or name one in ${LIBRARY_ENV})")
    return found[-1]


def unsupported_reason(processor: str) -> str | None:
    if not processor.startswith("gfx"):
        return f"LLVM has no disassembler for {processor} (R600 family)"
    if processor.startswith(NO_DECODER_PREFIXES):
        return f"LLVM cannot disassemble {processor}: its AMDGPU disassembler starts at GFX8"
    return None


def disassemble(code: bytes, processor: str, *, base: int = 0, library: str | None = None) -> list[Instruction]:
    """The instructions of ``code`` for ``processor`` (LLVM's text), in a child process."""
    reason = unsupported_reason(processor)
    if reason is not None:
        raise DisassemblerUnavailable(reason)
    library = library or find_library()
    run = subprocess.run([sys.executable, "-m", "kernelkit.formats.amdgpu.disasm", library, processor, str(base)],
                         input=code, capture_output=True)
    if run.returncode != 0:
        detail = run.stderr.decode(errors="replace").strip().splitlines()
        raise DisassemblerUnavailable(f"{library} could not disassemble for {processor}"
                                      + (f": {detail[-1]}" if detail else f" (exit status {run.returncode})"))
    return [Instruction(**d) for d in json.loads(run.stdout)]


# ------------------------------------------------------------------ the child process

def _child(library: str, processor: str, base: int, code: bytes) -> list[dict]:
    lib = ctypes.CDLL(library)
    for name in ("LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTargetMC",
                 "LLVMInitializeAMDGPUDisassembler"):
        if not hasattr(lib, name):
            raise SystemExit(f"{library} has no {name} (built without the AMDGPU target)")
        getattr(lib, name)()
    lib.LLVMCreateDisasmCPU.restype = ctypes.c_void_p
    lib.LLVMCreateDisasmCPU.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int,
                                        ctypes.c_void_p, ctypes.c_void_p]
    lib.LLVMDisasmInstruction.restype = ctypes.c_size_t
    lib.LLVMDisasmInstruction.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64,
                                          ctypes.c_char_p, ctypes.c_size_t]
    lib.LLVMDisasmDispose.argtypes = [ctypes.c_void_p]
    dc = lib.LLVMCreateDisasmCPU(TRIPLE.encode(), processor.encode(), None, 0, None, None)
    if not dc:
        raise SystemExit(f"LLVMCreateDisasmCPU refused {TRIPLE} {processor}")
    buf = (ctypes.c_ubyte * len(code)).from_buffer_copy(code) if code else (ctypes.c_ubyte * 1)()
    text = ctypes.create_string_buffer(512)
    out, at = [], 0
    while at < len(code):
        size = lib.LLVMDisasmInstruction(dc, ctypes.addressof(buf) + at, len(code) - at, base + at, text, 512)
        if size == 0:       # not an instruction: a 4-byte word, as llvm-objdump shows it
            size = min(4, len(code) - at)
            out.append({"offset": base + at, "size": size,
                        "text": f".long 0x{int.from_bytes(code[at:at + size], 'little'):08x}"})
        else:
            out.append({"offset": base + at, "size": size, "text": text.value.decode().strip()})
        at += size
    lib.LLVMDisasmDispose(dc)
    return out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(_child(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.stdin.buffer.read())))


# ------------------------------------------------------------------ listings for `inspect --disasm`

def function_listing(functions: list[tuple[str, int, bytes]], processor: str) -> dict:
    """``{"library", "processor", "functions": [{"name", "instructions"}]}`` of (name, address,
    code) triples; an unsupported processor or a missing library gives ``{"error": ...}``."""
    out: dict = {"processor": processor, "functions": []}
    try:
        reason = unsupported_reason(processor)
        if reason is not None:
            raise DisassemblerUnavailable(reason)
        library = find_library()
        out["library"] = library
        for name, address, code in functions:
            out["functions"].append({"name": name, "instructions": [
                {"offset": i.offset, "text": i.text} for i in disassemble(code, processor, base=address,
                                                                          library=library)]})
    except DisassemblerUnavailable as exc:
        out["error"] = str(exc)
    return out


def code_object_functions(elf) -> list[tuple[str, int, bytes]]:
    """The functions of an AMDGPU code object's ``.text`` (a V2 kernel's code follows its
    256-byte amd_kernel_code_t)."""
    from kernelkit.formats import elf as E

    text_index = elf.section_index(".text")
    symtab = elf.sections_of_type(E.SHT_SYMTAB) or elf.sections_of_type(E.SHT_DYNSYM)
    out = []
    for sym in elf.symbols(symtab[0]) if symtab else []:
        if sym.shndx != text_index or sym.type not in (2, 10) or not sym.size:
            continue
        code = elf.symbol_data(sym)
        skip = 256 if sym.type == 10 else 0
        out.append((sym.name, sym.value + skip, code[skip:]))
    return sorted(out, key=lambda f: f[1])


def render_listing(listing: dict) -> str:
    if "error" in listing:
        return f"disassembly: {listing['error']}\n"
    lines = [f"disassembly for {listing['processor']} by {listing['library']}"]
    for fn in listing["functions"]:
        lines.append(f"{fn['name']}:")
        lines += [f"  {i['offset']:8x}: {i['text']}" for i in fn["instructions"]]
    return "\n".join(lines) + "\n"
