// Notices edits of vertical mode's --config-file: a stat() five times a
// second (nothing at rest, and an edit's delay well under a second), on a
// thread of its own between Start and Join. A change of the file's stamp
// (or its appearing or going) calls `notify` with "config file changed".
#ifndef PROPSCALER_VERTICAL_CONFIG_FILE_WATCH_H_
#define PROPSCALER_VERTICAL_CONFIG_FILE_WATCH_H_

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "common/clock.h"
#include "common/stop_signal.h"

namespace propscaler {

class ConfigFileWatch {
 public:
  static constexpr auto kCheckPeriod = std::chrono::milliseconds(200);

  ConfigFileWatch(const Clock* clock, std::string path,
                  std::function<void(const std::string& cause)> notify);

  void Start(StopSignal* stop);
  // After `stop` was stopped.
  void Join();

 private:
  void Watch(StopSignal* stop);

  const Clock* clock_;
  const std::string path_;
  const std::function<void(const std::string&)> notify_;
  std::thread thread_;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_CONFIG_FILE_WATCH_H_
