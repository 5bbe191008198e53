// Escaping text for HTML and SVG (XML) documents.
#ifndef PROPSCALER_COMMON_MARKUP_ESCAPE_H_
#define PROPSCALER_COMMON_MARKUP_ESCAPE_H_

#include <string>
#include <string_view>

namespace propscaler {

// Escapes &, <, >, " and ' so the text is safe in element content and in
// quoted attribute values.
std::string EscapeMarkup(std::string_view text);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_MARKUP_ESCAPE_H_
