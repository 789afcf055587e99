"""AMD OpenCL 2.0 ("CL2") binaries (spec 002): outer ELF, kernel metadata, inner HSA ELF."""
