#pragma once

#include <string>
#include <string_view>

namespace caliber {

// Text made safe for HTML and SVG content and attribute values.
std::string html_escape(std::string_view text);

}  // namespace caliber
