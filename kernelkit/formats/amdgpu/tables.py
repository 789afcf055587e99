"""Spec 001 tables as data (AMDGPU user guide); code reads these, never retypes them."""

from __future__ import annotations

# spec 001 "AMDGPU ELF Relocation Records"
RELOCATIONS: dict[str, int] = {
    "R_AMDGPU_NONE": 0, "R_AMDGPU_ABS32_LO": 1, "R_AMDGPU_ABS32_HI": 2, "R_AMDGPU_ABS64": 3,
    "R_AMDGPU_REL32": 4, "R_AMDGPU_REL64": 5, "R_AMDGPU_ABS32": 6, "R_AMDGPU_GOTPCREL": 7,
    "R_AMDGPU_GOTPCREL32_LO": 8, "R_AMDGPU_GOTPCREL32_HI": 9, "R_AMDGPU_REL32_LO": 10,
    "R_AMDGPU_REL32_HI": 11, "R_AMDGPU_RELATIVE64": 13, "R_AMDGPU_REL16": 14,
}
