"""vISA binary object (``.isa``) reader and writer (spec 004; field widths of vISA >= 3.7 as the
4.1 finalizer reads them: 32-bit string/variable indices, 32-bit input count)."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.limits import first_overlap
from kernelkit.formats.visa.byteio import ByteReader, ByteWriter
from kernelkit.formats.visa.instructions import decode_stream, decode_truncated_stream, encode_stream
from kernelkit.formats.visa.model import (
    Attribute,
    FileVariable,
    GenBinary,
    Input,
    Label,
    RelocSymbol,
    Routine,
    SymbolVar,
    Variable,
    VisaObject,
)
from kernelkit.formats.visa.tables import MAGIC

# ------------------------------------------------------------------ reading


def _string(strings: list[str], index: int, r: ByteReader, field: str) -> str:
    if index >= len(strings):
        raise FormatError(f"string index {index} outside the pool of {len(strings)}",
                          offset=r.pos - 4, field=field)
    return strings[index]


def _attributes(r: ByteReader, count: int, strings: list[str] | None, field: str) -> list[Attribute]:
    out = []
    for _ in range(count):
        index = r.u32(f"{field}.attribute.name")
        name = _string(strings, index, r, f"{field}.attribute.name") if strings is not None else str(index)
        size = r.u8(f"{field}.attribute.size")
        out.append(Attribute(name, r.raw(size, f"{field}.attribute.value"), index))
    return out


def _relocs(r: ByteReader, field: str) -> list[RelocSymbol]:
    return [RelocSymbol(r.u16(field), r.u16(field)) for _ in range(r.u16(field))]


def _name(r: ByteReader, short: bool, field: str) -> str:
    length = r.u8(field) if short else r.u16(field)
    return r.raw(length, field).decode("latin-1")


def _symbols(r: ByteReader, count: int, strings: list[str], field: str) -> list[SymbolVar]:
    out = []
    for _ in range(count):
        index = r.u32(f"{field}.name_index")
        name = _string(strings, index, r, f"{field}.name_index")
        num = r.u16(f"{field}.num_elements")
        out.append(SymbolVar(name, num, _attributes(r, r.u8(f"{field}.attribute_count"), strings, field), index))
    return out


def read_routine(data: bytes, routine: Routine, start: int, size: int, lenient: bool,
                 input_offset: int | None = None) -> None:
    """Fill ``routine`` from the kernel_data / function_data at ``start``; for a kernel, the header's
    ``input_offset`` must point at its num_inputs field."""
    r = ByteReader(data, start, start + size)
    count = r.u32("string_count")
    if count > 131072:
        raise FormatError(f"string_count {count} exceeds 131072", offset=start, field="string_count")
    routine.strings = [r.cstring("string_pool") for _ in range(count)]
    strings = routine.strings
    routine.name_index = r.u32("name_index")
    _string(strings, routine.name_index, r, "name_index")
    for _ in range(r.u32("variable_count")):
        index = r.u32("var_info.name_index")
        name = _string(strings, index, r, "var_info.name_index")
        bits, num = r.u8("var_info.bit_properties"), r.u16("var_info.num_elements")
        alias, alias_off = r.u32("var_info.alias_index"), r.u16("var_info.alias_offset")
        scope = r.u8("var_info.alias_scope_specifier")
        attrs = _attributes(r, r.u8("var_info.attribute_count"), strings, "var_info")
        routine.variables.append(Variable(name, bits & 0xF, bits >> 4, num, alias, alias_off, scope, attrs,
                                          index))
    routine.addresses = _symbols(r, r.u16("address_count"), strings, "address_info")
    routine.predicates = _symbols(r, r.u16("predicate_count"), strings, "predicate_info")
    for _ in range(r.u16("label_count")):
        index = r.u32("label_info.name_index")
        name = _string(strings, index, r, "label_info.name_index")
        kind = r.u8("label_info.kind")
        routine.labels.append(Label(name, kind, _attributes(r, r.u8("label_info.attribute_count"),
                                                            strings, "label_info"), index))
    routine.samplers = _symbols(r, r.u8("sampler_count"), strings, "sampler_info")
    routine.surfaces = _symbols(r, r.u8("surface_count"), strings, "surface_info")
    routine.vmes = _symbols(r, r.u8("vme_count"), strings, "vme_info")
    if routine.is_kernel:
        if input_offset is not None and input_offset != r.pos:
            raise FormatError(f"{routine.name}: input_offset {input_offset:#x} does not point at num_inputs "
                              f"({r.pos:#x})", offset=r.pos, field="kernel_info.input_offset")
        for _ in range(r.u32("num_inputs")):
            kind = r.u8("input_info.kind")
            routine.inputs.append(Input(kind & 3, kind >> 3, r.u32("input_info.id"),
                                        r.i16("input_info.offset"), r.u16("input_info.size")))
    code_size, entry = r.u32("size"), r.u32("entry")
    if not routine.is_kernel:
        routine.input_size, routine.return_value_size = r.u8("input_size"), r.u8("return_value_size")
    routine.attributes = _attributes(r, r.u16("attribute_count"), strings, "kernel")
    code_start = start + entry
    if code_start != r.pos:
        raise FormatError(f"entry {entry} does not follow the attributes (at {r.pos - start})",
                          offset=code_start, field="entry")
    if code_start + code_size > len(data) or entry + code_size != size:
        raise FormatError(f"instructions ({code_size} bytes at entry {entry}) do not fill the object "
                          f"of {size} bytes", offset=code_start, field="size")
    routine.code = data[code_start:code_start + code_size]
    from kernelkit.formats.visa.references import references_valid, unresolved
    try:
        routine.instructions = decode_stream(routine.code, code_start, lambda i: unresolved(routine, i))
    except FormatError as exc:
        if not lenient:
            raise
        routine.decode_error = str(exc)
        routine.instructions = decode_truncated_stream(routine.code, lambda i: references_valid(routine, i))


def _check_disjoint(spans: list[tuple[Routine, int, int, int | None]], kernels: list[Routine]) -> None:
    """Routine objects and Gen binaries occupy disjoint bytes (the writer lays them out one after
    another), so no byte is read twice: a header naming one span many times cannot multiply the file."""
    ranges = [(offset, offset + size, f"{routine.name} object") for routine, offset, size, _ in spans if size]
    ranges += [(g.offset, g.offset + g.size, f"{k.name} Gen binary") for k in kernels for g in k.gen_binaries]
    found = first_overlap(ranges)
    if found:
        (_, end, first), (start, _, second) = found
        raise FormatError(f"{second} at {start:#x} overlaps {first} (ends at {end:#x})", offset=start,
                          field="offset")


def read_isa(data: bytes, *, lenient: bool = False) -> VisaObject:
    """Read a vISA object. A damaged instruction stream raises FormatError at its offset; with
    ``lenient`` the routine keeps its raw ``code`` (written back unchanged), ``decode_error`` says why,
    and ``instructions`` holds a best-effort decoding under the IGC 1.0.12504 truncated-writer model
    (instructions with ``missing`` fields)."""
    r = ByteReader(data)
    if r.u32("magic_number") != MAGIC:
        raise FormatError("not a vISA object (magic is not 'CISA')", offset=0, field="magic_number")
    obj = VisaObject(r.u8("major_version"), r.u8("minor_version"))
    if obj.major < 3 or (obj.major == 3 and obj.minor < 7):
        raise FormatError(f"vISA {obj.version} predates 3.7; only 3.7 and later are read", offset=4,
                          field="major_version")
    spans: list[tuple[Routine, int, int, int | None]] = []
    claimed = 0                  # bytes the header assigns so far: disjoint spans cannot exceed the file

    def claim(size: int, field: str) -> None:
        nonlocal claimed
        claimed += size
        if claimed > len(data):
            raise FormatError(f"objects and Gen binaries claim {claimed} bytes, beyond end of file ({len(data)})",
                              offset=r.pos - 4, field=field)

    for _ in range(r.u16("num_kernels")):
        routine = Routine(_name(r, False, "kernel_info.name"), True)
        offset, size = r.u32("kernel_info.offset"), r.u32("kernel_info.size")
        claim(size, "kernel_info.size")
        input_offset = r.u32("kernel_info.input_offset")
        routine.variable_relocs = _relocs(r, "kernel_info.variable_reloc_symtab")
        routine.function_relocs = _relocs(r, "kernel_info.function_reloc_symtab")
        for _ in range(r.u8("kernel_info.num_gen_binaries")):
            platform, boff, bsize = r.u8("gen_platform"), r.u32("binary_offset"), r.u32("binary_size")
            claim(bsize, "binary_size")
            if boff + bsize > len(data):
                raise FormatError(f"Gen binary {boff}+{bsize} beyond end of file", offset=r.pos - 8,
                                  field="binary_offset")
            routine.gen_binaries.append(GenBinary(platform, boff, bsize))    # data once checked disjoint
        obj.kernels.append(routine)
        spans.append((routine, offset, size, input_offset))
    for _ in range(r.u16("num_variables")):
        linkage = r.u8("file_scope_var_info.linkage")
        name = _name(r, False, "file_scope_var_info.name")
        bits, num = r.u8("file_scope_var_info.bit_properties"), r.u16("file_scope_var_info.num_elements")
        attrs = _attributes(r, r.u8("file_scope_var_info.attribute_count"), None, "file_scope_var_info")
        obj.file_variables.append(FileVariable(linkage, name, bits & 0xF, bits >> 4, num, attrs))
    for _ in range(r.u16("num_functions")):
        linkage = r.u8("function_info.linkage")
        routine = Routine(_name(r, False, "function_info.name"), False, linkage=linkage)
        offset, size = r.u32("function_info.offset"), r.u32("function_info.size")
        claim(size, "function_info.size")
        routine.variable_relocs = _relocs(r, "function_info.variable_reloc_symtab")
        routine.function_relocs = _relocs(r, "function_info.function_reloc_symtab")
        obj.functions.append(routine)
        spans.append((routine, offset, size, None))
    pieces: list[tuple[int, tuple[int, ...]]] = []
    for i, k in enumerate(obj.kernels):
        pieces.append((spans[i][1], (0, i)))
        pieces += [(g.offset, (1, i, j)) for j, g in enumerate(k.gen_binaries)]
    pieces += [(spans[len(obj.kernels) + i][1], (2, i)) for i in range(len(obj.functions))]
    obj.layout = [key for _off, key in sorted(pieces)]
    _check_disjoint(spans, obj.kernels)
    for k in obj.kernels:
        for g in k.gen_binaries:
            g.data = data[g.offset:g.offset + g.size]
    for routine, offset, size, input_offset in spans:
        if offset + size > len(data) or (routine.is_kernel and size == 0):
            raise FormatError(f"{routine.name}: object {offset}+{size} beyond end of file ({len(data)})",
                              offset=offset, field="offset")
        if size:
            read_routine(data, routine, offset, size, lenient, input_offset)
    return obj

# ------------------------------------------------------------------ writing


class StringPool:
    """The routine's string pool: existing strings keep their index, new ones are appended."""

    def __init__(self, strings: list[str]):
        self.strings = list(strings)
        self.index: dict[str, int] = {}
        for i, s in enumerate(self.strings):
            self.index.setdefault(s, i)

    def get(self, text: str, hint: int | None = None) -> int:
        """Index of ``text``: ``hint`` (the index read from a file) when it still names ``text``."""
        if hint is not None and hint < len(self.strings) and self.strings[hint] == text:
            return hint
        if text not in self.index:
            self.index[text] = len(self.strings)
            self.strings.append(text)
        return self.index[text]


