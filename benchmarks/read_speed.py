"""Reading speed of every format kernelkit reads, in seconds per MB, at two input sizes.

Each row reads a file the way ``kernelkit inspect --json`` does (detect, inspect, render, JSON) and
reports the best of ``--repeat`` CPU times per MB at a small and a 4x larger input built by repeating
the format's own structure (kernels, entries, symbols, instructions, lines) from the reference data.
The ``growth`` column is (time per MB at 4x) / (time per MB at 1x): about 1 for a linear reader, about 4
for a quadratic one. Where ``llvm-readelf`` is installed it reads the same ELF-based files as a peer.

    python benchmarks/read_speed.py [--scale N] [--repeat N] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.targets import TARGETS, kkhost_seeds, reference_root  # noqa: E402
from kernelkit.formats import elf as E  # noqa: E402
from kernelkit.formats.amdgpu.bundle import OffloadBundle, compress  # noqa: E402
from kernelkit.formats.amdgpu.hostobj import host_object  # noqa: E402
from kernelkit.formats.amdgpu.notes import MetadataV3Note, decode_note  # noqa: E402

REF = reference_root()


def _ref(path: str) -> bytes:
    return (REF / path).read_bytes()


# ------------------------------------------------------------------ inputs of n repeated units
def elf_symbols(n: int) -> bytes:
    strtab, offs = E.build_string_table(f"sym_{i}" for i in range(n))
    syms = [E.Symbol("", 0, 0, 0, 0, 0, 0)] + [E.Symbol(f"sym_{i}", 16 * i, 16, 1, 2, 0, 1, offs[f"sym_{i}"])
                                              for i in range(n)]
    relocs = [E.Relocation(8 * i, 1, 1 + i, 0) for i in range(n)]
    elf = E.ElfFile(e_machine=62)
    elf.sections += [E.Section(".text", E.SHT_PROGBITS, E.SHF_ALLOC | E.SHF_EXECINSTR, data=bytes(16 * n)),
                     E.Section(".strtab", E.SHT_STRTAB, data=strtab, addralign=1),
                     E.Section(".symtab", E.SHT_SYMTAB, link=2, info=1, addralign=8, entsize=24,
                               data=E.encode_symbols(syms)),
                     E.Section(".rela.text", E.SHT_RELA, link=3, info=1, addralign=8, entsize=24,
                               data=E.encode_relocations(relocs, True)),
                     E.Section(".shstrtab", E.SHT_STRTAB, addralign=1)]
    elf.e_shstrndx = 5
    elf.layout()
    return elf.to_bytes()


def code_object_kernels(n: int) -> bytes:
    """A V4 code object whose metadata lists ``n`` copies of saxpy, each with its own descriptor."""
    elf = E.ElfFile.parse(_ref("amdgpu/clang19/saxpy.gfx90a.v4.hsaco"))
    note_sec = elf.sections_of_type(E.SHT_NOTE)[0]
    notes = elf.notes(note_sec)
    doc = next(decode_note(x) for x in notes if isinstance(decode_note(x), MetadataV3Note)).document
    kernel = doc["amdhsa.kernels"][0]
    kd_sym = next(s for s in elf.symbols() if s.name == kernel[".symbol"])
    kd = elf.symbol_data(kd_sym)
    doc = dict(doc, **{"amdhsa.kernels": [dict(kernel, **{".name": f"k{i}", ".symbol": f"k{i}.kd"})
                                          for i in range(n)]})
    meta = E.Note("AMDGPU", 32, msgpack.packb(doc))
    strtab, offs = E.build_string_table(f"k{i}.kd" for i in range(n))
    syms = [E.Symbol("", 0, 0, 0, 0, 0, 0)] + [E.Symbol(f"k{i}.kd", 64 * i, 64, 1, 1, 0, 2, offs[f"k{i}.kd"])
                                              for i in range(n)]
    out = E.ElfFile(ei_class=elf.ei_class, osabi=elf.osabi, abiversion=elf.abiversion, e_type=E.ET_REL,
                    e_machine=elf.e_machine, e_flags=elf.e_flags)
    out.sections += [E.Section(".note", E.SHT_NOTE, E.SHF_ALLOC, data=E.encode_notes([meta]), addralign=4),
                     E.Section(".rodata", E.SHT_PROGBITS, E.SHF_ALLOC, data=kd * n, addralign=64),
                     E.Section(".strtab", E.SHT_STRTAB, data=strtab, addralign=1),
                     E.Section(".symtab", E.SHT_SYMTAB, link=3, info=1, addralign=8, entsize=24,
                               data=E.encode_symbols(syms)),
                     E.Section(".shstrtab", E.SHT_STRTAB, addralign=1)]
    out.e_shstrndx = 5
    out.layout()
    return out.to_bytes()


def bundle(n: int) -> bytes:
    real = OffloadBundle.parse(_ref("amdgpu/bundle/saxpy.hipv4.uncompressed.hipfb"))
    return OffloadBundle([e for _ in range(n) for e in real.entries]).to_bytes(4096)


def compressed_bundle(n: int) -> bytes:
    return compress(bundle(n), method="zstd", level=3)


def amdil_program(n: int) -> bytes:
    """``n`` kernels, each calling one of 16 shared functions (the shape that made inspect cubic)."""
    out = ["il_cs_2_0", "dcl_cb cb0[9]", "call 1000;$", "endmain", ""]
    for f in range(16):
        out += [f"func {1000 + n + f} ; helper{f}", "mov r1, r1", "ret", f"endfunc ; helper{f}",
                f";ARGSTART:helper{f}", ";uniqueid:" + str(1000 + n + f), ";memory:hwlocal:0",
                f";ARGEND:helper{f}"]
    for k in range(n):
        name = f"__OpenCL_k{k}_kernel"
        out += [f"func {1000 + k} ; {name}", "mov r1, cb1[0]", f"call {1000 + n + k % 16} ; helper",
                "ret", f"endfunc ; {name}", f";ARGSTART:{name}", ";version:1:4:53", ";device:juniper",
                f";uniqueid:{1000 + k}", ";memory:hwprivate:0", ";memory:hwlocal:0",
                ";pointer:dst:i32:1:1:0:uav:1:4", f";function:1:{1000 + n + k % 16}", ";uavid:1",
                f";ARGEND:{name}"]
    return ("\n".join(out + ["end", ""])).encode()


def catalyst(n: int) -> bytes:
    real = _ref("amdil/catalyst-clo/alltypes.clo")
    start, end = real.index(b";ARGSTART:"), real.rindex(b";ARGEND:")
    end = real.index(b"\n", end) + 1
    return real[:start] + real[start:end] * n + real[end:]


def visa_text(n: int) -> bytes:
    text = _ref("visa/tgllp_simple/simple.visaasm").decode()
    lines = text.split("\n")
    first = next(i for i, x in enumerate(lines) if x.strip().startswith("or (M1_NM"))
    last = next(i for i, x in enumerate(lines) if x.strip().startswith("ret "))
    body = [re.sub(r"///.*", "", x) for x in lines[first + 1:last]]
    return "\n".join(lines[:first + 1] + body * n + lines[last:]).encode()


def visa_binary(n: int) -> bytes:
    from kernelkit.formats.visa.binary import write_isa
    from kernelkit.formats.visa.text_parse import parse_visaasm

    return write_isa(parse_visaasm(visa_text(n).decode()))


def host_binary(n: int) -> bytes:
    from kernelkit.targets.host.binary import read_host_binary

    b = read_host_binary(kkhost_seeds()[0])
    b.kernels = [type(k)(dict(k.signature, name=f"{k.name}{i}"), k.coroutine, k.max_work_dim,
                         k.uniform_work_groups) for i in range(n) for k in b.kernels]
    return b.to_bytes()


def cl2(n: int) -> bytes:
    return _ref("amdcl2/alltypes.clo.regen")     # a real driver layout cannot be grown by repetition


ROWS = [  # name, fuzz target whose reader is timed, builder, units at scale 1, ELF peer?
    ("elf (symbols+relocations)", "elf", elf_symbols, 20000, True),
    ("amdgpu code object V4", "amdgpu-v3", code_object_kernels, 500, True),
    ("offload bundle", "bundle", bundle, 40, False),
    ("compressed bundle (zstd)", "compressed-bundle", compressed_bundle, 40, False),
    ("host object (.hip_fatbin)", "host-object", lambda n: host_object([bundle(n)]), 40, True),
    ("amdil text", "amdil-text", amdil_program, 1000, False),
    ("amdil catalyst binary", "amdil-catalyst", catalyst, 100, False),
    ("amdcl2 binary (real, fixed size)", "cl2", cl2, 1, True),
    ("visa text", "visa-text", visa_text, 2000, False),
    ("visa binary", "visa-binary", visa_binary, 2000, False),
    ("kkhost container", "kkhost", host_binary, 2000, False),
]


def _uncompressed(data: bytes) -> int:
    from kernelkit.formats.amdgpu.bundle import decompress

    return len(decompress(data)[1])


UNCOMPRESSED = {"compressed-bundle": _uncompressed}   # decompressing readers: per MB of output


def cpu_time(fn, data: bytes, repeat: int) -> float:
    fn(data)                                            # warm-up: imports, caches
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn(data)
        best = min(best, time.process_time() - start)
    return best


def lenient_visa(n: int, repeat: int) -> tuple[int, float]:
    """The lenient decoder alone on ``n`` instructions (the path damaged IGC streams take)."""
    from kernelkit.formats.visa.binary import read_isa
    from kernelkit.formats.visa.byteio import ByteReader
    from kernelkit.formats.visa.instructions import decode_instruction, decode_truncated_stream

    real = read_isa(_ref("visa/tgllp_simple/simple.isa"), lenient=True).kernels[0]
    r = ByteReader(real.code)
    for _ in range(len(real.instructions) - 1):       # the instructions IGC's truncating writer left whole
        decode_instruction(r, truncated=True)
    code = real.code[:r.pos] * n + bytes(4096)
    return len(code), cpu_time(lambda c: decode_truncated_stream(c, lambda i: True), code, repeat)


def peer_time(data: bytes, repeat: int) -> float | None:
    tool = shutil.which("llvm-readelf") or shutil.which("llvm-readelf-19")
    if tool is None:
        return None
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    try:
        best = float("inf")
        for _ in range(repeat):
            start = os.times()
            subprocess.run([tool, "-h", "-S", "-s", "-r", "--notes", f.name], capture_output=True, check=False)
            end = os.times()
            best = min(best, (end.children_user + end.children_system) - (start.children_user + start.children_system))
        return best
    finally:
        os.unlink(f.name)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scale", type=float, default=1.0, help="multiply every input size")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--only", help="rows whose name contains this")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if REF is None:
        print("reference data not found (set KERNELKIT_REFERENCE)", file=sys.stderr)
        return 1
    rows = []
    print(f"{'format':34} {'MB':>7} {'s/MB':>8} {'MB@4x':>7} {'s/MB@4x':>8} {'growth':>6} {'readelf s/MB':>12}")
    for name, target, build, units, peer in ROWS:
        if args.only and args.only not in name:
            continue
        read = TARGETS[target].read
        n = max(1, int(units * args.scale))
        small, large = build(n), build(4 * n)
        t_small, t_large = cpu_time(read, small, args.repeat), cpu_time(read, large, args.repeat)
        size = UNCOMPRESSED.get(target, len)
        mb_s, mb_l = size(small) / 1e6, size(large) / 1e6
        ref_t = peer_time(large, args.repeat) if peer else None
        row = {"format": name, "mb": mb_s, "s_per_mb": t_small / mb_s, "mb_4x": mb_l, "s_per_mb_4x": t_large / mb_l,
               "growth": (t_large / mb_l) / (t_small / mb_s) if t_small else None,
               "readelf_s_per_mb": ref_t / mb_l if ref_t is not None else None}
        rows.append(row)
        peer_txt = f"{row['readelf_s_per_mb']:.4f}" if ref_t is not None else "-"
        print(f"{name:34} {mb_s:7.3f} {row['s_per_mb']:8.4f} {mb_l:7.3f} {row['s_per_mb_4x']:8.4f} "
              f"{row['growth']:6.2f} {peer_txt:>12}", flush=True)
    if not args.only or "lenient" in args.only:
        n = max(1, int(500 * args.scale))
        (s1, t1), (s4, t4) = lenient_visa(n, args.repeat), lenient_visa(4 * n, args.repeat)
        row = {"format": "visa lenient decoder", "mb": s1 / 1e6, "s_per_mb": t1 / (s1 / 1e6), "mb_4x": s4 / 1e6,
               "s_per_mb_4x": t4 / (s4 / 1e6), "growth": (t4 / s4) / (t1 / s1)}
        rows.append(row)
        print(f"{row['format']:34} {row['mb']:7.3f} {row['s_per_mb']:8.4f} {row['mb_4x']:7.3f} "
              f"{row['s_per_mb_4x']:8.4f} {row['growth']:6.2f} {'-':>12}")
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
