#include "nodescale/provider/clusterapi.h"

#include <glog/logging.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>
#include <sstream>

#include "common/duration.h"
#include "common/quantity.h"
#include "common/utc_time.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

constexpr char kPaused[] = "cluster.x-k8s.io/paused";

// The name of `object`'s owner of kind `kind`; empty when it has none.
std::string OwnerOfKind(const kube::ClusterApiObject& object,
                        std::string_view kind) {
  for (const kube::ClusterApiOwner& owner : object.owners) {
    if (owner.kind == kind) return owner.name;
  }
  return "";
}

}  // namespace

std::string NormalizedProviderId(std::string_view provider_id) {
  // An Azure scale set's instance IDs end in an index that repeats across
  // scale sets, so, as CA does, they are compared whole.
  if (provider_id.starts_with("azure://") &&
      provider_id.find("virtualMachineScaleSets") != std::string_view::npos) {
    return std::string(provider_id);
  }
  const size_t slash = provider_id.rfind('/');
  return std::string(slash == std::string_view::npos
                         ? provider_id
                         : provider_id.substr(slash + 1));
}

ClusterApiKeys::ClusterApiKeys(const std::string& group)
    : min_size(group + "/cluster-api-autoscaler-node-group-min-size"),
      max_size(group + "/cluster-api-autoscaler-node-group-max-size"),
      delete_machine(group + "/delete-machine"),
      machine(group + "/machine"),
      cluster_namespace(group + "/cluster-namespace"),
      cluster_name(group + "/cluster-name"),
      options_prefix(group + "/autoscaling-options-") {}

NodeGroupOptions ParseGroupOptions(const Labels& annotations,
                                   const ClusterApiKeys& keys,
                                   const std::string& object,
                                   std::vector<std::string>* problems) {
  NodeGroupOptions options;
  const std::pair<const char*, std::optional<Duration>*> durations[] = {
      {"scaledownunneededtime", &options.scale_down_unneeded_time},
      {"scaledownunreadytime", &options.scale_down_unready_time},
      {"maxnodeprovisiontime", &options.max_node_provision_time},
      {"maxnodestartuptime", &options.max_node_startup_time}};
  for (const auto& [suffix, out] : durations) {
    auto it = annotations.find(keys.options_prefix + suffix);
    if (it == annotations.end()) continue;
    std::string value = it->second;
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    Result<std::chrono::milliseconds> parsed = ParseDuration(it->first, value);
    if (parsed.ok() && parsed->count() >= 0) {
      *out = *parsed;
    } else {
      problems->push_back(object + ": annotation " + it->first + "=\"" +
                          it->second +
                          "\" is not a duration such as 10m0s; "
                          "the flag's value applies");
    }
  }
  auto threshold =
      annotations.find(keys.options_prefix + "scaledownutilizationthreshold");
  if (threshold != annotations.end()) {
    char* end = nullptr;
    const double value = std::strtod(threshold->second.c_str(), &end);
    if (!threshold->second.empty() && *end == '\0' && value >= 0 &&
        value <= 1) {
      options.scale_down_utilization_threshold = value;
    } else {
      problems->push_back(object + ": annotation " + threshold->first + "=\"" +
                          threshold->second +
                          "\" is not a number from 0 to 1; the flag's value "
                          "applies");
    }
  }
  return options;
}

Result<std::optional<ScalingBounds>> ParseScalingBounds(
    const Labels& annotations, const std::string& object,
    const ClusterApiKeys& keys) {
  const std::string& kMinSize = keys.min_size;
  const std::string& kMaxSize = keys.max_size;
  ScalingBounds bounds;
  for (const auto& [key, out] :
       {std::pair{&kMinSize, &bounds.min}, std::pair{&kMaxSize, &bounds.max}}) {
    auto it = annotations.find(*key);
    if (it == annotations.end()) continue;
    int64_t value = -1;
    const std::string& text = it->second;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) {
      return Status::Invalid(object + ": annotation " + *key + "=\"" + text +
                             "\": want a non-negative integer");
    }
    *out = value;
  }
  if (bounds.max < bounds.min && !annotations.contains(kMaxSize)) {
    return Status::Invalid(object + ": annotation " + kMinSize + "=\"" +
                           std::to_string(bounds.min) + "\" without " +
                           kMaxSize);
  }
  if (bounds.max < bounds.min) {
    return Status::Invalid(object + ": annotation " + kMaxSize + "=\"" +
                           std::to_string(bounds.max) + "\" is below " +
                           kMinSize + "=\"" + std::to_string(bounds.min) +
                           "\"");
  }
  // As Cluster Autoscaler: a missing min is 0, and without a max above 0
  // the object is no node group.
  if (bounds.max == 0) return std::optional<ScalingBounds>();
  return std::optional<ScalingBounds>(bounds);
}

