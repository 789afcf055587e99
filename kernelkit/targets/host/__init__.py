"""The host target: OpenCL kernels compiled to native x86-64 code and run on the CPU's threads."""
