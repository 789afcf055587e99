"""AMDGPU HSA code objects (spec 001): tables, target IDs, notes, descriptors, metadata, bundles."""
