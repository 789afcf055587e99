"""kernelkit.frontend.spirv: SPIR-V binaries (OpenCL environment) -> kernelkit.ir.

``translate(data) -> ir.Module`` with the IR shape of the OpenCL C frontend.
"""

from kernelkit.frontend.spirv.translate import translate

__all__ = ["translate"]
