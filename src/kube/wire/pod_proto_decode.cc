#include "kube/wire/pod_proto_decode.h"

#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "kube/wire/json_fields.h"
#include "kube/wire/pod_field_values.h"
#include "kube/wire/proto_fields.h"
#include "kube/wire/proto_list_scan.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

using json::Index;
using json::Join;

// Field numbers, from k8s.io/api/core/v1/generated.proto and
// apimachinery's (OwnerReference, LabelSelector); the shared ones in
// proto_fields.h.
constexpr uint32_t kPodMeta = 1, kPodSpec = 2, kPodStatus = 3;
constexpr uint32_t kOwnerKind = 1, kOwnerName = 3, kOwnerController = 6;
constexpr uint32_t kSpecVolumes = 1, kSpecContainers = 2, kSpecGrace = 4,
                   kSpecNodeSelector = 7, kSpecNodeName = 10,
                   kSpecAffinity = 18, kSpecInitContainers = 20,
                   kSpecTolerations = 22, kSpecPriority = 25,
                   kSpecOverhead = 32, kSpecSpread = 33;
constexpr uint32_t kVolumeName = 1, kVolumeSource = 2, kSourceHostPath = 1,
                   kSourceEmptyDir = 2, kSourceClaim = 10,
                   kSourceEphemeral = 29, kClaimName = 1;
// The inline disks' sources: the source's field, its handle's and its
// readOnly's.
struct DiskSourceFields {
  uint32_t source, handle, read_only;
  std::string_view driver;
};
constexpr DiskSourceFields kDiskSources[] = {
    {3, 1, 4, "pd.csi.storage.gke.io"},      // gcePersistentDisk: pdName
    {4, 1, 4, "ebs.csi.aws.com"},            // awsElasticBlockStore: volumeID
    {8, 2, 6, kIscsiDisk},                   // iscsi: iqn
    {13, 1, 3, "cinder.csi.openstack.org"},  // cinder: volumeID
    {22, 2, 5, "disk.csi.azure.com"},        // azureDisk: diskURI
};
constexpr uint32_t kContainerPorts = 6, kContainerResources = 8;
constexpr uint32_t kResourcesLimits = 1, kResourcesRequests = 2;
constexpr uint32_t kPortHostPort = 2, kPortProtocol = 4;
constexpr uint32_t kAffinityNode = 1, kAffinityPod = 2, kAffinityAnti = 3;
// requiredDuringSchedulingIgnoredDuringExecution of NodeAffinity,
// PodAffinity and PodAntiAffinity alike.
constexpr uint32_t kRequired = 1, kPreferred = 2;
// PreferredSchedulingTerm and WeightedPodAffinityTerm alike: the weight,
// then the term.
constexpr uint32_t kWeight = 1, kWeightedTerm = 2;
constexpr uint32_t kSelectorTerms = 1, kTermExpressions = 1, kTermFields = 2;
// NodeSelectorRequirement and LabelSelectorRequirement alike.
constexpr uint32_t kRequirementKey = 1, kRequirementOperator = 2,
                   kRequirementValues = 3;
constexpr uint32_t kAffinityTermSelector = 1, kAffinityTermNamespaces = 2,
                   kAffinityTermTopologyKey = 3;
constexpr uint32_t kMatchLabels = 1, kMatchExpressions = 2;
constexpr uint32_t kTolerationKey = 1, kTolerationOperator = 2,
                   kTolerationValue = 3, kTolerationEffect = 4;
constexpr uint32_t kSpreadMaxSkew = 1, kSpreadTopologyKey = 2, kSpreadWhen = 3,
                   kSpreadSelector = 4, kSpreadMinDomains = 5;
constexpr uint32_t kStatusPhase = 1, kStatusConditions = 2,
                   kStatusStartTime = 7, kStatusNominated = 11;
constexpr uint32_t kConditionTransition = 4, kConditionReason = 5;

Status NotNegative(int64_t value, const std::string& path) {
  if (value >= 0) return Status::Ok();
  return Status::Invalid(path + ": " + std::to_string(value) + " is negative");
}