def _w_attributes(w: ByteWriter, attrs: list[Attribute], pool: StringPool, wide: bool) -> None:
    for a in attrs:
        w.u32(pool.get(a.name, a.name_index), "attribute.name")
        w.u8(len(a.value), "attribute.size")
        w.raw(a.value)


def _w_symbols(w: ByteWriter, syms: list[SymbolVar], pool: StringPool) -> None:
    for s in syms:
        w.u32(pool.get(s.name, s.name_index), "name_index")
        w.u16(s.num_elements, "num_elements")
        w.u8(len(s.attributes), "attribute_count")
        _w_attributes(w, s.attributes, pool, True)


def write_routine(routine: Routine) -> tuple[bytes, int]:
    """kernel_data / function_data bytes and the offset of num_inputs inside them."""
    pool = StringPool(routine.strings or [routine.name])
    body = ByteWriter()
    name_index = routine.name_index if routine.strings else pool.get(routine.name)
    body.u32(name_index, "name_index")
    body.u32(len(routine.variables), "variable_count")
    for v in routine.variables:
        body.u32(pool.get(v.name, v.name_index), "var_info.name_index")
        body.u8((v.type & 0xF) | ((v.align & 0xF) << 4), "var_info.bit_properties")
        body.u16(v.num_elements, "var_info.num_elements")
        body.u32(v.alias_index, "var_info.alias_index")
        body.u16(v.alias_offset, "var_info.alias_offset")
        body.u8(v.alias_scope, "var_info.alias_scope_specifier")
        body.u8(len(v.attributes), "var_info.attribute_count")
        _w_attributes(body, v.attributes, pool, True)
    body.u16(len(routine.addresses), "address_count")
    _w_symbols(body, routine.addresses, pool)
    body.u16(len(routine.predicates), "predicate_count")
    _w_symbols(body, routine.predicates, pool)
    body.u16(len(routine.labels), "label_count")
    for lab in routine.labels:
        body.u32(pool.get(lab.name, lab.name_index), "label_info.name_index")
        body.u8(lab.kind, "label_info.kind")
        body.u8(len(lab.attributes), "label_info.attribute_count")
        _w_attributes(body, lab.attributes, pool, True)
    for table, field in ((routine.samplers, "sampler_count"), (routine.surfaces, "surface_count"),
                         (routine.vmes, "vme_count")):
        body.u8(len(table), field)
        _w_symbols(body, table, pool)
    input_pos = len(body)
    if routine.is_kernel:
        body.u32(len(routine.inputs), "num_inputs")
        for inp in routine.inputs:
            body.u8(inp.kind, "input_info.kind")
            body.u32(inp.id, "input_info.id")
            body.i16(inp.offset, "input_info.offset")
            body.u16(inp.size, "input_info.size")
    if routine.instructions is not None and routine.decode_error is None:
        code = encode_stream(routine.instructions)
    else:
        code = routine.code
    body.u32(len(code), "size")
    entry_pos = len(body)
    body.u32(0, "entry")
    if not routine.is_kernel:
        body.u8(routine.input_size, "input_size")
        body.u8(routine.return_value_size, "return_value_size")
    body.u16(len(routine.attributes), "attribute_count")
    _w_attributes(body, routine.attributes, pool, True)
    head = ByteWriter()
    head.u32(len(pool.strings), "string_count")
    for s in pool.strings:
        head.cstring(s)
    entry = len(head) + len(body)
    body.patch_u32(entry_pos, entry)
    return bytes(head.buf) + bytes(body.buf) + code, len(head) + input_pos


