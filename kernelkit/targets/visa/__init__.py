"""Intel vISA target (spec 004): OpenCL C -> vISA objects for IGC's finalizer, SIMD lanes = work-items."""
