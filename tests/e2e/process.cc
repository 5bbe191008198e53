#include "e2e/process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace propscaler::e2e {

namespace {

// `extra` (NAME=VALUE entries), then this process's environment: getenv
// takes the first entry of a name, so `extra` overrides.
std::vector<std::string> ChildEnvironment(
    const std::vector<std::string>& extra) {
  std::vector<std::string> entries = extra;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  return entries;
}

std::vector<char*> NullTerminated(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

// posix_spawn rather than fork: the test process has many threads, and a
// forked child may only make async-signal-safe calls before exec.
Process::Process(const std::string& binary,
                 const std::vector<std::string>& args,
                 const std::vector<std::string>& extra_env) {
  char log_template[] = "/tmp/propscaler-e2e-log-XXXXXX";
  const int log_fd = mkstemp(log_template);
  log_path_ = log_template;
  std::vector<std::string> argv_storage = {binary};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<std::string> env_storage = ChildEnvironment(extra_env);
  std::vector<char*> argv = NullTerminated(argv_storage);
  std::vector<char*> envp = NullTerminated(env_storage);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  // The test's sockets (the simulated server's listener and connections)
  // carry no close-on-exec flag: a child holding them would keep a port
  // bound after the server stops and connections open after it drops them.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  const int error = posix_spawn(&pid_, binary.c_str(), &actions, nullptr,
                                argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(log_fd);
  if (error != 0) {
    pid_ = -1;
    exit_code_ = 127;
    std::ofstream(log_path_)
        << "cannot start " << binary << ": " << std::strerror(error) << "\n";
  }
}

Process::~Process() {
  if (Running()) {
    kill(pid_, SIGKILL);
    WaitForExit(std::chrono::seconds(5));
  }
  std::filesystem::remove(log_path_);
}

void Process::Signal(int signal) {
  if (!exit_code_) kill(pid_, signal);
}

std::optional<int> Process::WaitForExit(std::chrono::milliseconds timeout) {
  WaitUntil([this] { return !Running(); }, timeout);
  return exit_code_;
}

bool Process::Running() {
  if (exit_code_) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return false;
}

std::string Process::Output() const {
  std::ifstream in(log_path_);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Process::Report() {
  std::string state = "process " + std::to_string(pid_);
  state += Running() ? " is running"
                     : " exited with code " + std::to_string(*exit_code_);
  const std::string output = Output();
  return state + "; its output (" + std::to_string(output.size()) +
         " bytes):\n" + output;
}

bool WaitUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TempDir::TempDir() {
  char dir_template[] = "/tmp/propscaler-e2e-XXXXXX";
  path_ = mkdtemp(dir_template);
}

TempDir::~TempDir() { std::filesystem::remove_all(path_); }

std::string TempDir::Write(const std::string& name,
                           const std::string& content) const {
  const std::string file = path_ + "/" + name;
  std::ofstream(file) << content;
  return file;
}

std::string WrapperAddingFlag(const TempDir& dir, const std::string& binary,
                              const std::string& extra_flag) {
  const std::string path = dir.Write(
      "wrapped-" + std::filesystem::path(binary).filename().string(),
      "#!/bin/sh\nexec '" + binary + "' \"$@\" '" + extra_flag + "'\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

std::string KubeconfigYaml(const std::string& server, const std::string& token,
                           const std::string& ca_file,
                           const std::string& cluster_extra,
                           const std::string& user_lines) {
  std::ostringstream out;
  out << "apiVersion: v1\nkind: Config\ncurrent-context: test\n"
      << "clusters:\n- name: sim\n  cluster:\n    server: " << server << "\n";
  if (!ca_file.empty()) out << "    certificate-authority: " << ca_file << "\n";
  if (!cluster_extra.empty()) out << "    " << cluster_extra << "\n";
  out << "contexts:\n- name: test\n  context:\n    cluster: sim\n"
      << "    user: tester\n";
  out << "users:\n- name: tester\n  user:\n";
  if (!token.empty()) out << "    token: " << token << "\n";
  out << user_lines;
  if (token.empty() && user_lines.empty()) out << "    {}\n";
  return out.str();
}

int CountOf(const std::string& haystack, const std::string& text) {
  int count = 0;
  for (size_t at = haystack.find(text); at != std::string::npos;
       at = haystack.find(text, at + text.size())) {
    ++count;
  }
  return count;
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

std::string PropscalerBinary() { return PROPSCALER_BINARY; }

httplib::Result HealthGet(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(std::chrono::seconds(2));
  return client.Get(path.c_str());
}

}  // namespace propscaler::e2e
