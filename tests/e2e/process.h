// Runs the real propscaler binary for end-to-end tests: output to a log file
// the test can read, exit codes, signals, its health port, and polling with
// deadlines.
#ifndef PROPSCALER_TESTS_E2E_PROCESS_H_
#define PROPSCALER_TESTS_E2E_PROCESS_H_

#include <httplib.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace propscaler::e2e {

class Process {
 public:
  // Starts `binary` with `args`; stdout and stderr go to a temporary file.
  Process(const std::string& binary, const std::vector<std::string>& args,
          const std::vector<std::string>& extra_env = {});
  ~Process();  // kills it if still running
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  void Signal(int signal);
  // The exit code once it exits within `timeout` (128+N for signal N).
  std::optional<int> WaitForExit(std::chrono::milliseconds timeout);
  bool Running();
  std::string Output() const;
  // For failure messages: whether it still runs (or its exit code), then
  // its output.
  std::string Report();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string log_path_;
};

// Polls `condition` every 20ms until it holds or `timeout` passes.
bool WaitUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout);

// A temporary directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

// An executable script in `dir` that runs `binary` with its arguments and
// then `extra_flag` (the last of a repeated flag wins): `binary` made
// deliberately wrong, to show a harness failing it.
std::string WrapperAddingFlag(const TempDir& dir, const std::string& binary,
                              const std::string& extra_flag);

// A kubeconfig for `server` with the given token and CA file, an optional
// extra YAML line for the cluster (e.g. "insecure-skip-tls-verify: true"),
// and optional extra lines for the user, each indented by four spaces.
std::string KubeconfigYaml(const std::string& server, const std::string& token,
                           const std::string& ca_file = "",
                           const std::string& cluster_extra = "",
                           const std::string& user_lines = "");

// How often `text` occurs in `haystack` (a log, say).
int CountOf(const std::string& haystack, const std::string& text);

// A free TCP port on 127.0.0.1 (bound and released).
int FreePort();

// GET on propscaler's health port.
httplib::Result HealthGet(int port, const std::string& path);

// The path of the propscaler binary under test.
std::string PropscalerBinary();

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_PROCESS_H_
