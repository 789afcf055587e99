"""The host target's late passes over LLVM IR text (see kernelkit.targets.host.codegen)."""
