"""Fuzzing harness for kernelkit's readers (see fuzz/README.md)."""
