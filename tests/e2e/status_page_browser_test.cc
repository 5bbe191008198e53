// The /status page as a person sees it: headless Chromium (Debian's
// `chromium`, installed by deploy/install-deps.sh) loads it from the real
// binary, its parsed DOM holds the tables and the pictures drawn from the
// process's own numbers, and its screenshot is a rendered page, not a blank
// one. The screenshot is kept in the build directory
// (status-page.png) for a person to look at.
#include <filesystem>
#include <fstream>

#include "e2e/chromium.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

std::string ReadBinary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

uint32_t BigEndian32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

class StatusPageBrowserTest : public ReplicaClusterTest {
 protected:
  std::string Chromium(std::vector<std::string> args, const std::string& url) {
    return e2e::Chromium(dir_, std::move(args), url);
  }
};

TEST_F(StatusPageBrowserTest, RendersCountsTargetsAndDecisions) {
  StartServerWithPerNodeParams();
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  AddNodes(2);
  ASSERT_TRUE(WaitForReplicas(6, seconds(2))) << propscaler->Report();
  const std::string url =
      "http://127.0.0.1:" + std::to_string(port) + "/status";

  // The DOM after parsing: the browser inserted <tbody> into the tables.
  const std::string dom = Chromium({"--dump-dom"}, url);
  EXPECT_NE(dom.find("<title>propscaler status</title>"), std::string::npos)
      << dom;
  EXPECT_NE(dom.find("<tbody><tr><th>target</th>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("deployment/coredns"), std::string::npos) << dom;
  EXPECT_NE(dom.find("nodes changed"), std::string::npos) << dom;
  // The pictures: the replicas it set (to 4, then 6) and the nodes it
  // counted (the fixture's 4, then 6) over time, a mark at each scaling,
  // and the cluster's point on the params' curve (per-node params: 6).
  EXPECT_TRUE(HasPictureLine(dom, "deployment/coredns", "([0-9]+ )*4 6"))
      << dom;
  EXPECT_TRUE(HasPictureLine(dom, "nodes", "4 (5 )?6")) << dom;
  EXPECT_NE(dom.find("data-mark=\"deployment/coredns: 4 to 6\""),
            std::string::npos)
      << dom;
  EXPECT_NE(dom.find("data-now-nodes=\"6\" data-now-replicas=\"6\""),
            std::string::npos)
      << dom;

  const std::string shot = std::filesystem::current_path() / "status-page.png";
  const std::string blank = dir_.path() + "/blank.png";
  std::filesystem::remove(shot);
  Chromium({"--screenshot=" + shot}, url);
  Chromium({"--screenshot=" + blank}, "about:blank");
  const std::string png = ReadBinary(shot);
  ASSERT_GT(png.size(), 24u) << "no screenshot at " << shot;
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(BigEndian32(png, 16), 1100u);  // IHDR width
  EXPECT_EQ(BigEndian32(png, 20), 900u);   // IHDR height
  // Text, tables and cards compress far worse than an empty page.
  EXPECT_GT(png.size(), 4 * ReadBinary(blank).size())
      << "the screenshot looks blank: " << shot;
}

}  // namespace
}  // namespace propscaler::e2e
