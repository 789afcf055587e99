"""What a vectorised host kernel calls: the shared probe of the vector-math tests (their oracle is
the instruction stream itself — a builtin in lane form leaves only vector intrinsics in the
``__vecz_v<W>_<kernel>`` body, a per-lane library call shows up by name)."""

from __future__ import annotations

import re

import kernelkit


def vectorised_bodies(source: str, kernels: tuple[str, ...]) -> tuple[int, dict[str, str]]:
    """(W, {kernel: the text of its W-lane body before the final -O3}) for ``source`` built with
    -cl-wfv=always; every kernel must have been vectorised at the same W."""
    from kernelkit.targets.host.codegen import _LAST_IR, compile_host

    mux = kernelkit.Program(source, ["-cl-wfv=always"])
    mux.build()
    code = compile_host(mux._binary.mux_ir, options=["-cl-wfv=always"], keep_ir=True)
    w = code.vectorised[kernels[0]]
    assert w > 1 and all(code.vectorised[k] == w for k in kernels)
    text = _LAST_IR["text"]
    bodies = {}
    for kernel in kernels:
        body = text[text.index(f"@__vecz_v{w}_{kernel}("):]
        bodies[kernel] = body[:body.index("\n}\n")]
    return w, bodies


def called_functions(body: str) -> set[str]:
    """The names of the functions and intrinsics ``body`` calls."""
    return set(re.findall(r"call [^@]*@([\w.]+)\(", body))


def scalar_calls(body: str, w: int, *, lane_pointers: bool = False) -> set[str]:
    """The calls of ``body`` that are not W-lane vector intrinsics; with ``lane_pointers``, the
    masked gathers/scatters through W lane pointers (per-lane private variables) count as vector."""
    pointers = rf"(\.v{w}p0)?" if lane_pointers else ""
    vector = re.compile(rf"llvm\.[\w.]+\.v{w}(f32|f64|i32|i64|i1){pointers}")
    return {c for c in called_functions(body) if not vector.fullmatch(c)}
