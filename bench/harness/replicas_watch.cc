#include "harness/replicas_watch.h"

#include <rapidjson/document.h>

#include <string_view>

#include "harness/bench_cluster.h"

namespace propscaler::bench {
namespace {

const std::string kPath =
    std::string("/apis/apps/v1/namespaces/") + kNamespace + "/deployments";

// spec.replicas and metadata.resourceVersion of a Deployment.
struct Seen {
  int64_t replicas = -1;
  std::string version;
};

Seen Read(const rapidjson::Value& deployment) {
  Seen seen;
  if (!deployment.IsObject()) return seen;
  auto spec = deployment.FindMember("spec");
  if (spec != deployment.MemberEnd() && spec->value.IsObject()) {
    auto replicas = spec->value.FindMember("replicas");
    if (replicas != spec->value.MemberEnd() && replicas->value.IsInt64()) {
      seen.replicas = replicas->value.GetInt64();
    }
  }
  auto metadata = deployment.FindMember("metadata");
  if (metadata != deployment.MemberEnd() && metadata->value.IsObject()) {
    auto version = metadata->value.FindMember("resourceVersion");
    if (version != metadata->value.MemberEnd() && version->value.IsString()) {
      seen.version = version->value.GetString();
    }
  }
  return seen;
}

}  // namespace

Result<std::unique_ptr<ReplicasWatch>> ReplicasWatch::Open(
    const kube::HttpClient& admin) {
  kube::HttpRequest get;
  get.path = kPath + "/" + kDeployment;
  Result<kube::HttpResponse> got = admin.Do(get);
  if (!got.ok()) return got.status();
  rapidjson::Document doc;
  doc.Parse(got->body.c_str());
  const Seen seen = doc.HasParseError() ? Seen() : Read(doc);
  if (got->status != 200 || seen.replicas < 0 || seen.version.empty()) {
    return Status::Internal("reading Deployment " + std::string(kNamespace) +
                            "/" + kDeployment + " to watch it: HTTP " +
                            std::to_string(got->status));
  }
  return std::unique_ptr<ReplicasWatch>(
      new ReplicasWatch(admin, seen.replicas, seen.version));
}

ReplicasWatch::ReplicasWatch(const kube::HttpClient& admin, int64_t replicas,
                             std::string version)
    : admin_(admin), last_(replicas) {
  thread_ = std::thread([this, version] { Run(version); });
}

ReplicasWatch::~ReplicasWatch() {
  stop_ = true;
  thread_.join();
}

void ReplicasWatch::Run(std::string version) {
  for (bool first = true; !stop_; first = false) {
    // A watch that ended at once (refused, expired): not a busy loop.
    if (!first) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kube::HttpRequest watch;
    watch.path = kPath + "?watch=1&fieldSelector=metadata.name%3D" +
                 kDeployment + "&resourceVersion=" + version +
                 "&timeoutSeconds=600";
    watch.timeout_seconds = 660;
    // Its end, however it came, is met by the loop: another watch from
    // the last version seen.
    (void)admin_.Stream(
        watch,
        [&](std::string_view line) {
          rapidjson::Document event;
          event.Parse(line.data(), line.size());
          if (event.HasParseError() || !event.IsObject() ||
              !event.HasMember("object")) {
            return true;
          }
          const Seen seen = Read(event["object"]);
          if (!seen.version.empty()) version = seen.version;
          std::lock_guard<std::mutex> lock(mutex_);
          if (seen.replicas >= 0 && seen.replicas != last_) {
            last_ = seen.replicas;
            changes_.push_back(
                {std::chrono::steady_clock::now(), seen.replicas});
          }
          return !stop_;
        },
        &stop_);
  }
}

std::vector<ReplicasChange> ReplicasWatch::Changes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return changes_;
}

}  // namespace propscaler::bench
