// Facts about an entry point that the module states before optimization:
// the optimizer drops variables nothing reads, and with them what their
// presence in the entry point's interface meant.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::spirv {

// Vulkan 1.3 "Sample Shading" and the SampleId and SamplePosition built-ins:
// a fragment entry point whose interface includes an input variable
// decorated SampleId or SamplePosition runs once per covered sample, as with
// minSampleShading 1.0, even if it never reads the variable; so does one
// with an input decorated Sample ("Interpolation Decorations").
// The words need not be validated: anything unexpected answers false.
bool InterfaceRequestsSampleShading(std::span<const uint32_t> words, std::string_view entry_point);

}  // namespace tessera::spirv