Status ClusterApiProvider::ReadGroups(ClusterApiObjects::Kind kind,
                                      ClusterApiPools* pools,
                                      std::vector<NodeGroup>* groups) {
  const auto target_kind = kind == ClusterApiObjects::kMachineDeployments
                               ? kube::ScaleTarget::Kind::kMachineDeployment
                           : kind == ClusterApiObjects::kMachinePools
                               ? kube::ScaleTarget::Kind::kMachinePool
                               : kube::ScaleTarget::Kind::kMachineSet;
  for (const kube::ClusterApiObject& object : objects_->Objects(kind)) {
    // A MachineSet a MachineDeployment manages is scaled through the
    // deployment; CA does not treat it as a node group of its own, nor an
    // object Cluster API was told to leave alone.
    if (!OwnerOfKind(object, "MachineDeployment").empty() ||
        object.annotations.contains(kPaused) ||
        !AllowedByDiscovery(discovery_, object, keys_.cluster_name)) {
      continue;
    }
    GroupRef ref{
        object.namespace_,
        kube::ScaleTarget{target_kind, object.name, api_.GroupVersion()}, kind};
    NodeGroup group;
    group.name = GroupName(kind, ref.ns, object.name);
    Result<std::optional<ScalingBounds>> bounds =
        ParseScalingBounds(object.annotations, group.name, keys_);
    if (!bounds.ok()) return bounds.status();
    if (!bounds->has_value()) continue;
    group.min_size = (*bounds)->min;
    group.max_size = (*bounds)->max;
    group.target_size = object.replicas.value_or(0);
    Result<std::optional<NodeTemplate>> declared =
        ScaleFromZeroTemplate(object, Infrastructure(object), default_arch_);
    if (!declared.ok()) return declared.status().WithContext(group.name);
    group.declared_template = *declared;
    // As Cluster Autoscaler: a group with no replicas and no cpu and memory
    // to build a node from cannot scale from zero, and is no group.
    if (group.target_size == 0 && !group.declared_template) {
      VLOG(1) << group.name
              << ": no replicas, and neither its capacity annotations nor its "
                 "infrastructure template's status.capacity give cpu and "
                 "memory: not a node group";
      continue;
    }
    if (kind == ClusterApiObjects::kMachineDeployments) {
      group.rolling_out =
          rolling_out_.contains(object.namespace_ + "/" + object.name);
    }
    std::vector<std::string> problems;
    group.options =
        ParseGroupOptions(object.annotations, keys_, group.name, &problems);
    for (const std::string& problem : problems) LOG(WARNING) << problem;
    if (Status s = pools->Add(object.annotations, &group); !s.ok()) return s;
    refs_[group.name] = ref;
    for (const std::string& id : object.provider_ids) {
      pool_by_provider_id_[NormalizedProviderId(id)] = group.name;
    }
    groups->push_back(std::move(group));
  }
  return Status::Ok();
}

std::string ClusterApiProvider::GroupName(ClusterApiObjects::Kind kind,
                                          const std::string& ns,
                                          const std::string& name) {
  return std::string(ClusterApiObjects::kKindNames[kind]) + "/" + ns + "/" +
         name;
}

std::string ClusterApiProvider::GroupOfMachine(
    const kube::ClusterApiObject& machine) const {
  // Through the owners, as Cluster Autoscaler maps them: the Machine's
  // MachineSet, and that MachineSet's MachineDeployment when it has one.
  if (const std::string set = OwnerOfKind(machine, "MachineSet");
      !set.empty()) {
    auto owner = deployment_of_set_.find(machine.namespace_ + "/" + set);
    const std::string deployment =
        owner == deployment_of_set_.end() ? "" : owner->second;
    return deployment.empty()
               ? GroupName(ClusterApiObjects::kMachineSets, machine.namespace_,
                           set)
               : GroupName(ClusterApiObjects::kMachineDeployments,
                           machine.namespace_, deployment);
  }
  // A Machine without owners (made by hand, or by a controller that sets
  // only Cluster API's labels): its labels.
  for (const auto& [label, kind] :
       {std::pair{"cluster.x-k8s.io/deployment-name",
                  ClusterApiObjects::kMachineDeployments},
        std::pair{"cluster.x-k8s.io/set-name",
                  ClusterApiObjects::kMachineSets}}) {
    auto it = machine.labels.find(label);
    if (it == machine.labels.end()) continue;
    const std::string group = GroupName(kind, machine.namespace_, it->second);
    if (refs_.contains(group)) return group;
  }
  return "";
}

