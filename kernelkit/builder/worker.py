"""A build worker: a process that compiles OpenCL C for any target on request, so that LLVM
aborting (llvmlite's LLVM is an assertions build: a backend assertion or ``report_fatal_error``
ends the process) takes down the worker, never the caller.

Run as ``python -m kernelkit.builder.worker``. Requests and replies are ``protocol`` messages on
standard input and output; the worker's standard error is where LLVM writes why it aborted.
A request: ``{"source", "target", "options", "filename", "env", "cwd"}``. While it works the
worker sends ``{"stage": ..., "kernels": [...]}`` messages; it ends with ``{"ok": True,
"binary", "log", "deps", "kernels"}`` or ``{"ok": False, "error": kind, ...}``.
"""

from __future__ import annotations

import os
import sys
import traceback

from kernelkit.builder import REQUEST_ENV
from kernelkit.builder.protocol import read_message, write_message
from kernelkit.plugins import import_if_present


def apply_environment(env: dict, cwd: str | None) -> None:
    for name in REQUEST_ENV:
        value = env.get(name)
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = str(value)
    if cwd:
        try:
            os.chdir(cwd)
        except OSError:
            pass


def warm_all() -> None:
    """Import the whole compile chain and initialise LLVM (the build server, before it forks)."""
    import kernelkit.frontend.opencl  # noqa: F401
    import kernelkit.ir  # noqa: F401
    import kernelkit.mux.passes.pipeline  # noqa: F401
    from kernelkit.frontend.clang import clang_version
    from kernelkit.llvm_binding import llvm
    from kernelkit.mux.registry import TARGET_PACKAGES, get_compilers

    llvm()
    clang_version()
    get_compilers()
    for package in TARGET_PACKAGES:
        for part in ("target", "module", "codegen", "binary", "irpipeline", "runner"):
            import_if_present(f"kernelkit.targets.{package}.{part}")


def error_reply(exc: BaseException) -> dict:
    from kernelkit.errors import CompileError, KernelkitError
    from kernelkit.mux.result import MuxError

    reply: dict = {"ok": False, "message": str(getattr(exc, "message", None) or exc), "type": type(exc).__name__}
    if isinstance(exc, MuxError):
        reply["result"] = exc.result.name
    if isinstance(exc, CompileError):
        reply.update(error="compile", log=exc.log, diagnostics=[list(d) for d in exc.diagnostics])
    elif isinstance(exc, MuxError):
        reply["error"] = "mux"
    elif isinstance(exc, KernelkitError):
        reply["error"] = "kernelkit"
    else:
        reply.update(error="internal", log="".join(traceback.format_exception(exc)))
    return reply


def _resolve(name: str):
    """(Info, device) of a target name, importing only the target package its spelling names (the
    registry's full search when that package does not take it)."""
    from kernelkit.builder.kinds import target_kind
    from kernelkit.mux.registry import resolve_target

    module = import_if_present(f"kernelkit.targets.{target_kind(name)}.info")
    for info in getattr(module, "get_compilers", list)():
        device = info.parse_target(name)
        if device is not None:
            return info, device
    return resolve_target(name)


def build(request: dict, send, *, assembly: bool = False) -> dict:
    """Compile one request through the ComputeMux chain (to the binary, or with ``assembly`` to the
    target's assembly text); ``send`` reports stages."""
    from kernelkit.errors import KernelkitError
    from kernelkit.mux.context import Context

    send({"stage": "frontend"})
    info, device = _resolve(request["target"])
    target = info.create_target(Context(), device)
    target.init_with_builtins(None)
    module = target.create_module()
    module.keeps_compiled_ir = False   # nothing after finalize needs the unfinalized IR: no copy of it
    if assembly and not hasattr(module, "create_assembly"):
        raise KernelkitError(f"target {request['target']} writes no assembly (--emit asm: amdhsa and amdcl2 "
                             "targets)")
    if request.get("spirv") is not None:
        pairs = request.get("spec_constants") or []
        module.compile_spirv(request["spirv"], None, {int(k): v for k, v in pairs} or None,
                             options=list(request.get("options") or ()))
    else:
        module.compile_opencl_c(request["source"], list(request.get("options") or ()),
                                filename=request.get("filename") or "<source>")
    send({"stage": "passes"})
    program = module.finalize()
    kernels = [k.name for k in program.kernels]
    send({"stage": "codegen", "kernels": kernels})
    binary = module.create_assembly().encode() if assembly else module.create_binary()
    return {"ok": True, "binary": binary, "log": module.log, "deps": [list(d) for d in module.dependencies],
            "kernels": kernels}


def build_checked_host(request: dict, send) -> dict:
    """A host binary's checked-mode twin (every access bounds-checked), from its mux IR."""
    return _rebuild_host(request, send, "checked", check=True)


