"""SPIR-V specialisation constants (issue #14 item 3; spec 003 "Context" getSpecializableConstants,
BaseModule::compileSPIRV's spirv_spec_info).

The module is SPIR-V text assembled by spirv-as and validated by spirv-val. Oracles: the constants'
declarations in that text (ids, types, defaults), spirv-opt (``--set-spec-const-default-value`` +
``--freeze-spec-const`` specialises the same module independently; it must run like ours), numpy.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from kernelkit.frontend.spirv.spec_constants import SpecializableConstant, SpecializationInfo
from kernelkit.mux import Context, MuxError, Result
from kernelkit.mux.registry import find_compiler

ASM = Path(__file__).parent / "spirv_asm" / "spec_affine.spvasm"
X = np.arange(16, dtype=np.float32) - 4


def _tool(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(args, input=stdin, capture_output=True, check=True).stdout


@functools.cache
def affine_spv() -> bytes:
    out = _tool(require_tool("spirv-as"), "--target-env", "opencl2.0", str(ASM), "-o", "-")
    _tool(require_tool("spirv-val"), "--target-env", "opencl2.0", "-", stdin=out)
    return out


def expected(scale=2.0, bias=3, negate=False, wide=0):
    """The kernel's formula (see the .spvasm): ±(x * scale + (bias * 2 + (uint)wide))."""
    total = np.float32((bias * 2 + (wide & 0xFFFFFFFF)) & 0xFFFFFFFF)
    z = X * np.float32(scale) + total
    return -z if negate else z


def run(spv: bytes, spec_constants=None) -> np.ndarray:
    out = np.zeros_like(X)
    kernelkit.Program(spv).build("host", spec_constants=spec_constants).affine(out, X, global_size=X.shape)
    return out


def test_get_specializable_constants_lists_id_type_and_default():
    assert Context().get_specializable_constants(affine_spv()) == {
        1: SpecializableConstant(1, "float", 32, 2.0),
        2: SpecializableConstant(2, "int", 32, 3),
        3: SpecializableConstant(3, "bool", 8, False),
        4: SpecializableConstant(4, "int", 64, 0),
    }


def test_get_specializable_constants_of_a_module_without_any_is_empty():
    words = _tool(require_tool("spirv-as"), "--target-env", "opencl2.0", "-o", "-", "-",
                  stdin=b"OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n")
    assert Context().get_specializable_constants(words) == {}


def test_defaults_apply_without_spec_constants():
    np.testing.assert_array_equal(run(affine_spv()), expected())


@pytest.mark.parametrize("values", [
    {1: 0.5, 2: 10, 3: True, 4: (1 << 32) + 7},
    {2: 0xFFFFFFFF},      # IMul wraps at 32 bits
    {1: -3.25, 3: False},
])
def test_program_build_spec_constants_match_spirv_opt_and_numpy(values):
    spirv_opt = require_tool("spirv-opt")
    spelled = " ".join(f"{k}:{str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items())
    frozen = _tool(spirv_opt, f"--set-spec-const-default-value={spelled}", "--freeze-spec-const",
                   "-o", "-", "-", stdin=affine_spv())
    ours = run(affine_spv(), values)
    names = {1: "scale", 2: "bias", 3: "negate", 4: "wide"}
    np.testing.assert_array_equal(ours, expected(**{names[k]: v for k, v in values.items()}))
    np.testing.assert_array_equal(ours, run(frozen))


def _module():
    info = find_compiler("host")
    target = info.create_target(Context(), None)
    target.init_with_builtins(None)
    return target.create_module()


def test_compile_spirv_takes_a_specialization_info():
    constants = Context().get_specializable_constants(affine_spv())
    spec = SpecializationInfo.from_values(constants, {1: 4.0, 2: 1})
    assert spec.entries == {1: (0, 4), 2: (4, 4)}
    assert spec.data == np.array([4.0], "<f4").tobytes() + (1).to_bytes(4, "little")
    module = _module()
    module.compile_spirv(affine_spv(), None, spec)
    text = str(module.llvm_module)
    assert "fmul float %" in text and "4.000000e+00" in text


@pytest.mark.parametrize(("values", "message"), [
    ({9: 1}, "no specialisation constant with SpecId 9"),
    ({2: 1.5}, "32-bit integer"),
    ({2: 1 << 32}, "does not fit 32 bits"),
    ({3: 2}, "is a bool"),
    ({1: "x"}, "not a number"),
])
def test_bad_spec_constants_are_invalid_value(values, message):
    module = _module()
    with pytest.raises(MuxError) as err:
        module.compile_spirv(affine_spv(), None, values)
    assert err.value.result == Result.INVALID_VALUE and message in str(err.value)
    assert message in module.log


def test_spec_constants_for_opencl_c_are_refused():
    with pytest.raises(kernelkit.KernelkitError, match="SPIR-V programs only"):
        kernelkit.Program("kernel void k(global int *a) { a[0] = 1; }").build("host", spec_constants={1: 2})