void ClusterApiProvider::MapMachines() {
  machine_to_group_.clear();
  machine_by_provider_id_.clear();
  deleting_.clear();
  for (const kube::ClusterApiObject& object :
       objects_->Objects(ClusterApiObjects::kMachines)) {
    const std::string group = GroupOfMachine(object);
    if (!refs_.contains(group)) continue;
    const MachineRef machine{object.namespace_, object.name};
    machine_to_group_[machine.Key()] = group;
    if (object.deleting) deleting_.insert(machine.Key());
    const std::string provider_id = NormalizedProviderId(object.provider_id);
    if (!provider_id.empty()) machine_by_provider_id_[provider_id] = machine;
  }
}

void ClusterApiProvider::IndexMachineSets() {
  constexpr char kRevision[] = "machinedeployment.clusters.x-k8s.io/revision";
  deployment_of_set_.clear();
  rolling_out_.clear();
  struct Sets {
    int64_t newest_revision = -1;
    std::string newest;
    std::vector<std::pair<std::string, bool>> up;  // name, has replicas
  };
  std::map<std::string, Sets> by_deployment;  // ns/deployment
  for (const kube::ClusterApiObject& set :
       objects_->Objects(ClusterApiObjects::kMachineSets)) {
    const std::string deployment = OwnerOfKind(set, "MachineDeployment");
    if (deployment.empty()) continue;
    deployment_of_set_[set.namespace_ + "/" + set.name] = deployment;
    Sets& sets = by_deployment[set.namespace_ + "/" + deployment];
    const int64_t revision = std::strtoll(
        std::string(AnnotationOf(set.annotations, kRevision)).c_str(), nullptr,
        10);
    if (revision > sets.newest_revision) {
      sets.newest_revision = revision;
      sets.newest = set.name;
    }
    sets.up.emplace_back(
        set.name, set.replicas.value_or(0) > 0 || set.status_replicas > 0);
  }
  for (const auto& [deployment, sets] : by_deployment) {
    for (const auto& [name, up] : sets.up) {
      if (up && name != sets.newest) rolling_out_.insert(deployment);
    }
  }
}

namespace {

bool HasCpuAndMemory(const std::optional<kube::InfrastructureTemplate>& t) {
  return t.has_value() && t->capacity.contains("cpu") &&
         t->capacity.contains("memory");
}

constexpr std::chrono::minutes kIncompleteTemplateReread{1};

}  // namespace

const kube::InfrastructureTemplate* ClusterApiProvider::Infrastructure(
    const kube::ClusterApiObject& group) {
  const kube::InfrastructureRef& ref = group.infrastructure_ref;
  if (ref.empty()) return nullptr;
  const std::string key = group.namespace_ + "/" + ref.Group() + "/" +
                          ref.Version() + "/" + ref.kind + "/" + ref.name;
  const TimePoint now = clock_->Now();
  auto it = infrastructure_.find(key);
  if (it == infrastructure_.end() ||
      (!HasCpuAndMemory(it->second.status) &&
       now - it->second.read_at >= kIncompleteTemplateReread)) {
    Result<kube::InfrastructureTemplate> read =
        machines_->GetInfrastructureTemplate(ref, group.namespace_);
    LOG_IF(WARNING, !read.ok())
        << "scale from zero of " << group.namespace_ << "/" << group.name
        << " without its infrastructure template: " << read.status().message();
    ReadTemplate entry{read.ok() ? std::optional(*read) : std::nullopt, now};
    it = infrastructure_.insert_or_assign(key, std::move(entry)).first;
  }
  it->second.used = true;
  return it->second.status ? &*it->second.status : nullptr;
}

bool ClusterApiProvider::InfrastructureRefreshDue() const {
  const TimePoint now = clock_->Now();
  for (const auto& [key, entry] : infrastructure_) {
    if (!HasCpuAndMemory(entry.status) &&
        now - entry.read_at >= kIncompleteTemplateReread) {
      return true;
    }
  }
  return false;
}

