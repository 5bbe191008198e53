// A harness run's raw result, kept under bench/results/ and read by
// bench/tables.py to write bench/README.md's tables: one JSON object with
// the command as typed, the checkout's commit when the file was written
// (and whether the tree had changes), the binary that ran ("binary": its
// path and the commit it was built from, as its --version says, which is
// what a figure is of), the machine (cores, memory, 1-minute load at the
// end), the verdict, and the run's figures.
#ifndef PROPSCALER_BENCH_HARNESS_RESULT_FILE_H_
#define PROPSCALER_BENCH_HARNESS_RESULT_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace propscaler::bench {

// `text` as a JSON string.
std::string JsonQuoted(const std::string& text);

// The machine as a JSON object: cores, memory_mib, load_1m.
std::string MachineJson();

class ResultFile {
 public:
  // `argv` as main got it, before flag parsing takes the flags out.
  ResultFile(int argc, char** argv);

  void Add(const std::string& name, double value);
  void Add(const std::string& name, int64_t value);
  void Add(const std::string& name, int value) {
    Add(name, static_cast<int64_t>(value));
  }
  void Add(const std::string& name, const std::string& value);
  void Add(const std::string& name, const char* value) {
    Add(name, std::string(value));
  }
  void Add(const std::string& name, const std::vector<std::string>& values);
  // A figure that is itself JSON (an object of counts, say).
  void AddJson(const std::string& name, const std::string& json);

  // The propscaler binary the run measured: its path, its --version line,
  // the commit it names and its build type ("unknown" when it says none).
  void SetBinary(const std::string& path);

  // Writes the object to `path` with `failures` (empty: passed); nothing
  // when `path` is empty.
  Status Write(const std::string& path,
               const std::vector<std::string>& failures) const;

 private:
  std::string command_;
  std::string binary_ = "null";  // JSON
  std::string figures_;          // "name":value pairs, comma-separated
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_RESULT_FILE_H_
