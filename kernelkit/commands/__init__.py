"""kernelkit.commands"""
