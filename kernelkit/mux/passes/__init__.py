"""Target-independent ComputeMux passes on ``kernelkit.ir`` modules and the finalize pipeline."""