Status ClusterApiProvider::Ready() const {
  std::string missing;
  for (const std::string& resource : objects_->NotListed()) {
    missing += (missing.empty() ? "" : ", ") + resource;
  }
  return missing.empty()
             ? Status::Ok()
             : Status::Unavailable("waiting for the first list of " + missing);
}

Result<std::vector<NodeGroup>> ClusterApiProvider::NodeGroups(
    const SharedNodes&) {
  if (Status ready = Ready(); !ready.ok()) return ready;
  // Read before the objects: a change meanwhile is read again next time.
  const uint64_t version = objects_->Version();
  if (groups_.has_value() && version == groups_version_ &&
      !InfrastructureRefreshDue()) {
    return *groups_;
  }
  for (auto& [key, entry] : infrastructure_) entry.used = false;
  IndexMachineSets();
  refs_.clear();
  pool_by_provider_id_.clear();
  std::vector<NodeGroup> groups;
  ClusterApiPools pools;
  for (ClusterApiObjects::Kind kind :
       {ClusterApiObjects::kMachineDeployments, ClusterApiObjects::kMachineSets,
        ClusterApiObjects::kMachinePools}) {
    if (Status s = ReadGroups(kind, &pools, &groups); !s.ok()) {
      groups_.reset();
      return s;
    }
  }
  Result<std::vector<NodePool>> declared = pools.Pools();
  if (!declared.ok()) {
    groups_.reset();
    return declared.status();
  }
  pools_ = *std::move(declared);
  MapMachines();
  std::erase_if(infrastructure_,
                [](const auto& entry) { return !entry.second.used; });
  groups_ = groups;
  groups_version_ = version;
  return groups;
}

std::optional<ClusterApiProvider::MachineRef> ClusterApiProvider::FindMachine(
    const NodeState& node) const {
  const MachineRef annotated{
      std::string(AnnotationOf(node.annotations, keys_.cluster_namespace)),
      std::string(AnnotationOf(node.annotations, keys_.machine))};
  if (!annotated.ns.empty() && !annotated.name.empty()) return annotated;
  const std::string provider_id = NormalizedProviderId(node.provider_id);
  if (provider_id.empty()) return std::nullopt;
  auto it = machine_by_provider_id_.find(provider_id);
  if (it == machine_by_provider_id_.end()) return std::nullopt;
  return it->second;
}

std::string ClusterApiProvider::PoolOf(const NodeState& node) const {
  auto pool = pool_by_provider_id_.find(NormalizedProviderId(node.provider_id));
  return node.provider_id.empty() || pool == pool_by_provider_id_.end()
             ? ""
             : pool->second;
}

std::string ClusterApiProvider::NodeGroupOf(const NodeState& node) const {
  // A MachinePool's instances first, as Cluster Autoscaler looks them up.
  if (std::string pool = PoolOf(node); !pool.empty()) return pool;
  const std::optional<MachineRef> machine = FindMachine(node);
  if (!machine.has_value()) return "";
  auto it = machine_to_group_.find(machine->Key());
  return it == machine_to_group_.end() ? "" : it->second;
}

// Others change these replicas too (a person, GitOps, Cluster API itself),
// so the change is applied to a fresh read of the scale, written back under
// its resourceVersion, and read again on a 409: a concurrent change is
// added to, never overwritten.
Status ClusterApiProvider::AdjustReplicas(const NodeGroup& group,
                                          int64_t delta) {
  auto ref = refs_.find(group.name);
  if (ref == refs_.end()) {
    return Status::NotFound("node group " + group.name + ": not known");
  }
  const GroupRef& group_ref = ref->second;
  const std::string what =
      "changing replicas of " + group.name + " by " + std::to_string(delta);
  constexpr int kAttempts = 5;
  Status last;
  // The watched copy first: no GET when it is current (a 409 when not).
  std::optional<kube::Scale> scale = WatchedScale(group_ref);
  std::optional<int64_t> planned_from;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    if (!scale.has_value()) {
      Result<kube::Scale> read =
          scales_->GetScale(group_ref.ns, group_ref.target);
      if (!read.ok()) return read.status().WithContext(what);
      scale = *read;
    }
    if (!planned_from) planned_from = scale->spec_replicas;
    // A scale-up was planned from a size that someone else has changed
    // since: writing it now would act on a stale view (the other writer's
    // nodes may already hold the pods). The next iteration plans again from
    // the size as it is. A scale-down's machines are marked already: they
    // are taken off whatever the size is now.
    if (delta > 0 && scale->spec_replicas != *planned_from) {
      return Status(StatusCode::kConflict,
                    what + ": its replicas went from " +
                        std::to_string(*planned_from) + " to " +
                        std::to_string(scale->spec_replicas) +
                        " by another writer since this scale-up was "
                        "planned; it is planned again from the new size");
    }
    // An increase stops at the group's max size (someone may have raised
    // it meanwhile); a decrease at zero.
    int64_t replicas = std::max<int64_t>(0, scale->spec_replicas + delta);
    if (delta > 0) {
      replicas =
          std::max(scale->spec_replicas, std::min(replicas, group.max_size));
    }
    if (replicas == scale->spec_replicas) return Status::Ok();
    Result<kube::Scale> written =
        scales_->UpdateScale(group_ref.ns, group_ref.target, *scale, replicas);
    if (written.ok()) {
      objects_->WroteReplicas(group_ref.kind, group_ref.ns,
                              group_ref.target.name, written->spec_replicas,
                              written->resource_version);
      return Status::Ok();
    }
    last = written.status();
    if (last.code() != StatusCode::kConflict) break;
    scale.reset();
  }
  return last.WithContext(what);
}

