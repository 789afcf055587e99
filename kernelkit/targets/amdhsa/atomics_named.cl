// kernelkit amdhsa: the scoped OpenCL C 2.0 atomics on global and local pointers, the overloads
// OpenCL C 3.0 declares without the generic address space (atomics.h). Compiled on its own and
// linked only into modules that call one of them (codegen.NAMED_ATOMIC_CALL): compare-exchange
// with its three `expected` address spaces is most of the library's size.
#include "atomics.h"

KK_ALL_TYPES(__global, 1)
KK_ALL_TYPES(__local, 3)
KK_CAS_NAMED(int, i)
KK_CAS_NAMED(uint, j)
KK_CAS_NAMED(long, l)
KK_CAS_NAMED(ulong, m)
KK_CAS_NAMED(float, f)
KK_CAS_NAMED(double, d)
