"""The ``amdhsa`` target: OpenCL C -> linked AMDGPU HSA code objects V2..V6 (spec 001, spec 003)."""
