#include "memcluster/memory_cluster.h"

#include "memcluster/memory_client.h"

namespace propscaler::memcluster {

MemoryCluster::MemoryCluster(const Clock* clock, size_t history_size)
    : clock_(clock),
      store_(history_size, clock),
      client_(std::make_unique<MemoryClient>(this)) {}

MemoryCluster::~MemoryCluster() { store_.Shutdown(); }

void MemoryCluster::SetFault(Fault fault) {
  std::lock_guard<std::mutex> lock(mutex_);
  fault_ = std::move(fault);
}

Status MemoryCluster::CheckFault(std::string_view call) const {
  Fault fault;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++calls_[std::string(call)];
    fault = fault_;
  }
  return fault ? fault(call) : Status::Ok();
}

void MemoryCluster::SetAnswerHook(AnswerHook hook) {
  std::lock_guard<std::mutex> lock(mutex_);
  answer_hook_ = std::move(hook);
}

void MemoryCluster::Answering(std::string_view call) const {
  AnswerHook hook;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hook = answer_hook_;
  }
  if (hook) hook(call);
}

std::map<std::string, int64_t> MemoryCluster::Calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

Status MemoryCluster::AddNode(const sim::NodeShape& shape) {
  return sim::CreateNode(store_, sim::MakeNodeJson(shape));
}

Status MemoryCluster::SetNodeReady(const std::string& name, bool ready) {
  return sim::PatchNode(
      store_, name,
      std::string(R"({"status":{"conditions":[{"type":"Ready","status":")") +
          (ready ? "True" : "False") + R"("}]}})");
}

}  // namespace propscaler::memcluster
