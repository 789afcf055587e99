"""Every builtin a kernel can call resolves to a library definition (names as clang
-fdeclare-opencl-builtins mangles them), corpus kernels included; the library also
builds for AMDGPU without any C library call."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clc_harness import declared_builtins, kernel_ir
from conftest import corpus_manifest

from kernelkit.mux.clc import defined_builtins, library_ir
from kernelkit.mux.clc.types import COMPONENTS, VECTOR_WIDTHS, WIDTHS, vec

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
INTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
FLOATS = ("half", "float", "double")
SPACES = ("__private", "__global", "__local", "__generic")
SIGNED = {"char": "char", "uchar": "char", "short": "short", "ushort": "short", "int": "int", "uint": "int",
          "long": "long", "ulong": "long", "half": "short", "float": "int", "double": "long"}

# OpenCL C 3.0 s6.15.2-s6.15.7 function names by signature shape (gentype = T).
FLOAT_UNARY = ("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc erf exp exp2 "
               "exp10 expm1 fabs floor log log2 log10 log1p logb rint round rsqrt sin sinh sinpi sqrt tan tanh tanpi "
               "tgamma trunc lgamma degrees radians sign").split()
FLOAT_BINARY = ("atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder fmax fmin max "
                "min step").split()
INT_UNARY = "abs clz ctz popcount".split()
INT_BINARY = "abs_diff add_sat hadd rhadd mul_hi rotate sub_sat max min".split()


class Calls:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, params: list[str], expr: str) -> None:
        names = [f"a{i}" for i in range(len(params))]
        sig = ", ".join(f"{t} {n}" for t, n in zip(params, names, strict=True))
        self.lines.append(f"void w{len(self.lines)}({sig}) {{ {expr.format(*names)}; }}")


def _all_calls() -> str:
    c = Calls()
    for f in FLOATS:
        for n in WIDTHS:
            T, Iv = vec(f, n), vec("int", n)
            for name in FLOAT_UNARY:
                c.add([T], f"{name}({{0}})")
            for name in FLOAT_BINARY:
                c.add([T, T], f"{name}({{0}}, {{1}})")
            for name in ("fma", "mad", "clamp", "mix", "smoothstep"):
                c.add([T, T, T], f"{name}({{0}}, {{1}}, {{2}})")
            c.add([T], "ilogb({0})")
            for name in ("ldexp", "pown", "rootn"):
                c.add([T, Iv], f"{name}({{0}}, {{1}})")
            for name in ("isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                         "islessgreater", "isordered", "isunordered"):
                c.add([T, T], f"{name}({{0}}, {{1}})")
            for name in ("isfinite", "isinf", "isnan", "isnormal", "signbit"):
                c.add([T], f"{name}({{0}})")
            c.add([T, T, vec(SIGNED[f], n)], "select({0}, {1}, {2})")
            c.add([T, T, T], "bitselect({0}, {1}, {2})")
            if n > 1:
                for name in ("fmax", "fmin", "max", "min"):
                    c.add([T, f], f"{name}({{0}}, {{1}})")
                c.add([T, f, f], "clamp({0}, {1}, {2})")
                c.add([T, T, f], "mix({0}, {1}, {2})")
                c.add([f, T], "step({0}, {1})")
                c.add([f, f, T], "smoothstep({0}, {1}, {2})")
                c.add([T, "int"], "ldexp({0}, {1})")
            for sp in SPACES:
                for name in ("fract", "modf", "sincos"):
                    c.add([T, f"{sp} {T} *"], f"{name}({{0}}, {{1}})")
                for name in ("frexp", "lgamma_r"):
                    c.add([T, f"{sp} {Iv} *"], f"{name}({{0}}, {{1}})")
                c.add([T, T, f"{sp} {Iv} *"], "remquo({0}, {1}, {2})")
            if n <= 4:
                for name in ("length", "normalize"):
                    c.add([T], f"{name}({{0}})")
                for name in ("dot", "distance"):
                    c.add([T, T], f"{name}({{0}}, {{1}})")
                if f == "float":
                    for name in ("fast_length", "fast_normalize"):
                        c.add([T], f"{name}({{0}})")
                    c.add([T, T], "fast_distance({0}, {1})")
            if n in (3, 4):
                c.add([T, T], "cross({0}, {1})")
            if f == "float":
                for pre in ("half_", "native_"):
                    for name in "cos exp exp2 exp10 log log2 log10 recip rsqrt sin sqrt tan".split():
                        c.add([T], f"{pre}{name}({{0}})")
                    for name in ("divide", "powr"):
                        c.add([T, T], f"{pre}{name}({{0}}, {{1}})")
            code = {"half": "ushort", "float": "uint", "double": "ulong"}[f]
            c.add([vec(code, n)], "nan({0})")
    for t in INTS:
        for n in WIDTHS:
            T = vec(t, n)
            for name in INT_UNARY:
                c.add([T], f"{name}({{0}})")
            for name in INT_BINARY:
                c.add([T, T], f"{name}({{0}}, {{1}})")
            for name in ("mad_hi", "mad_sat", "clamp", "bitselect"):
                c.add([T, T, T], f"{name}({{0}}, {{1}}, {{2}})")
            c.add([T, T, vec(SIGNED[t], n)], "select({0}, {1}, {2})")
            c.add([T, T, vec("u" + SIGNED[t], n)], "select({0}, {1}, {2})")
            if n > 1:
                c.add([T, t], "max({0}, {1})")
                c.add([T, t, t], "clamp({0}, {1}, {2})")
            if t in ("char", "short", "int", "long"):
                c.add([T], "any({0})")
                c.add([T], "all({0})")
            if t in ("int", "uint"):
                c.add([T, T], "mul24({0}, {1})")
                c.add([T, T, T], "mad24({0}, {1}, {2})")
            if t in ("char", "uchar", "short", "ushort", "int", "uint"):
                c.add([T, vec("u" + t.lstrip("u"), n)], "upsample({0}, {1})")
    for t in (*INTS, *FLOATS):
        for dst in (*INTS, *FLOATS):
            for n in WIDTHS:
                for sat in ("", "_sat") if dst not in FLOATS else ("",):
                    for rnd in ("", "_rte", "_rtz", "_rtp", "_rtn"):
                        c.add([vec(t, n)], f"convert_{vec(dst, n)}{sat}{rnd}({{0}})")
        for n in VECTOR_WIDTHS:
            T = vec(t, n)
            for sp in (*SPACES, "__constant"):
                c.add(["size_t", f"const {sp} {t} *"], f"vload{n}({{0}}, {{1}})")
                if sp != "__constant":
                    c.add([T, "size_t", f"{sp} {t} *"], f"vstore{n}({{0}}, {{1}}, {{2}})")
        if t in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"):
            mask = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong", "half": "ushort",
                    "float": "uint", "double": "ulong"}.get(t, t)
            for m in (2, 4, 8, 16):
                for n in (2, 4, 8, 16):
                    c.add([vec(t, n), vec(mask, m)], "shuffle({0}, {1})")
                    c.add([vec(t, n), vec(t, n), vec(mask, m)], "shuffle2({0}, {1}, {2})")
    for sp in (*SPACES, "__constant"):
        for n in (1, *VECTOR_WIDTHS):
            w = "" if n == 1 else str(n)
            for a in ("", "a") if n > 1 else ("",):  # no scalar vloada_half/vstorea_half
                c.add(["size_t", f"const {sp} half *"], f"vload{a}_half{w}({{0}}, {{1}})")
                if sp == "__constant":
                    continue
                for rnd in ("", "_rte", "_rtz", "_rtp", "_rtn"):
                    for src in ("float", "double"):
                        c.add([vec(src, n), "size_t", f"{sp} half *"], f"vstore{a}_half{w}{rnd}({{0}}, {{1}}, {{2}})")
    for sp in ("__global", "__local"):
        for t in ("int", "uint"):
            P = f"volatile {sp} {t} *"
            for op in "add sub xchg min max and or xor".split():
                c.add([P, t], f"atomic_{op}({{0}}, {{1}})")
                c.add([P, t], f"atom_{op}({{0}}, {{1}})")
            for op in ("inc", "dec"):
                c.add([P], f"atomic_{op}({{0}})")
                c.add([P], f"atom_{op}({{0}})")
            c.add([P, t, t], "atomic_cmpxchg({0}, {1}, {2})")
            c.add([P, t, t], "atom_cmpxchg({0}, {1}, {2})")
        for t in ("long", "ulong"):
            P = f"volatile {sp} {t} *"
            for op in "add sub xchg min max and or xor".split():
                c.add([P, t], f"atom_{op}({{0}}, {{1}})")
            c.add([P, t, t], "atom_cmpxchg({0}, {1}, {2})")
        c.add([f"volatile {sp} float *", "float"], "atomic_xchg({0}, {1})")
    for sp in ("__global", "__local", "__generic"):
        for a, t in (("atomic_int", "int"), ("atomic_uint", "uint"), ("atomic_long", "long"),
                     ("atomic_ulong", "ulong"), ("atomic_float", "float"), ("atomic_double", "double")):
            P = f"volatile {sp} {a} *"
            c.add([P, t], "atomic_init({0}, {1})")
            c.add([P, t], "atomic_store({0}, {1})")
            c.add([P, t], "atomic_store_explicit({0}, {1}, memory_order_release)")
            c.add([P, t], "atomic_store_explicit({0}, {1}, memory_order_release, memory_scope_work_group)")
            c.add([P], "atomic_load({0})")
            c.add([P], "atomic_load_explicit({0}, memory_order_acquire, memory_scope_device)")
            c.add([P, t], "atomic_exchange_explicit({0}, {1}, memory_order_relaxed)")
            ops = ("add", "sub", "min", "max") if t in ("float", "double") else ("add", "sub", "or", "xor", "and",
                                                                                  "min", "max")
            for op in ops:
                c.add([P, t], f"atomic_fetch_{op}({{0}}, {{1}})")
                c.add([P, t], f"atomic_fetch_{op}_explicit({{0}}, {{1}}, memory_order_relaxed, memory_scope_device)")
            exp_spaces = ("__generic",) if sp == "__generic" else ("__global", "__local", "__private")
            for es in exp_spaces:
                for v in ("weak", "strong"):
                    c.add([P, f"{es} {t} *", t], f"atomic_compare_exchange_{v}({{0}}, {{1}}, {{2}})")
                    c.add([P, f"{es} {t} *", t], f"atomic_compare_exchange_{v}_explicit({{0}}, {{1}}, {{2}}, "
                          "memory_order_acq_rel, memory_order_acquire, memory_scope_work_group)")
        c.add([f"volatile {sp} atomic_flag *"], "atomic_flag_test_and_set({0})")
        c.add([f"volatile {sp} atomic_flag *"], "atomic_flag_clear_explicit({0}, memory_order_release)")
    return "\n".join(c.lines)


def test_every_builtin_call_is_defined() -> None:
    ir = kernel_ir(_all_calls(), opt=0, extra=("-Wno-everything",))
    declared = declared_builtins(ir)
    assert len(declared) > 11000
    missing = sorted(declared - defined_builtins())
    assert not missing, f"{len(missing)} builtins referenced but not defined, e.g. {missing[:20]}"


def _mux_lowered(name: str) -> bool:
    """Work-item, synchronisation, async-copy and group builtins: the mux lowering replaces them."""
    from kernelkit.mux.builtins import (
        OPENCL_ASYNC_COPIES,
        OPENCL_BARRIERS,
        OPENCL_FENCES,
        OPENCL_WORK_ITEM_BUILTINS,
        parse_opencl_group_function,
    )
    from kernelkit.mux.mangling import try_demangle

    demangled = try_demangle(name)
    if demangled is None:
        return False
    base = demangled[0] if isinstance(demangled, tuple) else getattr(demangled, "name", demangled)
    if base in OPENCL_WORK_ITEM_BUILTINS or base in OPENCL_BARRIERS or base in OPENCL_FENCES:
        return True
    return base in OPENCL_ASYNC_COPIES or parse_opencl_group_function(base) is not None


def test_corpus_builtins_are_defined() -> None:
    from kernelkit.frontend import compile_opencl

    manifest = corpus_manifest()
    files = manifest["files"]
    checked, unresolved = 0, {}
    for fname, info in files.items():
        if info.get("images"):
            continue  # image builtins are the image runtime's, not this library's
        std = info.get("cl_std")
        options = [f"-cl-std={std}"] if std else []
        ir = compile_opencl((CORPUS / fname).read_text(), options, filename=fname).ir_text
        for name in declared_builtins(ir):
            checked += 1
            if name not in defined_builtins() and not _mux_lowered(name):
                unresolved.setdefault(name, []).append(fname)
    assert checked > 50
    assert not unresolved, unresolved


def test_amdgpu_library_needs_no_c_library() -> None:
    ir = library_ir("amdgcn-amd-amdhsa")
    externals = {n for n in re.findall(r"^declare\b[^@]*@([\w.$]+)\(", ir, re.M) if not n.startswith("llvm.")}
    assert externals == set()
    assert defined_builtins("amdgcn-amd-amdhsa") >= {"_Z3sinf", "_Z3powdd", "_Z20convert_int4_sat_rteDv4_f"}


def test_portable_spir_library_needs_no_c_library() -> None:
    """SPIR-mangled library for GPU targets that retarget SPIR kernels: no libm calls."""
    ir = library_ir("spir64-unknown-unknown", portable_math=True)
    externals = {n for n in re.findall(r"^declare\b[^@]*@([\w.$]+)\(", ir, re.M) if not n.startswith("llvm.")}
    assert externals == set()
    intrinsics = set(re.findall(r"^declare\b[^@]*@llvm\.(\w+)", ir, re.M))
    # none of the transcendental intrinsics a GPU backend would turn into libm calls
    assert not intrinsics & {"sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "atan2",
                             "asin", "acos", "atan", "sinh", "cosh", "tanh"}, intrinsics


@pytest.mark.parametrize("names", [
    ["_Z3sinf", "_Z3powff", "_Z4tanhd", "_Z3expd", "_Z6lgammaf", "_Z4erfcd", "_Z6tgammaf", "_Z4cbrtf"],
    ["_Z16convert_half_rtzd", "_Z20convert_int4_sat_rteDv4_f", "_Z7mad_satlll", "_Z6mul_hiDv2_mS_"],
    ["_Z3sind", "_Z3tanDv4_f", "_Z6remquoffPi", "_Z11vload_half4mPKDh", "__to_local", "_Z9get_fencePv",
     "_Z25atomic_fetch_add_explicitPVU7_Atomicii12memory_order12memory_scope", "_Z10atomic_incPU3AS3Vi"],
])
def test_amdgpu_object_code(names: list[str]) -> None:
    """The AMDGPU backend generates code for the library (gfx90a) with no unresolved calls."""
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    ir = library_ir("amdgcn-amd-amdhsa", only=names)
    module = llvm.parse_assembly(ir)
    module.verify()
    tm = llvm.Target.from_triple("amdgcn-amd-amdhsa").create_target_machine(cpu="gfx90a", opt=2)
    asm = tm.emit_assembly(module)
    for n in names:
        assert re.search(rf"^{re.escape(n)}:", asm, re.M), n
    calls = set(re.findall(r"s_(?:swappc|setpc)_b64|\b(\w+)@rel32@lo", asm))
    assert all(c in names or c.startswith(("_Z", "kk_")) or c == "" for c in calls), calls


def test_component_names() -> None:
    assert COMPONENTS[:4] == "0123"


# OpenCL 3.0 API s5.8.6.4: the math build options the host/AMDGPU targets pass to the library
MATH_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")


@pytest.mark.parametrize("option", MATH_OPTIONS)
def test_math_build_options_are_accepted(option: str) -> None:
    ir = library_ir("x86_64-unknown-linux-gnu", opts=[option], families=["ndrange", "common"], use_cache=False)
    assert "_Z7degreesf" in defined_builtins_of(ir)
    if option == "-cl-denorms-are-zero":
        assert re.search(r"denormal-fp-math[^\n]*preserve-sign", ir)


def defined_builtins_of(ir: str) -> set[str]:
    return set(re.findall(r"^define\b[^@]*@(_Z\w+)\(", ir, re.M))