// A NodeSelectorRequirement or LabelSelectorRequirement, its operator not
// yet checked.
struct Requirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
};
Result<Requirement> RequirementOf(std::string_view message,
                                  const std::string& path) {
  Requirement out;
  Status status =
      EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
        if (!IsBytes(f)) return Status::Ok();
        if (f.number == kRequirementKey) out.key = f.bytes;
        if (f.number == kRequirementOperator) out.op = f.bytes;
        if (f.number == kRequirementValues) out.values.emplace_back(f.bytes);
        return Status::Ok();
      });
  if (!status.ok()) return status;
  return out;
}

// A metav1.LabelSelector: matchLabels first (by key), then matchExpressions
// in order, as the JSON decoder builds it.
Result<LabelSelector> LabelSelectorOf(std::string_view message,
                                      const std::string& path) {
  Labels match_labels;
  std::vector<LabelRequirement> expressions;
  Status status =
      EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
        if (!IsBytes(f)) return Status::Ok();
        if (f.number == kMatchLabels) {
          return AddStringEntry(f.bytes, Join(path, "matchLabels"),
                                &match_labels);
        }
        if (f.number != kMatchExpressions) return Status::Ok();
        const std::string at =
            Index(Join(path, "matchExpressions"), expressions.size());
        Result<Requirement> raw = RequirementOf(f.bytes, at);
        if (!raw.ok()) return raw.status();
        Result<LabelRequirement::Op> op =
            ParseLabelSelectorOp(raw->op, Join(at, "operator"));
        if (!op.ok()) return op.status();
        expressions.push_back(
            {std::move(raw->key), *op, std::move(raw->values)});
        return Status::Ok();
      });
  if (!status.ok()) return status;
  std::vector<LabelRequirement> requirements;
  for (auto& [key, value] : match_labels) {
    requirements.push_back({key, LabelRequirement::Op::kEquals, {value}});
  }
  for (LabelRequirement& expression : expressions) {
    requirements.push_back(std::move(expression));
  }
  return LabelSelector(std::move(requirements));
}

// One nodeSelectorTerm; nullopt for a term of matchFields alone (DaemonSet
// pods pin a node by name that way), which says nothing about a new node.
Result<std::optional<NodeSelectorTerm>> NodeSelectorTermOf(
    std::string_view message, const std::string& path) {
  NodeSelectorTerm term;
  bool has_fields = false;
  Status status =
      EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
        if (IsBytes(f) && f.number == kTermFields) has_fields = true;
        if (!IsBytes(f) || f.number != kTermExpressions) return Status::Ok();
        const std::string at =
            Index(Join(path, "matchExpressions"), term.requirements.size());
        Result<Requirement> raw = RequirementOf(f.bytes, at);
        if (!raw.ok()) return raw.status();
        Result<NodeSelectorRequirement::Op> op =
            ParseNodeSelectorOp(raw->op, Join(at, "operator"));
        if (!op.ok()) return op.status();
        term.requirements.push_back(
            {std::move(raw->key), *op, std::move(raw->values)});
        return Status::Ok();
      });
  if (!status.ok()) return status;
  if (term.requirements.empty() && has_fields) {
    return std::optional<NodeSelectorTerm>();
  }
  return std::optional<NodeSelectorTerm>(std::move(term));
}

// Reads one Pod into a LivePod, message by message.
class PodReader {
 public:
  explicit PodReader(std::string path) : path_(std::move(path)) {}

  Result<LivePod> Read(std::string_view message) {
    bool saw_meta = false;
    bool saw_spec = false;
    Status status =
        EachProtoField(message, path_.c_str(), [&](const ProtoField& f) {
          if (!IsBytes(f)) return Status::Ok();
          switch (f.number) {
            case kPodMeta:
              saw_meta = true;
              return ReadMeta(f.bytes);
            case kPodSpec:
              saw_spec = true;
              return ReadSpec(f.bytes);
            case kPodStatus:
              return ReadStatus(f.bytes);
            default:
              return Status::Ok();
          }
        });
    if (!status.ok()) return status;
    if (!saw_meta)
      return Status::Invalid(Join(path_, "metadata") + ": missing");
    PodState& pod = live_.state;
    if (pod.name.empty()) {
      return Status::Invalid(Join(path_, "metadata.name") + ": missing");
    }
    if (pod.namespace_.empty()) pod.namespace_ = "default";
    pod.labels = std::move(labels_);
    pod.annotations = std::move(annotations_);
    pod.requests = saw_spec
                       ? EffectivePodRequests(containers_, inits_, overhead_)
                       : Resources{.pods = 1};
    if (saw_spec) {
      const Resources limits =
          EffectivePodLimits(container_limits_, init_limits_, overhead_);
      live_.limit_cpu_millis = limits.cpu_millis;
      live_.limit_memory_bytes = limits.memory_bytes;
    }
    pod.node_selector = std::move(node_selector_);
    pod.node_affinity = std::move(node_affinity_);
    pod.tolerations = std::move(tolerations_);
    pod.affinity = std::move(affinity_);
    pod.anti_affinity = std::move(anti_affinity_);
    pod.spread = std::move(spread_);
    pod.preferences = std::move(preferences_);
    pod.host_ports = std::move(host_ports_);
    pod.claims = std::move(claims_);
    pod.inline_disks = std::move(inline_disks_);
    return std::move(live_);
  }