std::optional<kube::Scale> ClusterApiProvider::WatchedScale(
    const GroupRef& ref) const {
  const std::optional<kube::ClusterApiObject> object =
      objects_->Find(ref.kind, ref.ns, ref.target.name);
  if (!object.has_value() || !object->replicas.has_value() ||
      object->resource_version.empty()) {
    return std::nullopt;
  }
  return kube::Scale{object->name, object->resource_version, *object->replicas,
                     0};
}

Status ClusterApiProvider::IncreaseSize(const NodeGroup& group, int64_t delta) {
  return AdjustReplicas(group, delta);
}

std::optional<kube::ClusterApiObject> ClusterApiProvider::PoolObject(
    const NodeGroup& group) const {
  auto ref = refs_.find(group.name);
  if (ref == refs_.end() ||
      ref->second.kind != ClusterApiObjects::kMachinePools) {
    return std::nullopt;
  }
  return objects_->Find(ClusterApiObjects::kMachinePools, ref->second.ns,
                        ref->second.target.name);
}

Status ClusterApiProvider::DecreaseTargetSize(
    const NodeGroup& group, int64_t delta,
    const std::vector<const NodeState*>& registered) {
  if (delta <= 0) return Status::Ok();
  // A MachinePool has no Machines to mark: only the replicas that have no
  // instance in spec.providerIDList yet may go.
  if (const std::optional<kube::ClusterApiObject> pool = PoolObject(group)) {
    const int64_t unmade = std::max<int64_t>(
        0, group.target_size - static_cast<int64_t>(pool->provider_ids.size()));
    if (delta > unmade) {
      return Status::Invalid(
          "giving up " + std::to_string(delta) + " nodes of " + group.name +
          " that never registered: only " + std::to_string(unmade) +
          " replicas have no instance in spec.providerIDList; lowering "
          "replicas further would remove an instance");
    }
    return AdjustReplicas(group, -delta);
  }
  std::set<std::string> with_node;
  for (const NodeState* node : registered) {
    if (std::optional<MachineRef> machine = FindMachine(*node)) {
      with_node.insert(machine->Key());
    }
  }
  int64_t machines = 0;
  std::vector<MachineRef> without_node;
  for (const kube::ClusterApiObject& object :
       objects_->Objects(ClusterApiObjects::kMachines)) {
    const MachineRef machine{object.namespace_, object.name};
    auto group_of = machine_to_group_.find(machine.Key());
    // A Machine being deleted is already off the replicas.
    if (group_of == machine_to_group_.end() || group_of->second != group.name ||
        deleting_.contains(machine.Key())) {
      continue;
    }
    ++machines;
    if (!with_node.contains(machine.Key())) without_node.push_back(machine);
  }
  const int64_t unmade = std::max<int64_t>(0, group.target_size - machines);
  const int64_t to_mark = std::max<int64_t>(0, delta - unmade);
  if (to_mark > static_cast<int64_t>(without_node.size())) {
    return Status::Invalid(
        "giving up " + std::to_string(delta) + " nodes of " + group.name +
        " that never registered: " + std::to_string(unmade) +
        " replicas have no machine and " + std::to_string(without_node.size()) +
        " machines no node; lowering replicas further would delete a "
        "machine with a node");
  }
  without_node.resize(to_mark);
  return RemoveMachines(
      group, without_node,
      std::vector<std::string>(without_node.size(), "without a node"), delta);
}

