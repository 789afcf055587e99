"""AMD IL programs with compiler metadata (spec 000): program model, metadata codec, data
segments, debug sections, the runtime's link step, and metadata blocks inside Catalyst binaries."""

from kernelkit.formats.amdil.codec import parse_metadata_line
from kernelkit.formats.amdil.datasegment import DataEntry, DataSegment
from kernelkit.formats.amdil.link import LinkResult, link, link_program
from kernelkit.formats.amdil.program import (
    MULTI_KERNEL_TOKEN,
    DebugSection,
    Function,
    MetadataBlock,
    Program,
    parse_program,
)

__all__ = ["parse_program", "parse_metadata_line", "Program", "Function", "MetadataBlock",
           "DebugSection", "DataSegment", "DataEntry", "link", "link_program", "LinkResult",
           "MULTI_KERNEL_TOKEN"]
