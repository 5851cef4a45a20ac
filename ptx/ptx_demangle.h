/* ptx_demangle.h -- display names of mangled C++ kernel names (Itanium C++ ABI, the part
 * nvcc emits for kernels), printed as c++filt and compute-sanitizer print them. */
#ifndef PTX_DEMANGLE_H
#define PTX_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the display name of `name` into out (size bytes, NUL included):
 * "_Z6kernelPi" -> "kernel(int*)", "_Z6reduceIfLi256EEvPKT_PS0_i" ->
 * "void reduce<float, 256>(float const*, float*, int)". Understands function and
 * namespace names, templates with type, integer and pack arguments, builtin types,
 * pointers, references, const/volatile/restrict, substitutions (S_, S0_, St, Sa, ...) and
 * template parameters (T_, T0_, Dp). A name that is not mangled, that uses anything else
 * (operators, lambdas, expressions, function or array types, ...) or whose display name
 * does not fit is copied unchanged (truncated to fit). Returns true when it demangled. */
bool ptx_demangle(const char *name, char *out, size_t size);

#endif
