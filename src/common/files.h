// Small file helpers for the I/O edges.
#ifndef PROPSCALER_COMMON_FILES_H_
#define PROPSCALER_COMMON_FILES_H_

#include <string>

#include "common/status.h"

namespace propscaler {

// The whole file; the error names the path and the OS reason.
Result<std::string> ReadFile(const std::string& path);

// Standard base64 (with or without padding, newlines ignored).
Result<std::string> DecodeBase64(const std::string& text);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FILES_H_
