#include "e2e/fault_fixture.h"

namespace propscaler::e2e {

sim::FaultRule Fault(const std::string& method, const std::string& path_prefix,
                     int code, int count) {
  sim::FaultRule rule;
  rule.method = method;
  rule.path_prefix = path_prefix;
  rule.code = code;
  rule.count = count;
  return rule;
}

ReplicaSampler::ReplicaSampler(const sim::FakeApiServer* server)
    : server_(server) {
  const Result<int64_t> now =
      server_->GetReplicas("deployment", kNamespace, "coredns");
  min_ = max_ = now.ok() ? *now : -1;
  thread_ = std::thread([this] {
    while (!stop_.load()) {
      Result<int64_t> replicas =
          server_->GetReplicas("deployment", kNamespace, "coredns");
      if (replicas.ok()) {
        min_ = std::min(min_.load(), *replicas);
        max_ = std::max(max_.load(), *replicas);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
}

ReplicaSampler::~ReplicaSampler() {
  stop_ = true;
  thread_.join();
}

void FaultTest::SetUp() {
  sim::FakeApiServerOptions options;
  options.bookmark_interval = std::chrono::milliseconds(300);
  // Faults of paged lists and plain watches, as servers before WatchList
  // (kube-apiserver 1.20 among them) serve every list; WatchList's own are
  // in watch_list_test.cc.
  options.watch_list = sim::WatchListSupport::kBefore;
  StartServerWithPerNodeParams(options);
  health_port_ = FreePort();
}

std::unique_ptr<Process> FaultTest::StartConverged(
    int64_t want, std::vector<std::string> extra_args) {
  extra_args.push_back("--healthz-port=" + std::to_string(health_port_));
  extra_args.push_back("--poll-period-seconds=1");
  extra_args.push_back("--api-idle-timeout-seconds=1");
  std::unique_ptr<Process> process = Start(std::move(extra_args));
  EXPECT_TRUE(WaitForReplicas(want)) << process->Report();
  // Every watch open (configmaps, HPAs, nodes, deployments) before a test
  // injects its fault: a watch still on its way in would miss DropWatches
  // and the fault, and see the test's change without the faulted call.
  EXPECT_TRUE(WaitUntil([&] { return server_.open_watches() >= 4; },
                        std::chrono::seconds(5)))
      << server_.open_watches() << " watches open\n"
      << process->Report();
  return process;
}

int FaultTest::LastPollCode() {
  httplib::Result result = HealthGet(health_port_, "/last-poll");
  return result ? result->status : 0;
}

std::string FaultTest::LastPollBody() {
  httplib::Result result = HealthGet(health_port_, "/last-poll");
  return result ? result->body : "";
}

bool FaultTest::WaitForLastPoll(int code, const std::string& text,
                                std::chrono::milliseconds timeout) {
  return WaitUntil(
      [&] {
        httplib::Result result = HealthGet(health_port_, "/last-poll");
        return result && result->status == code &&
               result->body.find(text) != std::string::npos;
      },
      timeout);
}

std::vector<std::chrono::steady_clock::time_point> FaultTest::RequestTimes(
    std::chrono::steady_clock::time_point since,
    const std::string& verb_and_path) const {
  std::vector<std::chrono::steady_clock::time_point> times;
  for (const sim::LoggedRequest& request : server_.RequestLog(since)) {
    if (request.verb_and_path == verb_and_path) times.push_back(request.at);
  }
  return times;
}

int64_t FaultTest::RequestsSince(std::chrono::steady_clock::time_point since,
                                 const std::string& verb_and_path) const {
  return static_cast<int64_t>(RequestTimes(since, verb_and_path).size());
}

}  // namespace propscaler::e2e
