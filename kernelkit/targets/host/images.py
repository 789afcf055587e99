"""Images and samplers on the host (step 0 of :mod:`kernelkit.targets.host.codegen`, on SPIR IR).

- ``target("spirv.Image", ...)`` values become pointers to the image's descriptor
  (:data:`~kernelkit.targets.host.image_library.DESCRIPTOR_FIELDS`, filled by
  :mod:`kernelkit.runtime.images`) and ``target("spirv.Sampler")`` values become the sampler's
  ``CLK_*`` bits (i32);
- each call of an OpenCL C image builtin (``read_imagef``, ``write_imageui``, ``get_image_width``...,
  by its mangled name) is renamed to the library function that implements it for its image type
  (:func:`library_name`), and the definitions the module needs are compiled from
  :mod:`~kernelkit.targets.host.image_library` and linked in.
"""

from __future__ import annotations

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.mux.mangling import try_demangle
from kernelkit.mux.passes.dma_events import retype_dma_events
from kernelkit.targets.host.image_library import DIM_BY_KEY, entry_points, library_source

IMAGE_POINTER = T.pointer(1)      # the descriptor lives in (global) memory the runtime owns
SAMPLER_VALUE = T.i32
SAMPLER_TYPE = T.TargetExtType("spirv.Sampler")
_QUERY_PREFIX = "get_image_"
SAMPLER_INITIALIZER = "__translate_sampler_initializer"


def library_name(mangled: str) -> str | None:
    """The library function for the image builtin ``mangled`` (None: not an image builtin, or a form
    the host does not implement, such as mipmapped reads)."""
    demangled = try_demangle(mangled)
    if not demangled:
        return None
    name, params = demangled
    if not params or params[0].kind != "named" or not params[0].name.startswith("ocl_image"):
        return None
    key = params[0].name[len("ocl_image"):].rsplit("_", 1)[0]
    if key not in DIM_BY_KEY:
        return None
    suffix = ""
    if name.startswith("read_image"):
        coord = params[-1].element if params[-1].kind == "vector" else params[-1]
        floats = coord.kind == "scalar" and coord.name == "float"
        if len(params) == 2 and not floats:
            suffix = "_i"
        elif len(params) == 3 and params[1].kind == "named" and params[1].name == "ocl_sampler":
            suffix = "_sf" if floats else "_si"
        else:
            return None
    elif not (name.startswith("write_image") or name.startswith(_QUERY_PREFIX)):
        return None
    out = f"__kk_{name}_{key}{suffix}"
    return out if out in entry_points() else None


def _handle_types(module: ir.Module) -> set[T.TargetExtType]:
    """Every image and sampler type a function signature or instruction of the module uses."""
    found: set[T.TargetExtType] = set()

    def visit(ty: T.Type | None) -> None:
        if isinstance(ty, T.TargetExtType) and ty.name in ("spirv.Image", "spirv.Sampler"):
            found.add(ty)
        elif isinstance(ty, T.FunctionType):
            visit(ty.return_type)
            for p in ty.params:
                visit(p)
        elif isinstance(ty, T.ArrayType | T.VectorType):
            visit(ty.element)

    for fn in module.functions:
        visit(fn.function_type)
        for inst in fn.instructions():
            visit(inst.type)
            visit(getattr(inst, "allocated_type", None))
    return found


def lower_image_handles(module: ir.Module) -> set[str]:
    """Retype image/sampler handles and rename the image builtins' declarations (see module
    docstring); returns the library functions the module now calls."""
    for ty in _handle_types(module):
        retype_dma_events(module, SAMPLER_VALUE if ty == SAMPLER_TYPE else IMAGE_POINTER, ty)
    needed = set()
    for fn in list(module.functions):
        if not fn.is_declaration:
            continue
        target = SAMPLER_INITIALIZER if fn.name == SAMPLER_INITIALIZER else library_name(fn.name)
        if target is None:
            continue
        if target != fn.name:
            existing = module.get_function(target)
            if existing is None:
                fn.name = target
            elif existing.function_type == fn.function_type:   # the same builtin for another access qualifier
                fn.replace_all_uses_with(existing)
                module.remove_function(fn)
            else:
                raise ValueError(f"@{fn.name} and @{target} have different types")
        needed.add(target)
    return needed


_LIBRARY: dict[str, str] = {}


def library_ir(names: set[str]) -> str:
    """SPIR IR of the library functions ``names`` (compiled by clang with the builtin library's
    flags; cached on disk and in the process)."""
    import hashlib

    from kernelkit.cache import Cache
    from kernelkit.mux.clc.build import (
        BASE_FLAGS,
        BASE_HEADER_INCLUDE,
        SPIR_TRIPLE,
        Family,
        compile_family,
        ziglang_version,
    )

    source = library_source(frozenset(names))
    clang = ziglang_version()
    header = (BASE_HEADER_INCLUDE / "kernelkit_opencl.h").read_text()
    key = hashlib.sha256("\0".join([source, clang, header, *BASE_FLAGS]).encode()).hexdigest()[:24]
    if key in _LIBRARY:
        return _LIBRARY[key]
    store = Cache("host-images", library=True)
    cached = store.get(key)
    if cached is not None:
        text = cached.decode()
    else:
        text = compile_family(Family("host_images", lambda: source), SPIR_TRIPLE)
        store.put(key, text.encode())
    _LIBRARY[key] = text
    return text


def _has_image_handles(main) -> bool:
    """Does a function of the (llvmlite) module take or return an image or a sampler? (Every image
    and sampler value of OpenCL C comes from a kernel argument or a builtin's result.)"""
    def handle(ty) -> bool:
        return str(ty).startswith(('target("spirv.Image"', 'target("spirv.Sampler"'))

    for fn in main.functions:
        fn_type = fn.global_value_type
        if handle(fn_type.get_function_return()) or any(handle(p) for p in fn_type.get_function_parameters()):
            return True
    return False


def link_image_library(main, parse):
    """A new (llvmlite) module: ``main`` with image handles lowered and the image builtins it calls
    linked in (``parse``: IR text -> llvmlite module, in ``main``'s LLVM context); None when it has
    no images or samplers."""
    if not _has_image_handles(main):
        return None
    module = ir.parse(str(main))
    names = lower_image_handles(module)
    lowered = parse(str(module))
    if names:
        lowered.link_in(parse(library_ir(names)))
    return lowered
