"""Step 0 of the host code generator reads the frontend's module through LLVM's own parser and
verifier (llvmlite's module API, no regexes over the text): invalid IR is one CompileError that
carries LLVM's diagnostic, whether or not the module calls a library builtin. Oracle: LLVM's
parser/verifier on the same text."""

from __future__ import annotations

import pytest

from kernelkit.errors import CompileError
from kernelkit.llvm_binding import llvm
from kernelkit.targets.host import codegen

INVALID = {
    # no builtin call: before, this reached kernelkit.ir's parser instead of LLVM's
    "undefined_value": "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                       "  store i32 %x, ptr addrspace(1) %p\n  ret void\n}\n",
    "undeclared_builtin": "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                          "  %v = call spir_func float @_Z4sqrtf(float 1.0)\n  ret void\n}\n",
    # parses, but LLVM's verifier refuses it
    "use_before_definition": "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                             "  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n"
                             "  store i32 %a, ptr addrspace(1) %p\n  ret void\n}\n",
}


def _llvm_diagnostic(text: str) -> str:
    try:
        module = llvm().parse_assembly(text)
        module.verify()
    except RuntimeError as exc:
        lines = str(exc).strip().splitlines()
        return next((line for line in lines if "error:" in line), lines[0])
    raise AssertionError("LLVM accepts the text")


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_frontend_ir_is_a_compile_error_with_llvms_diagnostic(case):
    text = INVALID[case]
    diagnostic = _llvm_diagnostic(text)
    with pytest.raises(CompileError, match="^host: invalid IR after the frontend") as exc:
        codegen.compile_host(text)
    assert diagnostic in str(exc.value)


def test_module_needing_no_library_is_left_as_it_is():
    text = ("define spir_kernel void @k(ptr addrspace(1) %p) {\n"
            "  store float 1.0, ptr addrspace(1) %p\n  ret void\n}\n")
    assert codegen.link_libraries(text) is text


def test_called_builtin_is_linked_from_the_library():
    text = ("declare spir_func float @_Z4sqrtf(float)\n"
            "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
            "  %v = call spir_func float @_Z4sqrtf(float 2.0)\n"
            "  store float %v, ptr addrspace(1) %p\n  ret void\n}\n")
    linked = llvm().parse_assembly(codegen.link_libraries(text))
    assert not linked.get_function("_Z4sqrtf").is_declaration
