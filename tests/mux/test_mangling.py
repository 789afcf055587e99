"""SPIR Itanium mangling against clang (names it emits for overloadable calls) and llvm-cxxfilt."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import CORPUS, require_tool

from kernelkit.errors import FormatError
from kernelkit.frontend import compile_opencl
from kernelkit.mux.mangling import OclType, demangle, mangle

S, V, P, N = OclType.scalar, OclType.vector, OclType.pointer, OclType.named

# (OpenCL C parameter list, the same as OclTypes, an argument list for a call)
CASES = [
    ("void", [], ""),
    ("uint d", [S("uint")], "0u"),
    ("global const float *a, global const float *b", [P("float", 1, "const")] * 2, "gf, gf"),
    ("global const float *a, const global float4 *b, global const float4 *c, float4 d",
     [P("float", 1, "const"), P(V("float", 4), 1, "const"), P(V("float", 4), 1, "const"), V("float", 4)],
     "gf, (global float4*)gf, (global float4*)gf, (float4)0"),
    ("local int *a, global int *b, local int *c, int d", [P("int", 3), P("int", 1), P("int", 3), S("int")],
     "(local int*)0, (global int*)gf, (local int*)0, 1"),
    ("volatile global uint *b, volatile global uint *c, const float *a",
     [P("uint", 1, "volatile"), P("uint", 1, "volatile"), P("float", 4, "const")],
     "(volatile global uint*)gf, (volatile global uint*)gf, (const float*)0"),
    ("float4 a, int4 b, float4 c, int4 d, global float4 *e, global float4 *f",
     [V("float", 4), V("int", 4), V("float", 4), V("int", 4), P(V("float", 4), 1), P(V("float", 4), 1)],
     "(float4)0, (int4)0, (float4)0, (int4)0, (global float4*)gf, (global float4*)gf"),
    ("half h, half2 h2, double2 d, long l, ulong ul, char c, uchar uc, short s, ushort us",
     [S("half"), V("half", 2), V("double", 2), S("long"), S("ulong"), S("char"), S("uchar"), S("short"),
      S("ushort")], "(half)0, (half2)0, (double2)0, 0l, 0ul, (char)0, (uchar)0, (short)0, (ushort)0"),
    ("generic int *a, private int *b, constant int *c, global int * global *d",
     [P("int", 4), P("int", 0), P("int", 2), P(P("int", 1), 1)],
     "(generic int*)0, (private int*)0, (constant int*)0, (global int* global*)0"),
    ("float3 a, global float3 *b, local const uchar16 *c, uchar16 d",
     [V("float", 3), P(V("float", 3), 1), P(V("uchar", 16), 3, "const"), V("uchar", 16)],
     "(float3)0, (global float3*)gf, (local const uchar16*)0, (uchar16)0"),
    ("event_t e, memory_scope s, memory_order o, event_t f",
     [N("ocl_event"), N("memory_scope"), N("memory_order"), N("ocl_event")],
     "(event_t)0, memory_scope_device, memory_order_relaxed, (event_t)0"),
    ("volatile local const int *a, volatile local const int *b, local int *c",
     [P("int", 3, "const", "volatile"), P("int", 3, "const", "volatile"), P("int", 3)],
     "(volatile local const int*)0, (volatile local const int*)0, (local int*)0"),
    # enough distinct components to need two-digit substitution numbers (S9_, SA_, ...)
    ("char2 a, char3 b, char4 c, char8 d, short2 e, short3 f, short4 g, short8 h, int2 i, int3 j, "
     "int4 k, int8 l, long2 m, long3 n, char2 o, long3 p, int8 q",
     [V("char", 2), V("char", 3), V("char", 4), V("char", 8), V("short", 2), V("short", 3), V("short", 4),
      V("short", 8), V("int", 2), V("int", 3), V("int", 4), V("int", 8), V("long", 2), V("long", 3),
      V("char", 2), V("long", 3), V("int", 8)],
     ", ".join(f"({t})0" for t in "char2 char3 char4 char8 short2 short3 short4 short8 int2 int3 int4 int8 "
               "long2 long3 char2 long3 int8".split())),
]


@pytest.fixture(scope="module")
def clang_names() -> list[str]:
    decls = "\n".join(f"void __attribute__((overloadable)) fn{i}({params});" for i, (params, _, _) in enumerate(CASES))
    calls = "\n".join(f"  fn{i}({args});" for i, (_, _, args) in enumerate(CASES))
    src = f"{decls}\nkernel void k(global float *gf) {{\n{calls}\n}}\n"
    ir = compile_opencl(src, ["-cl-std=CL2.0", "-O0"]).ir_text
    names = []
    for i in range(len(CASES)):
        fn = f"fn{i}"
        names.append(re.search(rf"call spir_func \S+ @(_Z{len(fn)}{fn}[^(]*)\(", ir).group(1))
    return names


@pytest.mark.parametrize("index", range(len(CASES)))
def test_mangle_matches_clang(clang_names, index):
    _, types, _ = CASES[index]
    name = f"fn{index}"
    assert mangle(name, types) == clang_names[index]
    assert demangle(clang_names[index]) == (name, types)


def _corpus_names() -> list[str]:
    names: set[str] = set()
    for path in sorted(CORPUS.glob("*.cl")):
        for std in ("CL2.0", "CL1.2"):
            try:
                ir = compile_opencl(path.read_text(), [f"-cl-std={std}", "-O0"], filename=str(path)).ir_text
            except Exception:  # noqa: BLE001 - a file needing another -cl-std
                continue
            names.update(re.findall(r"^declare .*?@(_Z\w+)\(", ir, flags=re.M))
            break
    return sorted(names)


def test_every_corpus_builtin_demangles_like_cxxfilt():
    cxxfilt = require_tool("llvm-cxxfilt")
    names = _corpus_names()
    assert len(names) > 100
    out = subprocess.run([cxxfilt], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    for name, expected in zip(names, out.splitlines(), strict=True):
        base, params = demangle(name)
        assert f"{base}({', '.join(p.itanium_text() for p in params)})" == expected, name
        assert mangle(base, params) == name


@pytest.mark.parametrize("bad", ["", "_Z", "_Z3fo", "_Z3foo", "_Z3fooS_", "_Z3fooDv4", "_Z3fooPU3AS", "_Z3fooPU3XY1i",
                                 "_Z3fooQ", "_Z99x", "_Z3fooDv_f", "get_global_id"])
def test_malformed_names_raise_format_error(bad):
    with pytest.raises(FormatError):
        demangle(bad)


def test_truncations_of_real_names_never_crash():
    for name in ["_Z2f2PU3AS1KfPU3AS1KDv4_fS3_S1_", "_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event"]:
        for cut in range(len(name)):
            try:
                demangle(name[:cut])
            except FormatError:
                pass


def test_corrupted_names_raise_only_format_error():
    import random

    rng = random.Random(1234)
    seeds = ["_Z2f2PU3AS1KfPU3AS1KDv4_fS3_S1_", "_Z11atomic_loadPU3AS4VU7_Atomici",
             "_Z2f714ocl_image2d_ro11ocl_samplerS_", "_Z6vload4mPU3AS1Kf"]
    alphabet = "_ZSPKVUrDvA0123456789fijmlhcst"
    for _ in range(3000):
        name = list(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            name[rng.randrange(2, len(name))] = rng.choice(alphabet)
        try:
            base, params = demangle("".join(name))
        except FormatError:
            continue
        assert isinstance(base, str) and all(isinstance(p, OclType) for p in params)
