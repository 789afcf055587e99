"""Link only what a module needs of kernelkit's AMDGPU device libraries (``mux_builtins.cl``, 2 MB of
IR, and the libraries linked on demand: ``atomics_named.cl``, 2.9 MB, ``atomics_cl1.cl``), without
parsing the whole library in every build.

A ``LibraryIndex`` is a library cut by kernelkit.ir into its top-level entities (globals, aliases,
functions), each printed by one printer so that their metadata and attribute-group numbers agree,
with the global values each refers to. ``text(needed)`` is the module of the entities LLVM's linker
brings in when it links the library into a module that declares ``needed``: every definition it
always links (external or weak linkage) and, transitively, every lazily linked one (local,
linkonce, available_externally) and declaration referred to — in library order, so linking it gives
the module linking the whole library gives (LLVM's ``Linker`` materialises lazily linked values only
when something refers to them). An index is built once per library and kept as a library entry of
the cache (namespace ``amdhsa-mux``); its key holds the library's inputs and the code that cuts it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

INDEX_FORMAT = 1
# linkages LLVM's Linker links only when a linked value refers to them (LinkModules.cpp linkIfNeeded)
LAZY_LINKAGES = frozenset({"internal", "private", "linkonce", "linkonce_odr", "available_externally"})
MUX_BUILTINS, NAMED_ATOMICS = "mux_builtins", "atomics_named"
# the parts of kernelkit.ir that read and print a library (not its builder, checks, analyses, transforms)
IR_FILES = ("lexer.py", "parser_base.py", "parser.py", "parse_instructions.py", "printer.py", "print_instructions.py",
            "values.py", "module.py", "instructions.py", "metadata.py", "types.py", "names.py", "opcodes.py",
            "analysis/references.py")


class LibraryIndex:
    """``head`` (header, types, comdats) + the entities' ``texts`` + ``tail`` (attribute groups,
    metadata); ``refs[i]``: the entities entity ``i`` refers to; ``always``: those linked whatever
    the module needs."""

    __slots__ = ("head", "tail", "names", "texts", "refs", "always", "_position", "_definitions")

    def __init__(self, head: str, tail: str, names: list[str], texts: list[str], refs: list[tuple[int, ...]],
                 always: tuple[int, ...]):
        self.head, self.tail, self.names, self.texts, self.refs, self.always = head, tail, names, texts, refs, always
        self._position = {name: i for i, name in enumerate(names)}
        self._definitions: frozenset[str] | None = None

    @property
    def opencl_definitions(self) -> frozenset[str]:
        """The OpenCL builtins (Itanium-mangled names) the library defines (found once per index:
        every build asks, and the build server's children inherit the answer)."""
        if self._definitions is None:
            self._definitions = frozenset(n for n, t in zip(self.names, self.texts, strict=True)
                                          if n.startswith("_Z") and t.startswith("define"))
        return self._definitions

    def needed(self, names: Iterable[str]) -> list[int]:
        """The entities linking the library brings in for a module declaring ``names``, in library order."""
        todo = [*self.always, *(self._position[n] for n in names if n in self._position)]
        keep: set[int] = set()
        while todo:
            i = todo.pop()
            if i not in keep:
                keep.add(i)
                todo.extend(self.refs[i])
        return sorted(keep)

    def text(self, names: Iterable[str]) -> str:
        """The IR module of what the library gives a module declaring ``names``."""
        return self.head + "\n".join(self.texts[i] for i in self.needed(names)) + "\n" + self.tail

    def to_bytes(self) -> bytes:
        return marshal.dumps((INDEX_FORMAT, self.head, self.tail, self.names, self.texts, self.refs, self.always))

    @classmethod
    def from_bytes(cls, data: bytes) -> LibraryIndex | None:
        try:
            fmt, head, tail, names, texts, refs, always = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        if fmt != INDEX_FORMAT or len(names) != len(texts) or len(names) != len(refs):
            return None
        return cls(head, tail, names, texts, refs, always)


def build_index(text: str) -> LibraryIndex:
    """The index of library IR ``text`` (kernelkit.ir parses it: a few seconds for 2 MB, once per library)."""
    from kernelkit.ir import parse
    from kernelkit.ir.module import Function, GlobalVariable
    from kernelkit.ir.printer import ModulePrinter

    module = parse(text)
    entities = [*module.globals, *module.aliases, *module.functions]
    pieces: dict[int, str] = {}

    class PiecePrinter(ModulePrinter):
        def global_text(self, g):
            pieces[id(g)] = out = super().global_text(g)
            return out

        def alias_text(self, a):
            pieces[id(a)] = out = super().alias_text(a)
            return out

        def function_text(self, f):
            pieces[id(f)] = out = super().function_text(f)
            return out

    full = PiecePrinter(module).run()
    texts = [pieces[id(e)] for e in entities]
    start = full.index(texts[0])
    end = full.rindex(texts[-1]) + len(texts[-1])
    position = {id(e): i for i, e in enumerate(entities)}
    refs = [tuple(sorted({position[id(g)] for g in _referenced(e)} - {i})) for i, e in enumerate(entities)]
    from_metadata = {position[id(g)] for nodes in module.named_metadata.values() for node in nodes
                     for g in _values_in_metadata(node)}

    def defined(e) -> bool:
        if isinstance(e, Function):
            return not e.is_declaration
        return not isinstance(e, GlobalVariable) or e.initializer is not None

    always = tuple(sorted({i for i, e in enumerate(entities) if defined(e) and e.linkage not in LAZY_LINKAGES}
                          | from_metadata))
    return LibraryIndex(full[:start], full[end:], [e.name for e in entities], texts, refs, always)


def _referenced(entity) -> list:
    """The global values ``entity`` (a global, alias or function) refers to: in its operands, its
    instructions' operands and the constants and metadata inside them."""
    from kernelkit.ir.analysis.references import metadata_values, referenced_globals
    from kernelkit.ir.module import Function

    roots: list = list(entity.operands)
    if isinstance(entity, Function):
        for inst in entity.instructions():
            roots.extend(inst.operands)
            roots.extend(metadata_values(getattr(inst, "metadata", {}).values()))
    return referenced_globals(roots, through_metadata=True)


def _values_in_metadata(node) -> list:
    from kernelkit.ir.analysis.references import metadata_values
    from kernelkit.ir.module import GlobalValue

    return [v for v in metadata_values([node]) if isinstance(v, GlobalValue)]


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The code an index depends on besides the library's sources: the functions that make the
    library text (codegen.mux_library_ir, on_demand_library_ir, _compile_library: clang's flags, _linkable),
    kernelkit.ir (which parses and prints it) and INDEX_FORMAT (bumped when build_index changes)."""
    from kernelkit.targets.amdhsa import codegen

    digest = hashlib.sha256(f"{INDEX_FORMAT}\0{codegen.PIPE_LDS_SLOT_IR}".encode())
    for function in (codegen.mux_library_ir, codegen.on_demand_library_ir, codegen._compile_library, codegen._linkable):
        code = getattr(function, "__wrapped__", function).__code__   # its bytecode, names and constants
        digest.update(code.co_code + repr((code.co_names, [c for c in code.co_consts if not hasattr(c, "co_code")])).encode())
    ir = Path(__file__).parents[2] / "ir"
    for name in IR_FILES:
        digest.update(name.encode() + b"\0" + (ir / name).read_bytes())
    return digest.hexdigest()


class WholeLibrary:
    """A library linked whole (LLVM's linker still brings in only what is referred to)."""

    __slots__ = ("ir",)

    def __init__(self, ir: str):
        self.ir = ir

    @property
    def opencl_definitions(self) -> frozenset[str]:
        from kernelkit.targets.amdhsa.codegen import _opencl_definitions

        return _opencl_definitions(self.ir)

    def text(self, names: Iterable[str]) -> str:
        return self.ir


_indexes: dict[tuple, LibraryIndex] = {}
# the libraries (``linkable_library``'s arguments) this process linked whole for want of an index: the
# build server builds their indexes apart (``index_bytes``) and hands them to its children (``adopt``)
unindexed: set[tuple] = set()


def index_bytes(ident: tuple) -> bytes:
    """The index (``to_bytes``) of the library ``ident`` (``linkable_library``'s arguments) names, built
    from its text (seconds of kernelkit.ir)."""
    from kernelkit.targets.amdhsa import codegen

    library, processor, version, cl2 = ident
    text = (codegen.mux_library_ir(processor, version, cl2) if library == MUX_BUILTINS
            else codegen.on_demand_library_ir(library, processor, version))
    return build_index(text).to_bytes()


def adopt(ident: tuple, data: bytes) -> bool:
    """Keep the index ``data`` (from ``index_bytes``) for the library ``ident``: this process, and the
    processes it forks from now on, link only the pieces a module needs."""
    index = LibraryIndex.from_bytes(data)
    if index is None:
        return False
    _indexes[tuple(ident)] = index
    unindexed.discard(tuple(ident))
    return True


def linkable_library(library: str, processor: str, version: int, cl2: bool = False) -> LibraryIndex | WholeLibrary:
    """``library`` (MUX_BUILTINS or the name of one of codegen.ON_DEMAND_LIBRARIES) for one processor and code object version: its
    index when the cache holds it; else the index is built and stored by a plain build worker (which
    would parse the whole library in every build) when the cache is on; else the whole library
    text. Building an index takes kernelkit.ir seconds, once: the build server and its children
    link the whole library (held parsed) until the server has built the index apart and adopted it
    (``unindexed``, ``index_bytes``, ``adopt``): linking the whole library costs a child ~16 ms of
    LLVM's linker and more of its passes per build."""
    from kernelkit.cache import Cache, cache_disabled
    from kernelkit.llvm_binding import SECOND_SIGHT, parse_memo_policy
    from kernelkit.targets.amdhsa import codegen

    ident = (library, processor, version, cl2)
    index = _indexes.get(ident)
    if index is not None:
        return index
    store = Cache("amdhsa-mux", library=True)
    key = codegen._library_key(f"{library}-index", processor, str(version), *(("cl2",) if cl2 else ()),
                               _code_digest())
    data = store.get(key)
    index = LibraryIndex.from_bytes(data) if data is not None else None
    if index is None:
        text = (codegen.mux_library_ir(processor, version, cl2) if library == MUX_BUILTINS
                else codegen.on_demand_library_ir(library, processor, version))
        if cache_disabled() or parse_memo_policy != SECOND_SIGHT or not os.environ.get("KERNELKIT_BUILD_WORKER") \
                or not _index_pays(store, key, ident):
            unindexed.add(ident)
            return WholeLibrary(text)
        index = build_index(text)
        store.put(key, index.to_bytes())
    _indexes[ident] = index
    return index


# An index costs seconds to build and saves a parse of the whole library per build in a process that
# has not kept one: it pays for itself once several build processes (e.g. one CLI call each) have
# needed this library, not for a library a long-lived worker links a few times (it keeps the parse).
INDEX_AFTER_PROCESSES = 3
_counted: set[tuple] = set()


def _index_pays(store, key: str, ident: tuple) -> bool:
    """Whether to build the index now: this process's first need of the library is counted in the
    cache (approximately: concurrent counts may merge), and the index is built once
    INDEX_AFTER_PROCESSES processes have needed it."""
    if ident in _counted:
        return False
    _counted.add(ident)
    counter = f"{key}-processes"
    seen = store.get(counter)
    count = (int.from_bytes(seen, "little") if seen else 0) + 1
    store.put(counter, count.to_bytes(4, "little"))
    return count >= INDEX_AFTER_PROCESSES


def declared_names(module) -> list[str]:
    """The functions and global variables an llvmlite module declares (what a library may define)."""
    return [v.name for v in (*module.functions, *module.global_variables) if v.is_declaration]
