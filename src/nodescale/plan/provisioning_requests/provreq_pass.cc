#include "nodescale/plan/provisioning_requests/provreq_pass.h"

#include <string_view>

namespace propscaler::nodescale {
namespace {

// The request a pod consumes ("" when none).
std::string_view ConsumedRequest(const PodState& pod) {
  std::string_view name = kube::AnnotationOf(
      *pod.annotations, kube::kConsumeProvisioningRequestAnnotation);
  return name.empty() ? kube::AnnotationOf(*pod.annotations,
                                           kube::kDeprecatedConsumeAnnotation)
                      : name;
}

// The metric's state of a request, as this loop found it.
const char* StateOf(const kube::ProvisioningRequest& request,
                    const ProvReqVerdict& verdict) {
  using Action = ProvReqVerdict::Action;
  if (verdict.action == Action::kUnsupported) return "unsupported";
  if (verdict.action == Action::kBook) return "provisioned";
  if (request.Is(kube::kFailed)) return "failed";
  if (request.Is(kube::kProvisioned)) return "done";
  return "pending";
}

ProvReqTodo::Kind KindOf(const kube::ProvisioningRequest& request,
                         const ProvReqVerdict& verdict) {
  using Action = ProvReqVerdict::Action;
  using Kind = ProvReqTodo::Kind;
  switch (verdict.action) {
    case Action::kNone:
    case Action::kUnsupported:
      return Kind::kNothing;
    case Action::kWrite:
      return Kind::kWrite;
    case Action::kDelete:
      return Kind::kDelete;
    case Action::kBook:
      return Kind::kBook;
    case Action::kCheck:
      return request.class_name == kube::kCheckCapacityClass ? Kind::kCheck
                                                             : Kind::kAtomic;
  }
  return Kind::kNothing;
}

}  // namespace

ConsumingPods TakeOutConsumingPods(PodList* pods) {
  ConsumingPods out;
  pods->EraseIf([&out](const PodState& pod) {
    const std::string_view request = ConsumedRequest(pod);
    if (request.empty() || pod.terminated) return false;
    const std::string key = pod.namespace_ + "/" + std::string(request);
    if (!pod.node_name.empty()) {
      ++out.scheduled[key];
      return false;
    }
    out.waiting[pod.Key()] = key;
    return true;
  });
  return out;
}

ProvReqPass PlanProvisioningRequests(
    const std::vector<kube::ProvisioningRequest>& requests,
    const std::map<std::string, int64_t>& consumed,
    const std::map<std::string, std::string>& acted,
    const ProvReqBackoff& backoff, const ProvReqOptions& options,
    const CheckCapacityBatch& batch, TimePoint now) {
  ProvReqPass pass;
  size_t checks = 0;
  for (const kube::ProvisioningRequest& request : requests) {
    ProvReqTodo todo{&request};
    auto written = acted.find(request.uid);
    if (written != acted.end() && written->second == request.resource_version) {
      todo.line = request.Key() + ": written, waiting to see it";
      pass.todo.push_back(std::move(todo));
      continue;
    }
    auto scheduled = consumed.find(request.Key());
    todo.verdict = ClassifyProvisioningRequest(
        request, now, backoff.Of(request.uid),
        scheduled == consumed.end() ? 0 : scheduled->second, options);
    todo.line =
        request.Key() + " (" + request.class_name + "): " + todo.verdict.why;
    ++pass.counts[{request.class_name, StateOf(request, todo.verdict)}];
    todo.kind = KindOf(request, todo.verdict);
    if (todo.kind == ProvReqTodo::Kind::kCheck) {
      if (batch.HasRoom(checks)) {
        ++checks;
      } else {
        todo.kind = ProvReqTodo::Kind::kNothing;
        todo.line += "; waits for the next loop";
      }
    }
    pass.todo.push_back(std::move(todo));
  }
  return pass;
}

}  // namespace propscaler::nodescale
