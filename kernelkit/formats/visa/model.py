"""Object model of a vISA object (spec 004): header, kernels, functions and their symbol tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.formats.visa.instructions import Instruction


@dataclass
class Attribute:
    """attribute_info: a name and 0-4 byte integer or string value (raw bytes kept)."""
    name: str
    value: bytes = b""
    name_index: int | None = field(default=None, compare=False, repr=False)   # as read (string pool)

    @property
    def size(self) -> int:
        return len(self.value)

    def as_int(self) -> int:
        return int.from_bytes(self.value, "little", signed=True) if self.value else 1

    def as_str(self) -> str:
        return self.value.decode("latin-1")


@dataclass
class RelocSymbol:
    """variable_reloc_symtab / function_reloc_symtab entry."""
    symbolic_index: int
    resolved_index: int


@dataclass
class GenBinary:
    """gen_binary_info: a finalized Gen binary embedded after the kernel."""
    platform: int
    offset: int
    size: int
    data: bytes = b""


@dataclass
class Variable:
    """var_info: a general variable (ids from 32 on)."""
    name: str
    type: int
    align: int
    num_elements: int
    alias_index: int = 0
    alias_offset: int = 0
    alias_scope: int = 0
    attributes: list[Attribute] = field(default_factory=list)
    name_index: int | None = field(default=None, compare=False, repr=False)


@dataclass
class SymbolVar:
    """address_info, predicate_info, sampler/surface state_info: name, num_elements, attributes."""
    name: str
    num_elements: int
    attributes: list[Attribute] = field(default_factory=list)
    name_index: int | None = field(default=None, compare=False, repr=False)


@dataclass
class Label:
    """label_info: kind 0 block, 1 subroutine, 2 fc."""
    name: str
    kind: int = 0
    attributes: list[Attribute] = field(default_factory=list)
    name_index: int | None = field(default=None, compare=False, repr=False)


@dataclass
class Input:
    """input_info: category (0 general, 1 sampler, 2 surface), provenance, id, offset, size."""
    category: int
    provenance: int
    id: int
    offset: int
    size: int

    @property
    def kind(self) -> int:
        return (self.category & 3) | (self.provenance << 3)


@dataclass
class FileVariable:
    """file_scope_var_info."""
    linkage: int
    name: str
    type: int
    align: int
    num_elements: int
    attributes: list[Attribute] = field(default_factory=list)


@dataclass
class Routine:
    """kernel_data / function_data, plus its entry in the header (kernel_info / function_info)."""
    name: str
    is_kernel: bool = True
    strings: list[str] = field(default_factory=list)   # the string pool as read (None: rebuilt)
    name_index: int = 0
    variables: list[Variable] = field(default_factory=list)
    addresses: list[SymbolVar] = field(default_factory=list)
    predicates: list[SymbolVar] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    samplers: list[SymbolVar] = field(default_factory=list)
    surfaces: list[SymbolVar] = field(default_factory=list)   # declared ones: T6, T7, ...
    vmes: list[SymbolVar] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    instructions: list[Instruction] | None = field(default_factory=list)
    code: bytes = b""               # raw instruction stream (kept when instructions is None)
    input_size: int = 0             # functions only (GRFs of %arg)
    return_value_size: int = 0      # functions only (GRFs of %retval)
    linkage: int = 0                # functions only (function_info.linkage)
    variable_relocs: list[RelocSymbol] = field(default_factory=list)
    function_relocs: list[RelocSymbol] = field(default_factory=list)
    gen_binaries: list[GenBinary] = field(default_factory=list)
    decode_error: str | None = None  # lenient reading: why the instruction stream stopped decoding

    # ---- names of symbols as the text format spells them ----
    def variable_name(self, index: int) -> str:
        from kernelkit.formats.visa.tables import NUM_PREDEFINED_VARIABLES, PREDEFINED_VARIABLES
        if index < NUM_PREDEFINED_VARIABLES:
            return PREDEFINED_VARIABLES[index][0] if index < len(PREDEFINED_VARIABLES) else f"V{index}"
        local = index - NUM_PREDEFINED_VARIABLES
        return self.variables[local].name if local < len(self.variables) else f"V{index}"

    def variable(self, index: int) -> Variable | None:
        from kernelkit.formats.visa.tables import NUM_PREDEFINED_VARIABLES
        if index < NUM_PREDEFINED_VARIABLES:
            return None
        return self.variables[index - NUM_PREDEFINED_VARIABLES]


@dataclass
class VisaObject:
    """A whole vISA file: common_isa_header plus every kernel and function object."""
    major: int = 4
    minor: int = 1
    kernels: list[Routine] = field(default_factory=list)
    functions: list[Routine] = field(default_factory=list)
    file_variables: list[FileVariable] = field(default_factory=list)
    # order of the objects in the file as read: ("kernel", i), ("gen", i, j), ("function", i)
    layout: list[tuple[int, ...]] = field(default_factory=list, compare=False, repr=False)

    @property
    def version(self) -> str:
        return f"{self.major}.{self.minor}"


def element_size(routine: Routine, index: int) -> int:
    """Byte size of one element of general variable ``index`` (predefined ones included)."""
    from kernelkit.formats.visa.tables import (
        NUM_PREDEFINED_VARIABLES,
        PREDEFINED_VARIABLES,
        TYPE_BY_NAME,
        TYPES,
    )
    if index < NUM_PREDEFINED_VARIABLES:
        name = PREDEFINED_VARIABLES[index][1] if index < len(PREDEFINED_VARIABLES) else "ud"
        return TYPES[TYPE_BY_NAME[name]][1]
    return TYPES[routine.variables[index - NUM_PREDEFINED_VARIABLES].type][1]
