"""One fuzz target per reader: the seeds (real binaries and texts) and the function that reads an input
the way ``kernelkit inspect`` (and ``--json``) does.

A target passes when reading raises nothing but ``kernelkit.FormatError``. Seeds come from the reference
data: ``$KERNELKIT_REFERENCE``, else ``tests/reference`` in the repository.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fuzz.mutate import mutate_document
from kernelkit.formats import elf as E

ROOT = Path(__file__).resolve().parent.parent
KKHOST_SOURCE = """
__kernel void scale(__global float *x, float a, __local float *tmp) {
    size_t i = get_global_id(0);
    tmp[get_local_id(0)] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == 0) printf("%f\\n", a);
    x[i] = tmp[get_local_id(0)] * a;
}
"""


def reference_root() -> Path | None:
    env = os.environ.get("KERNELKIT_REFERENCE")
    for candidate in ([Path(env)] if env else []) + [ROOT / "tests" / "reference"]:
        if (candidate / "amdgpu").is_dir():
            return candidate
    return None


@dataclass
class Target:
    name: str
    read: Callable[[bytes], object]
    seeds: Callable[[], list[bytes]]
    text: bool = False
    # structure-aware mutation of a seed (msgpack documents), used for part of the inputs
    structured: Callable[[random.Random, bytes], bytes] | None = None


def _files(pattern: str) -> list[bytes]:
    root = reference_root()
    if root is None:
        return []
    return [p.read_bytes() for p in sorted(root.glob(pattern))]


def _inspect(module_name: str) -> Callable[[bytes], object]:
    """detect + inspect + render + JSON, as ``kernelkit inspect [--json]`` does."""
    import importlib

    module = importlib.import_module(module_name)

    def read(data: bytes) -> object:
        if not module.detect(data, "fuzz"):
            return None
        info = module.inspect(data, "fuzz")
        module.render(info)
        return json.dumps(info)
    return read


# ----------------------------------------------------------------------------------- ELF
def read_elf(data: bytes) -> object:
    elf = E.ElfFile.parse(data)
    for sec in elf.sections:
        if sec.type in (E.SHT_SYMTAB, E.SHT_DYNSYM):
            elf.symbols(sec)
        elif sec.type in (E.SHT_REL, E.SHT_RELA):
            elf.relocations(sec)
        elif sec.type == E.SHT_NOTE:
            elf.notes(sec)
    for ph in elf.program_headers:
        if ph.type == E.PT_NOTE:
            elf.notes(ph)
    return elf


@cache
def elf_seeds() -> list[bytes]:
    return (_files("amdgpu/clang14/*.hsaco")[::4] + _files("amdgpu/clang19/*.hsaco")[::6]
            + _files("amdgpu/llvmlite/*.o") + _files("amdcl2/*.regen")[::3] + host_object_seeds())


# ----------------------------------------------------------------------------------- AMDGPU
@cache
def v2_seeds() -> list[bytes]:
    return _files("amdgpu/clang14/*v2.hsaco")


@cache
def v3_seeds() -> list[bytes]:
    return [d for d in _files("amdgpu/*/*.hsaco") + _files("amdgpu/llvmlite/*.o") if d not in v2_seeds()]


def _descriptor_bytes(v2: bool) -> list[bytes]:
    from kernelkit.formats.amdgpu.codeobject import CodeObject
    from kernelkit.formats.amdgpu.descriptor import KERNEL_DESCRIPTOR_SIZE
    from kernelkit.formats.amdgpu.kernel_code_t import AMD_KERNEL_CODE_T_SIZE

    out = []
    for data in (v2_seeds() if v2 else v3_seeds()):
        co = CodeObject.parse(data)
        syms = co._symbols()
        for k in co.metadata.kernels:
            sym = syms.get(k.name if v2 else k.symbol)
            if sym is not None:
                out.append(co.elf.symbol_data(sym, AMD_KERNEL_CODE_T_SIZE if v2 else KERNEL_DESCRIPTOR_SIZE))
    return sorted(set(out))


def read_descriptor(data: bytes) -> object:
    from kernelkit.formats.amdgpu.descriptor import KernelDescriptor
    from kernelkit.formats.amdgpu.target_id import processor_by_name

    d = KernelDescriptor.parse(data)
    for proc in (None, processor_by_name("gfx90a"), processor_by_name("gfx1100"), processor_by_name("gfx1200")):
        json.dumps(d.fields(proc))
    return d


def read_kernel_code(data: bytes) -> object:
    from kernelkit.formats.amdgpu.kernel_code_t import AmdKernelCode

    k = AmdKernelCode.parse(data)
    return json.dumps(k.fields())


NT_AMDGPU_METADATA = 32


def mutate_v3_metadata(rng: random.Random, data: bytes) -> bytes:
    """The code object with its NT_AMDGPU_METADATA msgpack document mutated value by value."""
    import msgpack

    elf = E.ElfFile.parse(data)
    sec = elf.sections_of_type(E.SHT_NOTE)[0]
    notes = elf.notes(sec)
    out = []
    for n in notes:
        if n.type == NT_AMDGPU_METADATA:
            doc = mutate_document(rng, msgpack.unpackb(n.desc, raw=False, strict_map_key=False))
            n = E.Note(n.owner, n.type, msgpack.packb(doc, use_bin_type=True), n.owner_raw)
        out.append(n)
    sec.data = E.encode_notes(out, sec.addralign, little=elf.little)
    elf.layout()
    return elf.to_bytes()


def mutate_kkhost_body(rng: random.Random, data: bytes) -> bytes:
    import msgpack

    from kernelkit.targets.host.binary import MAGIC

    body = msgpack.unpackb(data[len(MAGIC):], raw=False)
    return MAGIC + msgpack.packb(mutate_document(rng, body), use_bin_type=True)


# ----------------------------------------------------------------------------------- bundles
@cache
def host_object_seeds() -> list[bytes]:
    from kernelkit.formats.amdgpu.hostobj import host_object

    plain, packed = bundle_seeds(), compressed_bundle_seeds()
    if not plain or not packed:
        return []
    return [host_object(plain), host_object(packed), host_object(plain + packed)]


@cache
def bundle_seeds() -> list[bytes]:
    return _files("amdgpu/bundle/*.uncompressed.hipfb")


@cache
def compressed_bundle_seeds() -> list[bytes]:
    from kernelkit.formats.amdgpu.bundle import compress

    real = _files("amdgpu/bundle/*.compressed.hipfb")
    # zlib and the version-3 header too (CCOB v3 has 64-bit sizes), made by our own writer
    return real + [compress(p, method=m, version=v) for p in bundle_seeds() for m, v in
                   (("zlib", 2), ("zstd", 3), ("zlib", 1))]


# ----------------------------------------------------------------------------------- KKHOST
@cache
def kkhost_seeds() -> list[bytes]:
    from kernelkit.runtime.program import Program

    return [Program(KKHOST_SOURCE).build().binary]


def read_kkhost(data: bytes) -> object:
    from kernelkit.runtime.program import Program

    _inspect("kernelkit.targets.host.inspect")(data)
    prog = Program.from_binary(data)
    return [prog.kernel(name).signature for name in prog.kernel_names]


# ----------------------------------------------------------------------------------- DWARF
DWARF_SOURCE = """
float twice(float v) { return 2.0f * v; }
kernel void saxpy(float a, global const float *x, global float *y, local float *tmp, int bias) {
    size_t i = get_global_id(0);
    float t = a * x[i];
    tmp[get_local_id(0)] = t;
    if (t > 0.0f)
        y[i] = twice(t) + y[i] + bias;
}
"""


@cache
def dwarf_seeds() -> list[bytes]:
    """-g builds for a wave64 and a wave32 target (kernelkit's own compiler, through the CLI)."""
    import tempfile

    from kernelkit.cli import main

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.cl"
        src.write_text(DWARF_SOURCE)
        for target, version in (("gfx90a:xnack-", "4"), ("gfx1100", "6")):
            path = Path(tmp) / f"{version}.hsaco"
            if main(["build", str(src), "-t", target, "--code-object-version", version, "-O0", "--option=-g",
                     "-o", str(path)]) != 0:
                raise RuntimeError(f"fuzz: the -g build for {target} failed")
            out.append(path.read_bytes())
    return out


def read_dwarf(data: bytes) -> object:
    from kernelkit.formats.amdgpu import inspect as amdgpu

    info = amdgpu.debug_info(data, "fuzz")
    amdgpu.render_debug(info)
    return json.dumps(info)


# ----------------------------------------------------------------------------------- SPIR-V
SPIRV_SOURCES = (("examples/saxpy.cl", "CL1.2", 64), ("examples/reduce.cl", "CL1.2", 32),
                 ("tests/corpus/address_spaces.cl", "CL1.2", 64), ("tests/corpus/atomics.cl", "CL1.2", 32),
                 ("tests/corpus/atomics_c11.cl", "CL2.0", 64), ("tests/corpus/constant_data.cl", "CL1.2", 64),
                 ("tests/corpus/control_flow.cl", "CL1.2", 64), ("tests/corpus/conversions.cl", "CL1.2", 64),
                 ("tests/corpus/generic_cl30.cl", "CL2.0", 64), ("tests/corpus/images.cl", "CL1.2", 64),
                 ("tests/corpus/images_cl20.cl", "CL2.0", 32), ("tests/corpus/math.cl", "CL1.2", 64),
                 ("tests/corpus/struct_args.cl", "CL1.2", 32), ("tests/corpus/workgroup_cl20.cl", "CL2.0", 64))


@cache
def spirv_seeds() -> list[bytes]:
    """SPIR-V modules of example and corpus kernels made by kernelkit's own ``build --emit spirv`` (clang +
    LLVM's SPIR-V backend, in a worker; spirv64 and spirv32), the hand-written assembly of the SPIR-V
    tests (spec constants, OpCopyMemory) when spirv-as is installed, and the Khronos translator's module of
    the pipes and device-side enqueue corpus file (which clang's backend cannot write) when clang-15 and
    llvm-spirv-15 are installed."""
    import shutil
    import subprocess
    import tempfile

    from kernelkit.builder import build_spirv

    out = []
    for rel, std, bits in SPIRV_SOURCES:
        path = ROOT / rel
        out.append(build_spirv(path.read_text(), [f"-cl-std={std}"], filename=str(path), bits=bits).binary)
    assembler = shutil.which("spirv-as")
    for asm in sorted((ROOT / "tests" / "frontend" / "spirv_asm").glob("*.spvasm")) if assembler else ():
        out.append(subprocess.run([assembler, "--target-env", "opencl2.0", str(asm), "-o", "-"], check=True,
                                  capture_output=True).stdout)
    clang, translator = shutil.which("clang-15"), shutil.which("llvm-spirv-15")
    if clang and translator:
        with tempfile.TemporaryDirectory() as tmp:
            bitcode, module = Path(tmp) / "pipes.bc", Path(tmp) / "pipes.spv"
            subprocess.run([clang, "-c", "-emit-llvm", "-target", "spir64-unknown-unknown", "-cl-std=CL2.0", "-O0",
                            "-Xclang", "-finclude-default-header", str(ROOT / "tests" / "corpus" / "pipes_cl20.cl"),
                            "-o", str(bitcode)], check=True, capture_output=True)
            subprocess.run([translator, str(bitcode), "-o", str(module)], check=True, capture_output=True)
            out.append(module.read_bytes())
    return out


def read_spirv(data: bytes) -> object:
    """As ``kernelkit signature k.spv`` and a build of a SPIR-V module read it: the module translated to
    kernelkit IR, printed, and each kernel's signature."""
    from kernelkit.abi.signature import signatures_from_ir
    from kernelkit.commands.signature import render
    from kernelkit.frontend.spirv import translate

    module = translate(data)
    str(module)
    signatures = signatures_from_ir(module)
    render(signatures)
    return json.dumps({"kernels": [s.to_json() for s in signatures]})


TARGETS: dict[str, Target] = {t.name: t for t in [
    Target("elf", read_elf, elf_seeds),
    Target("amdgpu-v2", _inspect("kernelkit.formats.amdgpu.inspect"), v2_seeds),
    Target("amdgpu-v3", _inspect("kernelkit.formats.amdgpu.inspect"), v3_seeds, structured=mutate_v3_metadata),
    Target("descriptor", read_descriptor, lambda: _descriptor_bytes(False)),
    Target("amd-kernel-code", read_kernel_code, lambda: _descriptor_bytes(True)),
    Target("bundle", _inspect("kernelkit.formats.amdgpu.inspect"), bundle_seeds),
    Target("compressed-bundle", _inspect("kernelkit.formats.amdgpu.inspect"), compressed_bundle_seeds),
    Target("host-object", _inspect("kernelkit.formats.amdgpu.inspect"), host_object_seeds),
    Target("amdil-text", _inspect("kernelkit.formats.amdil.inspect"),
           lambda: _files("amdil/hlc-juniper/*.il"), text=True),
    Target("amdil-catalyst", _inspect("kernelkit.formats.amdil.inspect"),
           lambda: _files("amdil/catalyst-clo/*.clo")),
    Target("cl2", _inspect("kernelkit.formats.amdcl2.inspect"), lambda: _files("amdcl2/*.regen")),
    Target("visa-binary", _inspect("kernelkit.formats.visa.inspect"), lambda: _files("visa/*/*.isa")),
    Target("visa-text", _inspect("kernelkit.formats.visa.inspect"),
           lambda: _files("visa/*/*.visaasm") + _files("visa/*.visaasm"), text=True),
    Target("kkhost", read_kkhost, kkhost_seeds, structured=mutate_kkhost_body),
    Target("dwarf", read_dwarf, dwarf_seeds),
    Target("spirv", read_spirv, spirv_seeds),
]}


def fuzz_input(rng: random.Random, target: Target, seeds: list[bytes]) -> bytes:
    """One input for ``target``: a seed mutated byte-wise, or (a third of the time, for targets that
    have one) by the structure-aware mutation."""
    from fuzz.mutate import mutate

    seed = rng.choice(seeds)
    if target.structured is not None and rng.random() < 1 / 3:
        return target.structured(rng, seed)
    return mutate(rng, seed, seeds, text=target.text)
