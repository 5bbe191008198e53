#include "harness/result_file.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace propscaler::bench {
namespace {

// The first line `command` prints, or "" when it fails.
std::string FirstLine(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string line;
  for (int c; (c = std::fgetc(pipe)) != EOF && c != '\n';) {
    line.push_back(static_cast<char>(c));
  }
  return pclose(pipe) == 0 ? line : "";
}

std::string CommitJson() {
  const std::string git =
      std::string("git -C '") + PROPSCALER_SOURCE_DIR + "' ";
  const std::string commit = FirstLine(git + "rev-parse HEAD 2>/dev/null");
  if (commit.empty()) return "null";
  const bool changed =
      !FirstLine(git + "status --porcelain --untracked-files=no 2>/dev/null")
           .empty();
  return "{\"id\":" + JsonQuoted(commit) +
         ",\"changed\":" + (changed ? "true" : "false") + "}";
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

std::string JsonQuoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string MachineJson() {
  std::ifstream load("/proc/loadavg");
  std::string load_1m;
  load >> load_1m;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return "{\"cores\":" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) +
         ",\"memory_mib\":" +
         std::to_string(static_cast<int64_t>(pages) * page_size >> 20) +
         ",\"load_1m\":" + (load_1m.empty() ? "null" : load_1m) + "}";
}

ResultFile::ResultFile(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    command_ += (i ? " " : "") + std::string(argv[i]);
  }
}

void ResultFile::AddJson(const std::string& name, const std::string& json) {
  figures_ += (figures_.empty() ? "" : ",") + JsonQuoted(name) + ":" + json;
}

void ResultFile::Add(const std::string& name, double value) {
  if (!std::isfinite(value)) return AddJson(name, "null");
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  AddJson(name, text);
}

void ResultFile::Add(const std::string& name, int64_t value) {
  AddJson(name, std::to_string(value));
}

void ResultFile::Add(const std::string& name, const std::string& value) {
  AddJson(name, JsonQuoted(value));
}

void ResultFile::Add(const std::string& name,
                     const std::vector<std::string>& values) {
  std::string json = "[";
  for (const std::string& value : values) {
    json += (json.size() > 1 ? "," : "") + JsonQuoted(value);
  }
  AddJson(name, json + "]");
}

void ResultFile::SetBinary(const std::string& path) {
  const std::string version = FirstLine("'" + path + "' --version 2>&1");
  std::string commit = "unknown";
  if (const size_t at = version.find("(commit "); at != std::string::npos) {
    commit = version.substr(at + 8, version.find(')', at) - at - 8);
  }
  // "propscaler version 0.1.0 (commit abc) RelWithDebInfo".
  std::string build_type = "unknown";
  if (const size_t end = version.find(") "); end != std::string::npos &&
                                             end + 2 < version.size()) {
    build_type = version.substr(end + 2);
  }
  binary_ = "{\"path\":" + JsonQuoted(path) +
            ",\"version\":" + JsonQuoted(version) +
            ",\"commit\":" + JsonQuoted(commit) +
            ",\"build_type\":" + JsonQuoted(build_type) + "}";
}

Status ResultFile::Write(const std::string& path,
                         const std::vector<std::string>& failures) const {
  if (path.empty()) return Status::Ok();
  ResultFile verdict(0, nullptr);
  verdict.Add("failures", failures);
  std::ofstream out(path);
  out << "{\"command\":" << JsonQuoted(command_)
      << ",\"commit\":" << CommitJson() << ",\"binary\":" << binary_
      << ",\"at\":" << JsonQuoted(UtcNow()) << ",\"machine\":" << MachineJson()
      << ",\"passed\":" << (failures.empty() ? "true" : "false") << ","
      << verdict.figures_ << ",\"figures\":{" << figures_ << "}}\n";
  out.close();
  if (!out) return Status::Internal("writing the result file " + path);
  return Status::Ok();
}

}  // namespace propscaler::bench