Result<ClusterApiProvider::MachineRef> ClusterApiProvider::MachineOf(
    const NodeState& node, const NodeGroup& group) const {
  const std::optional<MachineRef> found = FindMachine(node);
  if (!found.has_value()) {
    return Status::NotFound(std::string("node ") + node.name +
                            ": no machine (annotations " + keys_.machine +
                            " and " + keys_.cluster_namespace +
                            ", or a Machine with its spec.providerID \"" +
                            node.provider_id + "\")");
  }
  const MachineRef& machine = *found;
  auto it = machine_to_group_.find(machine.Key());
  if (it == machine_to_group_.end()) {
    return Status::NotFound("node " + node.name + ": machine " + machine.Key() +
                            " not found in any node group");
  }
  if (it->second != group.name) {
    return Status::Invalid("node " + node.name + ": machine " + machine.Key() +
                           " belongs to " + it->second + ", not " + group.name);
  }
  return machine;
}

Status ClusterApiProvider::AnnotateMachine(
    const MachineRef& machine, const std::optional<std::string>& value) {
  return machines_->AnnotateMachine(api_, machine.ns, machine.name,
                                    keys_.delete_machine, value);
}

void ClusterApiProvider::UnmarkMachines(
    const std::vector<MachineRef>& machines) {
  for (const MachineRef& machine : machines) {
    Status status = AnnotateMachine(machine, std::nullopt);
    LOG_IF(WARNING, !status.ok())
        << "removing " << keys_.delete_machine << " from machine "
        << machine.Key() << ": " << status.message();
  }
}

// As CA: every machine is marked before replicas are lowered, so the
// controller removes exactly these; a failure half-way unmarks what was
// marked and leaves replicas alone. A Machine already being deleted is
// neither marked nor counted again.
Status ClusterApiProvider::DeleteNodes(
    const NodeGroup& group, const std::vector<const NodeState*>& nodes) {
  if (nodes.empty()) return Status::Ok();
  if (PoolObject(group).has_value()) return DeletePoolNodes(group, nodes);
  std::vector<MachineRef> machines;
  std::vector<std::string> what;
  for (const NodeState* node : nodes) {
    Result<MachineRef> machine = MachineOf(*node, group);
    if (!machine.ok()) {
      return machine.status().WithContext("deleting nodes of " + group.name);
    }
    if (deleting_.contains(machine->Key())) {
      LOG(INFO) << "node " << node->name << ": machine " << machine->Key()
                << " of " << group.name
                << " is already being deleted; not counted again";
      continue;
    }
    machines.push_back(*machine);
    what.push_back("of node " + node->name);
  }
  if (machines.empty()) return Status::Ok();
  return RemoveMachines(group, machines, what,
                        static_cast<int64_t>(machines.size()));
}

// As Cluster Autoscaler: a MachinePool's instance has no Machine to mark;
// the pool's replicas are lowered, and its infrastructure provider picks
// the instance.
Status ClusterApiProvider::DeletePoolNodes(
    const NodeGroup& group, const std::vector<const NodeState*>& nodes) {
  for (const NodeState* node : nodes) {
    const std::string pool = PoolOf(*node);
    if (pool != group.name) {
      return Status::Invalid(
          "deleting nodes of " + group.name + ": node " + node->name +
          " (providerID \"" + node->provider_id + "\") is " +
          (pool.empty() ? std::string("in no MachinePool's spec.providerIDList")
                        : "of " + pool));
    }
  }
  return AdjustReplicas(group, -static_cast<int64_t>(nodes.size()));
}

Status ClusterApiProvider::RemoveMachines(
    const NodeGroup& group, const std::vector<MachineRef>& machines,
    const std::vector<std::string>& what, int64_t decrease) {
  const std::string now = FormatMicroTime(clock_->Now());
  std::vector<MachineRef> marked;
  for (size_t i = 0; i < machines.size(); ++i) {
    Status status = AnnotateMachine(machines[i], now);
    if (!status.ok()) {
      UnmarkMachines(marked);
      return status.WithContext("marking machine " + machines[i].Key() + " " +
                                what[i] + " for deletion");
    }
    marked.push_back(machines[i]);
  }
  Status scaled = AdjustReplicas(group, -decrease);
  if (!scaled.ok()) UnmarkMachines(marked);
  return scaled;
}

}  // namespace propscaler::nodescale
