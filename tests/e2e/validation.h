// Counting validation errors in the objects-stage tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "vk_context.h"

namespace tessera::test {

// Validation errors, less a known gap of Tessera that is not the tests':
// no format has attachment features before the graphics pipeline lands,
//   so a render pass with attachments breaks
//   VUID-VkSubpassDescription(2)-p*Attachments-0264x/02898/02650.
// Remove the exception when format_support.cpp reports attachment features.
inline uint32_t ValidationErrors(const Context& ctx) {
	uint32_t errors = 0;
	for (const std::string& message : ctx.validation_messages()) {
		if (ctx.driver() == Driver::Tessera && message.find("VUID-VkSubpassDescription") != std::string::npos &&
		    message.find("ATTACHMENT_BIT") != std::string::npos)
			continue;
		UNSCOPED_INFO(message);
		++errors;
	}
	return errors;
}

}  // namespace tessera::test
