"""clang (ziglang wheel, clang 22) compiling OpenCL C straight to amdgcn: the oracle of kernelkit's
AMDGPU layouts and compile path. Uses kernelkit's own OpenCL base header (the wheel has none)."""

from __future__ import annotations

import copy
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from conftest import corpus_manifest

from kernelkit.formats.amdgpu.codeobject import CodeObject

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
HEADER = ROOT / "kernelkit" / "frontend" / "include" / "kernelkit_opencl.h"
# the explicit-argument keys compared with clang's (V2's extra Align has no V3+ counterpart)
COMPARED_ARG_KEYS = ("name", "type_name", "offset", "size", "value_kind", "address_space", "access", "is_const",
                     "is_restrict", "is_volatile", "pointee_align")


# kernel keys that depend on the machine code, not on the source: register and spill counts,
# scratch, dynamic stack (clang's -nogpulib code calls its builtins as external functions), and
# the LDS a kernel's library code allocates (kernelkit's work-group collectives use LDS, clang's
# call external functions)
CODE_DEPENDENT_KEYS = (".sgpr_count", ".vgpr_count", ".agpr_count", ".sgpr_spill_count", ".vgpr_spill_count",
                       ".private_segment_fixed_size", ".uses_dynamic_stack", ".group_segment_fixed_size")


def source_metadata(co) -> dict:
    """The V3+ metadata document of a code object without the code-dependent kernel keys."""
    from kernelkit.formats.amdgpu import notes as N

    for n in co.elf.all_notes():
        rec = N.decode_note(n)
        if isinstance(rec, N.MetadataV3Note):
            doc = dict(rec.document)
            doc["amdhsa.kernels"] = sorted(({k: v for k, v in kernel.items() if k not in CODE_DEPENDENT_KEYS}
                                            for kernel in doc["amdhsa.kernels"]), key=lambda k: k[".name"])
            return doc
    raise AssertionError("no V3+ metadata note")


def explicit_args(kernel, as_version: int = 4) -> list[dict]:
    """The compared keys of a kernel's explicit arguments; ``as_version`` 2/3 turns clang 22's V4
    into what V2/V3 say (LLVM 14, reference/amdgpu/clang14/struct_image.*: image and sampler
    arguments in the constant address space)."""
    from kernelkit.formats.amdgpu.codeobject import arg_info

    args = [{key: arg_info(a).get(key) for key in COMPARED_ARG_KEYS} for a in kernel.args if not a.is_hidden]
    if as_version <= 3:
        for a in args:
            if a["value_kind"] in ("image", "sampler"):
                a["address_space"] = "constant"
    return args


@cache
def _manifest_files() -> dict[str, dict]:
    return corpus_manifest()["files"]


def corpus_files() -> dict[str, dict]:
    """The corpus manifest's files (a copy: parsing the YAML once per test run, not once per test)."""
    return copy.deepcopy(_manifest_files())


def build_corpus_file(name: str, target: str, version: int) -> bytes:
    """kernelkit's code object of a corpus file (in this process, no cache) at code object ``version``, with
    the -cl-std its manifest entry names (CL1.2 when none)."""
    from kernelkit.mux.registry import build_binary

    std = _manifest_files()[name].get("cl_std", "CL1.2")
    return build_binary((CORPUS / name).read_text(), target, [f"-cl-std={std}", f"-mcode-object-version={version}"],
                        filename=str(CORPUS / name))


@cache
def gfx90a_corpus_object(name: str, version: int) -> bytes:
    """``build_corpus_file(name, "gfx90a:xnack-", version)``, built once per run for the tests that read
    it (test_compile: every file at every version; test_device_library: images.cl, pipes_cl20.cl)."""
    return build_corpus_file(name, "gfx90a:xnack-", version)


@cache
def clang_code_object(path: str, mcpu: str, version: int, cl_std: str = "CL2.0", opt: str = "-O0") -> CodeObject:
    """clang -x cl -target amdgcn-amd-amdhsa -mcpu=... -mcode-object-version=N -cl-kernel-arg-info -c"""
    with tempfile.TemporaryDirectory(prefix="kk-clang-oracle-") as tmp:
        out = Path(tmp) / "k.o"
        _run_clang(path, mcpu, version, cl_std, opt, out)
        return CodeObject.parse(out.read_bytes())


def _run_clang(path: str, mcpu: str, version: int, cl_std: str, opt: str, out: Path) -> None:
    cmd = [sys.executable, "-m", "ziglang", "clang", "-x", "cl", f"-cl-std={cl_std}", "-cl-no-stdinc",
           "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins", "-Xclang", "-cl-ext=+all", "-include", str(HEADER), "-target",
           "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", f"-mcode-object-version={version}", "-cl-kernel-arg-info",
           "-nogpulib", opt, "-c", path, "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
