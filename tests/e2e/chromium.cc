#include "e2e/chromium.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace propscaler::e2e {
namespace {

std::string FindChromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser",
                           "/usr/bin/google-chrome"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

}  // namespace

std::string Chromium(const TempDir& dir, std::vector<std::string> args,
                     const std::string& url) {
  const std::string chromium = FindChromium();
  EXPECT_FALSE(chromium.empty())
      << "chromium is not installed: run deploy/install-deps.sh";
  if (chromium.empty()) return "";
  std::vector<std::string> all = {"--headless",
                                  "--no-sandbox",
                                  "--disable-gpu",
                                  "--hide-scrollbars",
                                  "--no-first-run",
                                  "--user-data-dir=" + dir.path() + "/profile",
                                  "--window-size=1100,900"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back(url);
  Process browser(chromium, all, {"HOME=" + dir.path()});
  std::optional<int> code = browser.WaitForExit(std::chrono::seconds(60));
  EXPECT_TRUE(code.has_value() && *code == 0) << "chromium failed:\n"
                                              << browser.Output();
  return browser.Output();
}

}  // namespace propscaler::e2e
