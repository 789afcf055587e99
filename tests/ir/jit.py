"""Run IR text natively through llvmlite's MCJIT (the host CPU) — an execution oracle."""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm

_ENGINES: list = []  # keep engines alive while their functions may be called


def jit_function(text: str, name: str, restype, *argtypes):
    return jit_module(text)(name, restype, *argtypes)


def jit_module(text: str):
    """Compile `text` once; returns lookup(name, restype, *argtypes) -> ctypes function."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = llvm.parse_assembly(text)
    module.verify()
    target = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, target)
    engine.finalize_object()
    _ENGINES.append((engine, module))

    def lookup(name: str, restype, *argtypes):
        address = engine.get_function_address(name)
        assert address, f"no function {name}"
        return ctypes.CFUNCTYPE(restype, *argtypes)(address)

    lookup.engine = engine  # type: ignore[attr-defined]  (for global variable addresses)
    return lookup
