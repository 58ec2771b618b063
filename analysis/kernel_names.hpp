// GPU kernels by the names people call them. CUPTI names a kernel by its
// whole demangled signature ("void legato::rt::kernels::(anonymous
// namespace)::binary_kernel<float, float, ...::AddOp>(...::Shape, ...)"),
// which reads the same for every kernel of a namespace in any column or box
// too narrow for all of it. The model shows each kernel by its short name
// ("binary_kernel<float, float, AddOp>") and keeps the signature for the
// details.
#pragma once

#include <string>
#include <string_view>

namespace legato::analysis {

struct Profile;

// The signature without its return type, parameter list and qualifiers
// (also those inside template arguments); a name that reads as no C++
// signature (no parameter list at its end, no "::") comes back unchanged.
std::string short_kernel_name(std::string_view signature);

// Renames the run's GPU kernels to their short names and records each
// signature in p.kernel_signatures; kernels whose short names would be the
// same (overloads) keep their signatures as names.
void shorten_kernel_names(Profile& p);

}  // namespace legato::analysis