def build_full_host(request: dict, send) -> dict:
    """A host binary with every kernel's work-item copy, from its mux IR."""
    return _rebuild_host(request, send, "work-item copies", work_item_copies=True)


def _rebuild_host(request: dict, send, what: str, **how) -> dict:
    from kernelkit.runtime.program import _signature_from_json
    from kernelkit.targets.host.binary import read_host_binary
    from kernelkit.targets.host.module import build_host_binary

    binary = read_host_binary(request["binary"])
    kernels = [k.name for k in binary.kernels]
    send({"stage": f"codegen ({what})", "kernels": kernels})
    sigs = [_signature_from_json(k.signature) for k in binary.kernels]
    rebuilt = build_host_binary(binary.mux_ir, sigs, binary.options, **how)
    return {"ok": True, "binary": rebuilt.to_bytes(), "log": "", "deps": [], "kernels": kernels}


def call(request: dict, send) -> dict:
    """One function call of ``llvm_binding.in_worker``: report the stage (an abort names the kernels),
    then call; the result, or the exception (pickled too when it can be)."""
    import pickle

    send({"stage": request.get("stage") or "codegen", "kernels": list(request.get("kernels") or ())})
    function, args, kwargs = pickle.loads(request["call"])
    try:
        result = function(*args, **kwargs)
    except Exception as exc:
        reply = error_reply(exc)
        try:
            reply["exception"] = pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - not picklable: the caller rebuilds it from the reply
            pass
        return reply
    return {"ok": True, "result": pickle.dumps(result, pickle.HIGHEST_PROTOCOL)}


def build_specialised_host(request: dict, send) -> dict:
    """One kernel of a host binary compiled for uniform work-groups of a fixed local size."""
    from kernelkit.runtime.program import _signature_from_json
    from kernelkit.targets.host.binary import read_host_binary
    from kernelkit.targets.host.module import build_specialised_binary

    binary = read_host_binary(request["binary"])
    kernel = binary.kernel(request["kernel"])
    send({"stage": f"codegen (local size {tuple(request['local_size'])})", "kernels": [kernel.name]})
    out = build_specialised_binary(binary.mux_ir, _signature_from_json(kernel.signature), binary.options,
                                   tuple(request["local_size"]))
    return {"ok": True, "binary": out.to_bytes(), "log": "", "deps": [], "kernels": [kernel.name]}


def build_spirv(request: dict, send) -> dict:
    """OpenCL C -> SPIR-V through LLVM's SPIR-V backend (in a process of its own per module)."""
    from kernelkit.frontend import compile_opencl
    from kernelkit.frontend.spirv.emit import emit_spirv_isolated

    send({"stage": "frontend"})
    compiled = compile_opencl(request["source"], list(request.get("options") or ()),
                              filename=request.get("filename") or "<source>", triple=request["triple"])
    send({"stage": "SPIR-V backend"})
    binary = emit_spirv_isolated(compiled.ir_text, request.get("filename") or "<source>")
    return {"ok": True, "binary": binary, "log": compiled.log or "",
            "deps": [list(d) for d in compiled.deps], "kernels": []}


def build_visa_program(request: dict, send) -> dict:
    """The vISA simulator's program (kernelkit.targets.visa.module.VisaBinary, as its container)."""
    from kernelkit.targets.visa.module import compile_visa_program

    send({"stage": "frontend"})
    binary = compile_visa_program(request["source"], request["target"].partition(":")[2],
                                  list(request.get("options") or ()), request.get("filename") or "<source>",
                                  request.get("spirv"))
    return {"ok": True, "binary": binary.to_bytes(), "log": "", "deps": [list(d) for d in binary.deps],
            "kernels": [k.signature.name for k in binary.kernels]}


HANDLERS = {"build": build, "spirv": build_spirv, "asm": lambda request, send: build(request, send, assembly=True),
            "host-checked": build_checked_host, "host-full": build_full_host,
            "host-specialised": build_specialised_host,
            "call": call, "visa-program": build_visa_program}


def handle(request: dict, send) -> dict:
    return HANDLERS[request.get("kind", "build")](request, send)


def serve(stdin, stdout) -> None:
    while True:
        request = read_message(stdin)
        if request is None:
            return
        apply_environment(request.get("env") or {}, request.get("cwd"))
        try:
            reply = handle(request, lambda message: write_message(stdout, message))
        except Exception as exc:  # every failure goes back as a reply; only LLVM aborting ends us
            reply = error_reply(exc)
        write_message(stdout, reply)


def main() -> None:
    # the protocol owns the real standard output; anything printed goes to standard error
    stdout = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, stdout)


if __name__ == "__main__":
    main()
