"""kernelkit.mux"""