 private:
  Status ReadMeta(std::string_view meta) {
    const std::string at = Join(path_, "metadata");
    return EachProtoField(meta, at.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      switch (f.number) {
        case kMetaName:
          live_.state.name = f.bytes;
          return Status::Ok();
        case kMetaNamespace:
          live_.state.namespace_ = f.bytes;
          return Status::Ok();
        case kMetaUid:
          live_.uid = f.bytes;
          return Status::Ok();
        case kMetaCreated:
          return AssignTime(f.bytes, Join(at, "creationTimestamp"),
                            &live_.created);
        case kMetaLabels:
          return AddStringEntry(f.bytes, Join(at, "labels"), &labels_);
        case kMetaAnnotations:
          return ReadAnnotation(f.bytes, Join(at, "annotations"));
        case kMetaOwners:
          return ReadOwner(f.bytes, Join(at, "ownerReferences"));
        default:
          return Status::Ok();
      }
    });
  }

  static Status AssignTime(std::string_view time, const std::string& path,
                           TimePoint* out) {
    Result<TimePoint> parsed = TimeOf(time, path);
    if (!parsed.ok()) return parsed.status();
    *out = *parsed;
    return Status::Ok();
  }

  // Only the annotations a decision reads are kept (a
  // last-applied-configuration alone is often several KB).
  Status ReadAnnotation(std::string_view entry, const std::string& path) {
    std::string_view key, value;
    Status status =
        ProtoStrings(entry, path.c_str(), kEntryKey, &key, kEntryValue, &value);
    if (status.ok() && IsKeptPodAnnotation(key)) {
      annotations_.insert_or_assign(std::string(key), std::string(value));
    }
    return status;
  }

  // The controller's kind and name.
  Status ReadOwner(std::string_view owner, const std::string& path) {
    std::string_view kind, name;
    bool controller = false;
    Status status =
        EachProtoField(owner, path.c_str(), [&](const ProtoField& f) {
          if (IsBytes(f) && f.number == kOwnerKind) kind = f.bytes;
          if (IsBytes(f) && f.number == kOwnerName) name = f.bytes;
          if (IsVarint(f) && f.number == kOwnerController) {
            controller = f.varint != 0;
          }
          return Status::Ok();
        });
    if (status.ok() && controller) {
      live_.state.owner_kind = std::string(kind);
      live_.state.owner_name = std::string(name);
    }
    return status;
  }

  Status ReadSpec(std::string_view spec) {
    const std::string at = Join(path_, "spec");
    PodState& pod = live_.state;
    return EachProtoField(spec, at.c_str(), [&](const ProtoField& f) {
      switch (f.number) {
        case kSpecGrace:
          if (!IsVarint(f)) return Status::Ok();
          pod.termination_grace_seconds = SignedOf(f);
          return NotNegative(SignedOf(f),
                             Join(at, "terminationGracePeriodSeconds"));
        case kSpecPriority:
          if (IsVarint(f)) pod.priority = static_cast<int32_t>(SignedOf(f));
          return Status::Ok();
        default:
          break;
      }
      return IsBytes(f) ? ReadSpecMessage(f, at) : Status::Ok();
    });
  }

  Status ReadSpecMessage(const ProtoField& f, const std::string& at) {
    switch (f.number) {
      case kSpecVolumes:
        return ReadVolume(f.bytes, Join(at, "volumes"));
      case kSpecContainers:
        return ReadContainer(f.bytes,
                             Index(Join(at, "containers"), containers_.size()),
                             &containers_, &container_limits_, true);
      case kSpecInitContainers:
        return ReadContainer(f.bytes,
                             Index(Join(at, "initContainers"), inits_.size()),
                             &inits_, &init_limits_, false);
      case kSpecOverhead:
        return AddResourceEntry(f.bytes, Join(at, "overhead"), &overhead_);
      case kSpecNodeName:
        live_.state.node_name = f.bytes;
        return Status::Ok();
      case kSpecNodeSelector:
        return AddStringEntry(f.bytes, Join(at, "nodeSelector"),
                              &node_selector_);
      case kSpecAffinity:
        return ReadAffinity(f.bytes, Join(at, "affinity"));
      case kSpecTolerations:
        return ReadToleration(
            f.bytes, Index(Join(at, "tolerations"), tolerations_.size()));
      case kSpecSpread:
        return ReadSpread(f.bytes, Index(Join(at, "topologySpreadConstraints"),
                                         spread_index_++));
      default:
        return Status::Ok();
    }
  }

  // Local storage (emptyDir, hostPath) and the claims volumes use.
  Status ReadVolume(std::string_view volume, const std::string& path) {
    std::string name;
    PodClaim claim;
    Status read =
        EachProtoField(volume, path.c_str(), [&](const ProtoField& f) {
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kVolumeName) name = f.bytes;
          if (f.number != kVolumeSource) return Status::Ok();
          return EachProtoField(f.bytes, path.c_str(),
                                [&](const ProtoField& s) {
                                  return ReadVolumeSource(s, path, &claim);
                                });
        });
    if (!read.ok()) return read;
    if (claim.ephemeral) claim.name = name;
    if (!claim.name.empty()) claims_.push_back(std::move(claim));
    return Status::Ok();
  }

  Status ReadVolumeSource(const ProtoField& s, const std::string& path,
                          PodClaim* claim) {
    if (!IsBytes(s)) return Status::Ok();
    if (s.number == kSourceHostPath || s.number == kSourceEmptyDir) {
      live_.state.has_local_storage = true;
    } else if (s.number == kSourceEphemeral) {
      claim->ephemeral = true;
    } else if (s.number == kSourceClaim) {
      return EachProtoField(s.bytes, path.c_str(), [&](const ProtoField& c) {
        if (IsBytes(c) && c.number == kClaimName) claim->name = c.bytes;
        return Status::Ok();
      });
    }
    for (const DiskSourceFields& fields : kDiskSources) {
      if (s.number == fields.source) return ReadDisk(s.bytes, path, fields);
    }
    return Status::Ok();
  }

  Status ReadDisk(std::string_view source, const std::string& path,
                  const DiskSourceFields& fields) {
    InlineDisk disk;
    disk.driver = std::string(fields.driver);
    Status read =
        EachProtoField(source, path.c_str(), [&](const ProtoField& f) {
          if (IsBytes(f) && f.number == fields.handle) disk.handle = f.bytes;
          if (f.type == WireType::kVarint && f.number == fields.read_only) {
            disk.read_only = f.varint != 0;
          }
          return Status::Ok();
        });
    if (!read.ok()) return read;
    inline_disks_.push_back(std::move(disk));
    return Status::Ok();
  }

  // A container's requests into `requests` and limits into `limits`; its
  // hostPorts too when `ports` (init containers are gone before the pod
  // runs).
  Status ReadContainer(std::string_view container, const std::string& path,
                       std::vector<Resources>* requests,
                       std::vector<Resources>* limits, bool ports) {
    requests->emplace_back();
    limits->emplace_back();
    size_t port = 0;
    return EachProtoField(container, path.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      if (f.number == kContainerResources) {
        return ReadResources(f.bytes, Join(path, "resources"),
                             &requests->back(), &limits->back());
      }
      if (f.number == kContainerPorts && ports) {
        return ReadPort(f.bytes, Index(Join(path, "ports"), port++));
      }
      return Status::Ok();
    });
  }

  static Status ReadResources(std::string_view resources,
                              const std::string& path, Resources* requests,
                              Resources* limits) {
    const std::string requests_at = Join(path, "requests");
    const std::string limits_at = Join(path, "limits");
    return EachProtoField(resources, path.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      if (f.number == kResourcesRequests) {
        return AddResourceEntry(f.bytes, requests_at, requests);
      }
      if (f.number == kResourcesLimits) {
        return AddResourceEntry(f.bytes, limits_at, limits);
      }
      return Status::Ok();
    });
  }

  Status ReadPort(std::string_view port, const std::string& path) {
    HostPort host_port;
    Status status =
        EachProtoField(port, path.c_str(), [&](const ProtoField& f) {
          if (IsVarint(f) && f.number == kPortHostPort) {
            host_port.port = SignedOf(f);
          }
          if (IsBytes(f) && f.number == kPortProtocol && !f.bytes.empty()) {
            host_port.protocol = f.bytes;
          }
          return Status::Ok();
        });
    if (!status.ok()) return status;
    status = NotNegative(host_port.port, Join(path, "hostPort"));
    if (status.ok() && host_port.port != 0) {
      host_ports_.push_back(std::move(host_port));
    }
    return status;
  }

  Status ReadAffinity(std::string_view affinity, const std::string& path) {
    return EachProtoField(affinity, path.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      switch (f.number) {
        case kAffinityNode:
          return ReadNodeAffinity(f.bytes, Join(path, "nodeAffinity"));
        case kAffinityPod:
          return ReadPodAffinity(f.bytes, Join(path, "podAffinity"), &affinity_,
                                 &preferences_.affinity);
        case kAffinityAnti:
          return ReadPodAffinity(f.bytes, Join(path, "podAntiAffinity"),
                                 &anti_affinity_, &preferences_.anti_affinity);
        default:
          return Status::Ok();
      }
    });
  }

  // A preferred term's weight (1 to 100) and its term's bytes, `term_name`
  // (missing: refused, as the JSON decoder refuses it).
  static Status ReadWeighted(std::string_view message, const std::string& path,
                             const char* term_name, int64_t* weight,
                             std::string_view* term) {
    *weight = 0;
    bool has_term = false;
    Status status =
        EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
          if (IsVarint(f) && f.number == kWeight) *weight = SignedOf(f);
          if (IsBytes(f) && f.number == kWeightedTerm) {
            *term = f.bytes;
            has_term = true;
          }
          return Status::Ok();
        });
    if (!status.ok()) return status;
    if (*weight < 1 || *weight > 100) {
      return Status::Invalid(Join(path, "weight") + ": " +
                             std::to_string(*weight) + " is not from 1 to 100");
    }
    if (!has_term) return Status::Invalid(Join(path, term_name) + ": missing");
    return Status::Ok();
  }

  Status ReadPreferredNodeTerm(std::string_view message,
                               const std::string& path) {
    WeightedNodeSelectorTerm weighted;
    std::string_view preference;
    if (Status s = ReadWeighted(message, path, "preference", &weighted.weight,
                                &preference);
        !s.ok()) {
      return s;
    }
    Result<std::optional<NodeSelectorTerm>> term =
        NodeSelectorTermOf(preference, Join(path, "preference"));
    if (!term.ok()) return term.status();
    if (!term->has_value()) return Status::Ok();
    weighted.term = std::move(**term);
    preferences_.node_affinity.push_back(std::move(weighted));
    return Status::Ok();
  }

  Status ReadNodeAffinity(std::string_view node, const std::string& path) {
    const std::string base =
        Join(path, "requiredDuringSchedulingIgnoredDuringExecution");
    size_t index = 0;
    size_t preferred = 0;  // terms of matchFields alone are not kept
    return EachProtoField(node, path.c_str(), [&](const ProtoField& f) {
      if (IsBytes(f) && f.number == kPreferred) {
        return ReadPreferredNodeTerm(
            f.bytes,
            Index(Join(path, "preferredDuringSchedulingIgnoredDuringExecution"),
                  preferred++));
      }
      if (!IsBytes(f) || f.number != kRequired) return Status::Ok();
      return EachProtoField(f.bytes, base.c_str(), [&](const ProtoField& t) {
        if (!IsBytes(t) || t.number != kSelectorTerms) return Status::Ok();
        Result<std::optional<NodeSelectorTerm>> term = NodeSelectorTermOf(
            t.bytes, Index(Join(base, "nodeSelectorTerms"), index++));
        if (!term.ok()) return term.status();
        if (term->has_value()) node_affinity_.push_back(std::move(**term));
        return Status::Ok();
      });
    });
  }

  static Status ReadPodAffinity(
      std::string_view block, const std::string& path,
      std::vector<PodAffinityTerm>* out,
      std::vector<WeightedPodAffinityTerm>* preferred) {
    const std::string base =
        Join(path, "requiredDuringSchedulingIgnoredDuringExecution");
    const std::string preferred_base =
        Join(path, "preferredDuringSchedulingIgnoredDuringExecution");
    return EachProtoField(block, path.c_str(), [&](const ProtoField& f) {
      if (IsBytes(f) && f.number == kPreferred) {
        const std::string at = Index(preferred_base, preferred->size());
        WeightedPodAffinityTerm weighted;
        std::string_view term;
        if (Status s = ReadWeighted(f.bytes, at, "podAffinityTerm",
                                    &weighted.weight, &term);
            !s.ok()) {
          return s;
        }
        std::vector<PodAffinityTerm> one;
        if (Status s =
                ReadAffinityTerm(term, Join(at, "podAffinityTerm"), &one);
            !s.ok()) {
          return s;
        }
        weighted.term = std::move(one.front());
        preferred->push_back(std::move(weighted));
        return Status::Ok();
      }
      if (!IsBytes(f) || f.number != kRequired) return Status::Ok();
      return ReadAffinityTerm(f.bytes, Index(base, out->size()), out);
    });
  }

  static Status ReadAffinityTerm(std::string_view message,
                                 const std::string& path,
                                 std::vector<PodAffinityTerm>* out) {
    PodAffinityTerm term;
    term.topology_key.clear();
    Status status =
        EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kAffinityTermTopologyKey) term.topology_key = f.bytes;
          if (f.number == kAffinityTermNamespaces) {
            term.namespaces.emplace_back(f.bytes);
          }
          if (f.number != kAffinityTermSelector) return Status::Ok();
          Result<LabelSelector> selector =
              LabelSelectorOf(f.bytes, Join(path, "labelSelector"));
          if (selector.ok()) term.selector = std::move(selector).value();
          return selector.status();
        });
    if (status.ok()) {
      status = CheckTopologyKey(term.topology_key, Join(path, "topologyKey"));
    }
    if (status.ok()) out->push_back(std::move(term));
    return status;
  }

  Status ReadToleration(std::string_view message, const std::string& path) {
    std::string_view key, op, value, effect;
    Status status =
        EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kTolerationKey) key = f.bytes;
          if (f.number == kTolerationOperator) op = f.bytes;
          if (f.number == kTolerationValue) value = f.bytes;
          if (f.number == kTolerationEffect) effect = f.bytes;
          return Status::Ok();
        });
    if (!status.ok()) return status;
    Toleration toleration;
    toleration.key = key;
    toleration.value = value;
    Result<Toleration::Op> parsed_op =
        ParseTolerationOp(op, Join(path, "operator"));
    if (!parsed_op.ok()) return parsed_op.status();
    toleration.op = *parsed_op;
    toleration.any_effect = effect.empty();
    if (!toleration.any_effect) {
      Result<TaintEffect> parsed =
          ParseTaintEffect(effect, Join(path, "effect"));
      if (!parsed.ok()) return parsed.status();
      toleration.effect = *parsed;
    }
    tolerations_.push_back(std::move(toleration));
    return Status::Ok();
  }

  // DoNotSchedule ones are required, ScheduleAnyway ones preferred; others
  // are not kept (nor checked), as the JSON decoder does.
  Status ReadSpread(std::string_view message, const std::string& path) {
    SpreadConstraint constraint;
    constraint.max_skew = 0;
    std::string_view when, selector;
    Status status =
        EachProtoField(message, path.c_str(), [&](const ProtoField& f) {
          if (IsVarint(f) && f.number == kSpreadMaxSkew) {
            constraint.max_skew = SignedOf(f);
          }
          if (IsVarint(f) && f.number == kSpreadMinDomains) {
            constraint.min_domains = SignedOf(f);
          }
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kSpreadTopologyKey) constraint.topology_key = f.bytes;
          if (f.number == kSpreadWhen) when = f.bytes;
          if (f.number == kSpreadSelector) selector = f.bytes;
          return Status::Ok();
        });
    if (!status.ok() || (when != "DoNotSchedule" && when != "ScheduleAnyway")) {
      return status;
    }
    status = CheckMaxSkew(constraint.max_skew, Join(path, "maxSkew"));
    if (status.ok()) {
      status =
          CheckTopologyKey(constraint.topology_key, Join(path, "topologyKey"));
    }
    if (status.ok()) {
      status = NotNegative(constraint.min_domains, Join(path, "minDomains"));
    }
    if (!status.ok()) return status;
    if (selector.data() != nullptr) {
      Result<LabelSelector> parsed =
          LabelSelectorOf(selector, Join(path, "labelSelector"));
      if (!parsed.ok()) return parsed.status();
      constraint.selector = std::move(parsed).value();
    }
    (when == "DoNotSchedule" ? spread_ : preferences_.spread)
        .push_back(std::move(constraint));
    return Status::Ok();
  }

  Status ReadStatus(std::string_view status_message) {
    const std::string at = Join(path_, "status");
    return EachProtoField(status_message, at.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      switch (f.number) {
        case kStatusPhase:
          live_.phase = ParsePodPhase(f.bytes);
          live_.state.terminated = live_.phase == PodPhase::kSucceeded ||
                                   live_.phase == PodPhase::kFailed;
          return Status::Ok();
        case kStatusStartTime:
          return AssignTime(f.bytes, Join(at, "startTime"),
                            &live_.state.start_time);
        case kStatusNominated:
          live_.nominated_node = f.bytes;
          return Status::Ok();
        case kStatusConditions:
          return ReadCondition(f.bytes, Join(at, "conditions"));
        default:
          return Status::Ok();
      }
    });
  }

  // The first PodScheduled condition says whether the scheduler gave up
  // on the pod (False, reason Unschedulable) and since when; the first
  // Ready condition, since when the pod is Ready.
  Status ReadCondition(std::string_view condition, const std::string& path) {
    std::string_view type, status_text, reason, transition;
    Status status =
        EachProtoField(condition, path.c_str(), [&](const ProtoField& f) {
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kConditionType) type = f.bytes;
          if (f.number == kConditionStatus) status_text = f.bytes;
          if (f.number == kConditionReason) reason = f.bytes;
          if (f.number == kConditionTransition) transition = f.bytes;
          return Status::Ok();
        });
    if (status.ok() && type == "Ready" && !seen_ready_) {
      seen_ready_ = true;
      if (status_text != "True") return Status::Ok();
      return AssignTime(transition, Join(path, "lastTransitionTime"),
                        &live_.ready_since);
    }
    if (!status.ok() || type != "PodScheduled" || seen_scheduled_) {
      return status;
    }
    seen_scheduled_ = true;
    live_.unschedulable = status_text == "False" && reason == "Unschedulable";
    if (!live_.unschedulable) return Status::Ok();
    return AssignTime(transition, Join(path, "lastTransitionTime"),
                      &live_.unschedulable_since);
  }

  const std::string path_;
  LivePod live_;
  Labels labels_, annotations_, node_selector_;
  std::vector<Resources> containers_, inits_;
  std::vector<Resources> container_limits_, init_limits_;
  Resources overhead_;
  std::vector<NodeSelectorTerm> node_affinity_;
  std::vector<Toleration> tolerations_;
  std::vector<PodAffinityTerm> affinity_, anti_affinity_;
  std::vector<SpreadConstraint> spread_;
  PodPreferences preferences_;
  std::vector<HostPort> host_ports_;
  std::vector<PodClaim> claims_;
  std::vector<InlineDisk> inline_disks_;
  size_t spread_index_ = 0;
  bool seen_scheduled_ = false;
  bool seen_ready_ = false;
};

}  // namespace

Result<LivePod> DecodeLivePodProto(std::string_view pod,
                                   const std::string& path) {
  return PodReader(path).Read(pod);
}

Result<ListPage<LivePod>> DecodeLivePodListProto(
    JsonChunkStream* body, const ItemBatches<LivePod>& on_items) {
  return DecodeProtoObjectList<LivePod>(body,
                                        {.what = "pod list", .kind = "PodList"},
                                        &DecodeLivePodProto, on_items);
}

}  // namespace propscaler::kube
