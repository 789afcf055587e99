"""kernelkit.ir"""
