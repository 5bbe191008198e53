// A result file names the binary that ran (its --version's commit), not
// only the checkout's commit when the file was written.
#include "harness/result_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace propscaler::bench {
namespace {

// A path of this process's own: ctest runs each test as a process, several
// at once, all with the same TempDir().
std::string OwnPath(const std::string& name) {
  return ::testing::TempDir() + std::to_string(getpid()) + "-" + name;
}

std::string Script(const std::string& name, const std::string& body) {
  const std::string path = OwnPath(name);
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  chmod(path.c_str(), 0755);
  return path;
}

std::string Written(const ResultFile& result) {
  const std::string path = OwnPath("result.json");
  EXPECT_TRUE(result.Write(path, {}).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ResultFileTest, NamesTheCommitTheBinaryWasBuiltFrom) {
  ResultFile result(0, nullptr);
  result.SetBinary(
      Script("propscaler-old",
             "echo 'propscaler version 0.1.0 (commit 27a56e0abc12)'"));
  const std::string json = Written(result);
  EXPECT_NE(json.find(R"("commit":"27a56e0abc12","build_type":"unknown"})"),
            std::string::npos)
      << json << "\nan older binary names no build type";
  EXPECT_NE(json.find("\"version\":\"propscaler version 0.1.0 (commit "
                      "27a56e0abc12)\""),
            std::string::npos)
      << json;
}

TEST(ResultFileTest, NamesTheBuildTypeOfTheBinary) {
  ResultFile result(0, nullptr);
  result.SetBinary(Script(
      "propscaler-new",
      "echo 'propscaler version 0.1.0 (commit 27a56e0abc12) RelWithDebInfo'"));
  const std::string json = Written(result);
  EXPECT_NE(
      json.find(R"("commit":"27a56e0abc12","build_type":"RelWithDebInfo"})"),
      std::string::npos)
      << json;
}

TEST(ResultFileTest, ABinaryThatNamesNoCommitIsUnknown) {
  ResultFile result(0, nullptr);
  result.SetBinary(Script("propscaler-mute", "exit 0"));
  EXPECT_NE(
      Written(result).find(R"("commit":"unknown","build_type":"unknown"})"),
      std::string::npos);
  ResultFile none(0, nullptr);
  EXPECT_NE(Written(none).find(R"("binary":null)"), std::string::npos);
}

}  // namespace
}  // namespace propscaler::bench
