"""AMD OpenCL 2.0 ("CL2") target (spec 002): devices; compiling comes after the AMDGPU path."""
