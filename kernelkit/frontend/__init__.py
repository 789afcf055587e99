"""kernelkit.frontend"""