def _write_order(obj: VisaObject) -> list[tuple[int, ...]]:
    """Objects in file order: as read when the object still has the same pieces, else IGC's order
    (each kernel followed by its Gen binaries, then the functions)."""
    standard: list[tuple[int, ...]] = []
    for i, k in enumerate(obj.kernels):
        standard.append((0, i))
        standard += [(1, i, j) for j in range(len(k.gen_binaries))]
    standard += [(2, i) for i in range(len(obj.functions))]
    if obj.layout and sorted(obj.layout) == sorted(standard):
        return list(obj.layout)
    return standard


def write_isa(obj: VisaObject) -> bytes:
    """Serialize a vISA object: the header, then kernels, Gen binaries and functions in the order
    they were read (spec 004 shows functions first; IGC writes kernels first)."""
    kernel_blobs = [write_routine(k) for k in obj.kernels]
    function_blobs = [write_routine(f)[0] for f in obj.functions]

    def header(offsets: list[int], gen_offsets: list[list[int]], fn_offsets: list[int]) -> bytes:
        w = ByteWriter()
        w.u32(MAGIC, "magic_number")
        w.u8(obj.major, "major_version")
        w.u8(obj.minor, "minor_version")
        w.u16(len(obj.kernels), "num_kernels")
        for i, k in enumerate(obj.kernels):
            name = k.name.encode("latin-1")
            w.u16(len(name), "kernel_info.name_len")
            w.raw(name)
            w.u32(offsets[i], "kernel_info.offset")
            w.u32(len(kernel_blobs[i][0]), "kernel_info.size")
            w.u32(offsets[i] + kernel_blobs[i][1], "kernel_info.input_offset")
            for relocs in (k.variable_relocs, k.function_relocs):
                w.u16(len(relocs), "num_syms")
                for rs in relocs:
                    w.u16(rs.symbolic_index, "symbolic_index")
                    w.u16(rs.resolved_index, "resolved_index")
            w.u8(len(k.gen_binaries), "num_gen_binaries")
            for g, goff in zip(k.gen_binaries, gen_offsets[i], strict=True):
                w.u8(g.platform, "gen_platform")
                w.u32(goff, "binary_offset")
                w.u32(len(g.data), "binary_size")
        w.u16(len(obj.file_variables), "num_variables")
        for fv in obj.file_variables:
            w.u8(fv.linkage, "linkage")
            name = fv.name.encode("latin-1")
            w.u16(len(name), "name_len")
            w.raw(name)
            w.u8((fv.type & 0xF) | ((fv.align & 0xF) << 4), "bit_properties")
            w.u16(fv.num_elements, "num_elements")
            w.u8(len(fv.attributes), "attribute_count")
            for a in fv.attributes:
                if not a.name.isdigit():      # the header has no string pool: names are bare indices
                    raise FormatError(f"file variable {fv.name}: attribute name {a.name!r} is not a string index",
                                      offset=len(w), field="file_scope_var_info.attribute.name")
                w.u32(int(a.name), "attribute.name")
                w.u8(len(a.value), "attribute.size")
                w.raw(a.value)
        w.u16(len(obj.functions), "num_functions")
        for i, f in enumerate(obj.functions):
            w.u8(f.linkage, "linkage")
            name = f.name.encode("latin-1")
            w.u16(len(name), "function_info.name_len")
            w.raw(name)
            w.u32(fn_offsets[i], "function_info.offset")
            w.u32(len(function_blobs[i]), "function_info.size")
            for relocs in (f.variable_relocs, f.function_relocs):
                w.u16(len(relocs), "num_syms")
                for rs in relocs:
                    w.u16(rs.symbolic_index, "symbolic_index")
                    w.u16(rs.resolved_index, "resolved_index")
        return bytes(w.buf)

    order = _write_order(obj)
    blobs: dict[tuple[int, ...], bytes] = {}
    for key in order:
        if key[0] == 0:
            blobs[key] = kernel_blobs[key[1]][0]
        elif key[0] == 1:
            blobs[key] = obj.kernels[key[1]].gen_binaries[key[2]].data
        else:
            blobs[key] = function_blobs[key[1]]
    zeros_k = [0] * len(obj.kernels)
    pos = len(header(zeros_k, [[0] * len(k.gen_binaries) for k in obj.kernels], [0] * len(obj.functions)))
    where: dict[tuple[int, ...], int] = {}
    for key in order:
        where[key] = pos
        pos += len(blobs[key])
    offsets = [where[(0, i)] for i in range(len(obj.kernels))]
    gen_offsets = [[where[(1, i, j)] for j in range(len(k.gen_binaries))] for i, k in enumerate(obj.kernels)]
    fn_offsets = [where[(2, i)] for i in range(len(obj.functions))]
    out = bytearray(header(offsets, gen_offsets, fn_offsets))
    for key in order:
        out += blobs[key]
    return bytes(out)
