"""kernelkit.runtime"""
