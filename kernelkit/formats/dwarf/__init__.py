"""DWARF debug information of AMDGPU code objects (spec 001 extensions on pyelftools)."""
