"""kernelkit.targets"""
