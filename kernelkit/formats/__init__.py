"""kernelkit.formats"""
