// Small file helpers for the I/O edges.
#ifndef PROPSCALER_COMMON_FILES_H_
#define PROPSCALER_COMMON_FILES_H_

#include <cstdint>
#include <string>

#include "common/status.h"

namespace propscaler {

// The whole file; the error names the path and the OS reason.
Result<std::string> ReadFile(const std::string& path);

// What tells a changed file from the same one: a new inode (a ConfigMap
// volume swaps its files in by symlink), size or modification time.
struct FileStamp {
  uint64_t device = 0;
  uint64_t inode = 0;
  int64_t size = 0;
  int64_t modified_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

// The stamp of the file `path` names (symlinks followed); kNotFound when it
// does not exist.
Result<FileStamp> StampOf(const std::string& path);

// Standard base64 (with or without padding, newlines ignored).
Result<std::string> DecodeBase64(const std::string& text);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FILES_H_
