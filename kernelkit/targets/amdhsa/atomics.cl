// kernelkit amdhsa: the scoped OpenCL C 2.0 atomics on generic pointers (atomics.h; the global
// and local overloads of OpenCL C 3.0 without the generic address space are atomics_named.cl,
// a library of its own linked only into modules that call them)
#include "atomics.h"

#define KK_CAS_GENERIC(T, C) KK_CAS_BOTH(T, C, __generic, 4, __generic, g, "PU3AS4")

KK_ALL_TYPES(__generic, 4)
KK_CAS_GENERIC(int, i)
KK_CAS_GENERIC(uint, j)
KK_CAS_GENERIC(long, l)
KK_CAS_GENERIC(ulong, m)
KK_CAS_GENERIC(float, f)
KK_CAS_GENERIC(double, d)
