#include "common/files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace propscaler {

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::Invalid("cannot read file " + path + ": " +
                           std::strerror(errno));
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Result<FileStamp> StampOf(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    const std::string message =
        "cannot stat file " + path + ": " + std::strerror(errno);
    return errno == ENOENT ? Status::NotFound(message)
                           : Status::Invalid(message);
  }
  return FileStamp{static_cast<uint64_t>(info.st_dev),
                   static_cast<uint64_t>(info.st_ino),
                   static_cast<int64_t>(info.st_size),
                   static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 +
                       info.st_mtim.tv_nsec};
}

namespace {
int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

Result<std::string> DecodeBase64(const std::string& text) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '=') break;
    if (c == '\n' || c == '\r' || c == ' ') continue;
    int v = Base64Value(c);
    if (v < 0) {
      return Status::Invalid("invalid base64: character '" + std::string(1, c) +
                             "' at offset " + std::to_string(i));
    }
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace propscaler
