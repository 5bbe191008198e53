// Headless Chromium (Debian's `chromium`, installed by
// deploy/install-deps.sh) as a person's browser in the e2e tests: the DOM
// it parsed from a page, and screenshots.
#ifndef PROPSCALER_TESTS_E2E_CHROMIUM_H_
#define PROPSCALER_TESTS_E2E_CHROMIUM_H_

#include <regex>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::e2e {

// Runs headless Chromium (its profile and home in `dir`) with `args` then
// `url`; returns its output, or fails the test when it is missing or does
// not exit 0 within a minute.
std::string Chromium(const TempDir& dir, std::vector<std::string> args,
                     const std::string& url);

// The DOM after parsing (and after any script), as Chromium serializes it.
inline std::string ChromiumDom(const TempDir& dir, const std::string& url) {
  return Chromium(dir, {"--dump-dom"}, url);
}

// Whether a /status page's DOM holds the picture line of `series` whose
// values (as drawn, oldest first) match the regular expression `values`.
inline bool HasPictureLine(const std::string& dom, const std::string& series,
                           const std::string& values) {
  return std::regex_search(
      dom, std::regex("data-series=\"" + series + "\" data-values=\"" + values +
                      "\""));
}

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_CHROMIUM_H_
