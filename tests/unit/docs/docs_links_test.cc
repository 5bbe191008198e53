// The documentation's relative links resolve. Every markdown link
// `[text](target)` in README.md and in docs/**/*.md whose target is not
// absolute (http://, https://, mailto:) must name a file that exists,
// relative to the page's folder (a bare `#anchor` names the page itself),
// and an `#anchor` into a .md file must be the GitHub anchor of one of that
// file's headings. Links and headings inside fenced code blocks (```) are
// not looked at. README.md also stays a front page: at most 320 lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace propscaler {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxReadmeLines = 320;

fs::path SourceDir() { return fs::path(PROPSCALER_SOURCE_DIR); }

// The page's path as the failure messages name it: from the source root.
std::string Name(const fs::path& path) {
  return path.lexically_relative(SourceDir()).string();
}

// The lines of `path` outside fenced code blocks; none if it is unreadable.
std::vector<std::string> LinesOutsideFences(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  bool in_fence = false;
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      in_fence = !in_fence;
      continue;
    }
    if (!in_fence) lines.push_back(line);
  }
  return lines;
}

// GitHub's anchor for a heading's text: lower-cased, every character but
// letters, digits, spaces, '-' and '_' dropped, each space turned into '-'
// ("Living with an HPA (`--hpa-floor`)" is "living-with-an-hpa---hpa-floor").
// The bytes of multi-byte UTF-8 characters are kept, as GitHub keeps
// letters.
std::string Slug(const std::string& heading) {
  std::string slug;
  for (const char c : heading) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || std::isalnum(byte) || c == '-' || c == '_') {
      slug += static_cast<char>(std::tolower(byte));
    } else if (c == ' ') {
      slug += '-';
    }
  }
  return slug;
}

// The anchors of the headings (`# ...` to `###### ...`) of `page`; a
// repeated one is numbered as GitHub numbers it (`name`, `name-1`, ...).
std::set<std::string> Anchors(const fs::path& page) {
  const std::regex heading(R"(^#{1,6}\s+(.*?)\s*$)");
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  for (const std::string& line : LinesOutsideFences(page)) {
    std::smatch match;
    if (!std::regex_match(line, match, heading)) continue;
    const std::string slug = Slug(match[1].str());
    const int repeats = seen[slug]++;
    anchors.insert(repeats == 0 ? slug : slug + "-" + std::to_string(repeats));
  }
  return anchors;
}

// README.md, then every .md file under docs/ in path order.
std::vector<fs::path> Pages() {
  std::vector<fs::path> pages = {SourceDir() / "README.md"};
  std::error_code error;
  for (fs::recursive_directory_iterator it(SourceDir() / "docs", error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_regular_file(error) && it->path().extension() == ".md") {
      pages.push_back(it->path());
    }
  }
  std::sort(pages.begin() + 1, pages.end());
  return pages;
}

bool IsAbsolute(const std::string& target) {
  for (const char* scheme : {"http://", "https://", "mailto:"}) {
    if (target.starts_with(scheme)) return true;
  }
  return false;
}

TEST(DocsLinksTest, EveryRelativeLinkAndAnchorResolves) {
  std::error_code error;
  ASSERT_TRUE(fs::is_directory(SourceDir() / "docs", error))
      << "no docs/ folder in " << SourceDir().string();
  const std::regex link(R"(\]\(([^)\s]*)\))");
  std::map<fs::path, std::set<std::string>> anchors_of;
  int checked = 0;
  for (const fs::path& page : Pages()) {
    for (const std::string& line : LinesOutsideFences(page)) {
      for (std::sregex_iterator it(line.begin(), line.end(), link), end;
           it != end; ++it) {
        const std::string target = (*it)[1].str();
        if (target.empty() || IsAbsolute(target)) continue;
        ++checked;
        const size_t hash = target.find('#');
        const std::string file = target.substr(0, hash);
        const std::string anchor =
            hash == std::string::npos ? "" : target.substr(hash + 1);
        const fs::path destination =
            file.empty() ? page
                         : (page.parent_path() / file).lexically_normal();
        const bool exists = fs::exists(destination, error);
        EXPECT_TRUE(exists) << Name(page) << ": link (" << target
                            << "): no file " << Name(destination);
        if (!exists || anchor.empty() || destination.extension() != ".md") {
          continue;
        }
        auto [cached, inserted] = anchors_of.try_emplace(destination);
        if (inserted) cached->second = Anchors(destination);
        EXPECT_TRUE(cached->second.contains(anchor))
            << Name(page) << ": link (" << target << "): no heading of "
            << Name(destination) << " has the anchor #" << anchor;
      }
    }
  }
  EXPECT_GT(checked, 0) << "no relative link found in README.md or docs/";
}

TEST(DocsLinksTest, ReadmeIsAFrontPage) {
  std::ifstream in(SourceDir() / "README.md");
  ASSERT_TRUE(in.is_open())
      << "cannot read " << (SourceDir() / "README.md").string();
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_LE(lines, kMaxReadmeLines)
      << "README.md has " << lines << " lines, more than " << kMaxReadmeLines
      << ": move the detail into docs/";
}

}  // namespace
}  // namespace propscaler
