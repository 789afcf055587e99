"""The library build: subsets, determinism, errors, caching."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from kernelkit import CompileError
from kernelkit.mux.clc import family_names, library_ir, subset
from kernelkit.mux.clc.build import Family, compile_family, defined_names


def test_subset_keeps_exactly_the_reachable_definitions() -> None:
    full = library_ir("spir64-unknown-unknown", families=["convert_scalar", "convert_vector"])
    part = subset(full, ["_Z17convert_half4_rtzDv4_f"])
    names = defined_names(part)
    # the vector conversion calls the scalar one, which calls the software half rounding
    assert "_Z17convert_half4_rtzDv4_f" in names and "_Z16convert_half_rtzf" in names
    assert "_Z11convert_intf" not in names
    llvm.parse_assembly(part).verify()
    assert defined_names(subset(full, [])) == frozenset()


def test_build_is_deterministic() -> None:
    a = library_ir("spir64-unknown-unknown", families=["integer"], use_cache=False)
    b = library_ir("spir64-unknown-unknown", families=["integer"], use_cache=False)
    assert a == b


def test_unknown_family() -> None:
    with pytest.raises(ValueError, match="unknown builtin library family"):
        library_ir("spir64-unknown-unknown", families=["no_such_family"])
    assert "math_scalar" in family_names() and "convert_vector" in family_names()


def test_compile_errors_name_file_line_and_column() -> None:
    bad = Family("broken", lambda: '#include "clc.h"\nOVL float f(float x) { return x +; }\n')
    with pytest.raises(CompileError, match=r"broken\.cl:2:\d+: error"):
        compile_family(bad, "spir64-unknown-unknown")


def test_host_ir_is_retargeted(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(tmp_path))
    ir = library_ir("x86_64-unknown-linux-gnu", families=["ndrange"])
    assert 'target triple = "x86_64-unknown-linux-gnu"' in ir and "spir_func" not in ir
    assert list(tmp_path.glob("clc/*/*")), "the build is cached"
    # SPIR mangling stays (kernels are SPIR): generic pointers are AS4
    assert "@_Z10ndrange_2DPU3AS4Km(" in ir


def test_library_ir_round_trips_through_kernelkit_ir() -> None:
    """Targets rewrite the linked module with kernelkit.ir: a sample of every family parses
    there and prints IR that LLVM verifies."""
    import random

    from kernelkit import ir as kir
    from kernelkit.mux.clc import defined_builtins

    names = sorted(defined_builtins())
    sample = random.Random(3).sample(names, 60) + ["_Z3sinf", "_Z6vload4mPU3AS1Kf", "__to_global"]
    text = library_ir("spir64-unknown-unknown", only=sample)
    module = kir.parse(text)
    llvm.parse_assembly(str(module)).verify()
    assert {f.name for f in module.functions if not f.is_declaration} >= set(sample)
