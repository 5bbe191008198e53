// Checks on the SVG the program draws (plan charts, /status pictures).
#ifndef PROPSCALER_TESTS_UNIT_SVG_TEST_UTIL_H_
#define PROPSCALER_TESTS_UNIT_SVG_TEST_UTIL_H_

#include <regex>
#include <string>
#include <vector>

namespace propscaler::testing_util {

// Every element is closed, in order: a small check that the document is
// well formed (the elements we emit carry no '<' or '>' in attributes).
inline bool TagsBalance(const std::string& svg) {
  std::vector<std::string> open;
  std::regex tag(R"(<(/?)([a-z]+)[^>]*?(/?)>)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (m[3] == "/") continue;  // self-closing
    if (m[1] == "") {
      open.push_back(m[2]);
    } else if (open.empty() || open.back() != m[2]) {
      return false;
    } else {
      open.pop_back();
    }
  }
  return open.empty();
}

// Every <svg> element in an HTML page (whose own void elements, <meta> and
// <br>, need no closing) balances; false when there is none.
inline bool SvgsBalance(const std::string& page) {
  size_t count = 0;
  for (size_t at = page.find("<svg "); at != std::string::npos;
       at = page.find("<svg ", at + 1)) {
    const size_t end = page.find("</svg>", at);
    if (end == std::string::npos) return false;
    if (!TagsBalance(page.substr(at, end + 6 - at))) return false;
    ++count;
  }
  return count > 0;
}

}  // namespace propscaler::testing_util

#endif  // PROPSCALER_TESTS_UNIT_SVG_TEST_UTIL_H_
