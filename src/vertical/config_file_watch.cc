#include "vertical/config_file_watch.h"

#include <optional>
#include <utility>

#include "common/files.h"

namespace propscaler {
namespace {

std::optional<FileStamp> StampIfAny(const std::string& path) {
  Result<FileStamp> stamp = StampOf(path);
  if (!stamp.ok()) return std::nullopt;
  return *stamp;
}

}  // namespace

ConfigFileWatch::ConfigFileWatch(
    const Clock* clock, std::string path,
    std::function<void(const std::string& cause)> notify)
    : clock_(clock), path_(std::move(path)), notify_(std::move(notify)) {}

void ConfigFileWatch::Start(StopSignal* stop) {
  thread_ = clock_->StartThread([this, stop] { Watch(stop); });
}

void ConfigFileWatch::Join() {
  if (thread_.joinable()) thread_.join();
}

void ConfigFileWatch::Watch(StopSignal* stop) {
  std::optional<FileStamp> seen = StampIfAny(path_);
  while (!stop->WaitFor(kCheckPeriod)) {
    const std::optional<FileStamp> now = StampIfAny(path_);
    if (now != seen) notify_("config file changed");
    seen = now;
  }
}

}  // namespace propscaler
