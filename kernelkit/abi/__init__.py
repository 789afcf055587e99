"""kernelkit.abi"""
