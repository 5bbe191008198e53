#include "kube/wire/volumes_json.h"

#include <utility>

#include "common/quantity.h"
#include "kube/model/in_tree_volumes.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/object_json.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

using namespace json;  // NOLINT: the field decoders, for every decoder here

// The legacy topology labels VolumeZone reads on a PersistentVolume.
constexpr std::string_view kVolumeTopologyLabels[] = {
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region"};

struct Meta {
  std::string namespace_;
  std::string name;
  Labels labels;
  Labels annotations;
  bool deleting = false;
  ControllerRef owner;
};

Result<Meta> MetaOf(const Value& item, const std::string& path) {
  const Value* metadata = nullptr;
  PS_ASSIGN_OR_RETURN(metadata, ObjectAt(item, "metadata", path));
  const std::string at = Join(path, "metadata");
  if (metadata == nullptr) return Status::Invalid(at + ": missing");
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta.name, StringAt(*metadata, "name", at));
  if (meta.name.empty()) return Status::Invalid(Join(at, "name") + ": missing");
  PS_ASSIGN_OR_RETURN(meta.namespace_, StringAt(*metadata, "namespace", at));
  PS_ASSIGN_OR_RETURN(meta.labels, StringMapAt(*metadata, "labels", at));
  PS_ASSIGN_OR_RETURN(meta.annotations,
                      StringMapAt(*metadata, "annotations", at));
  meta.deleting = Member(*metadata, "deletionTimestamp") != nullptr;
  PS_ASSIGN_OR_RETURN(meta.owner, ControllerOwnerOf(*metadata, at));
  return meta;
}

// `object`.`name` as a quantity; nullopt when missing.
Result<std::optional<int64_t>> QuantityAt(const Value& object, const char* name,
                                          const std::string& path) {
  std::string text;
  PS_ASSIGN_OR_RETURN(text, StringAt(object, name, path));
  if (text.empty()) return std::optional<int64_t>();
  Result<int64_t> bytes = ParseQuantity(text);
  if (!bytes.ok()) {
    return Status::Invalid(Join(path, name) + ": \"" + text +
                           "\" is not a quantity");
  }
  return std::optional<int64_t>(*bytes);
}

// `object`.`name`.storage as bytes; 0 when missing.
Result<int64_t> StorageAt(const Value& object, const char* name,
                          const std::string& path) {
  const Value* list = nullptr;
  PS_ASSIGN_OR_RETURN(list, ObjectAt(object, name, path));
  if (list == nullptr) return int64_t{0};
  std::optional<int64_t> bytes;
  PS_ASSIGN_OR_RETURN(bytes, QuantityAt(*list, "storage", Join(path, name)));
  return bytes.value_or(0);
}

const Value* SpecOf(const Value& item) { return Member(item, "spec"); }

// spec.volumeMode: true for Block; Filesystem when missing.
Result<bool> BlockModeAt(const Value& spec, const std::string& at) {
  std::string mode;
  PS_ASSIGN_OR_RETURN(mode, StringAt(spec, "volumeMode", at));
  if (mode.empty() || mode == "Filesystem") return false;
  if (mode == "Block") return true;
  return Status::Invalid(Join(at, "volumeMode") + ": \"" + mode +
                         "\" is not Filesystem or Block");
}

}  // namespace

namespace {

// An in-tree source (awsElasticBlockStore, gcePersistentDisk, ...) as the
// CSI volume it migrates to.
Status MigrateInTreeSource(const Value& spec, const std::string& at,
                           PersistentVolume* volume) {
  for (const InTreePlugin& plugin : kInTreePlugins) {
    const Value* source = Member(spec, plugin.pv_source);
    if (source == nullptr) continue;
    const std::string source_at = Join(at, plugin.pv_source);
    PS_ASSIGN_OR_RETURN(volume->csi_handle,
                        StringAt(*source, plugin.handle_field, source_at));
    volume->csi_driver = std::string(plugin.csi_driver);
    return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace

Result<PersistentVolume> DecodePersistentVolume(const Value& item,
                                                const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  PersistentVolume volume;
  volume.name = std::move(meta.name);
  volume.deleting = meta.deleting;
  for (std::string_view key : kVolumeTopologyLabels) {
    auto it = meta.labels.find(key);
    if (it != meta.labels.end()) volume.topology_labels.insert(*it);
  }
  const Value* spec = SpecOf(item);
  if (spec == nullptr) return volume;
  const std::string at = Join(path, "spec");
  PS_ASSIGN_OR_RETURN(volume.storage_class,
                      StringAt(*spec, "storageClassName", at));
  PS_ASSIGN_OR_RETURN(volume.capacity_bytes, StorageAt(*spec, "capacity", at));
  PS_ASSIGN_OR_RETURN(volume.access_modes, StringsAt(*spec, "accessModes", at));
  if (const Value* claim = Member(*spec, "claimRef")) {
    std::string ns, name;
    PS_ASSIGN_OR_RETURN(ns,
                        StringAt(*claim, "namespace", Join(at, "claimRef")));
    PS_ASSIGN_OR_RETURN(name, StringAt(*claim, "name", Join(at, "claimRef")));
    if (!name.empty()) volume.claim = ns + "/" + name;
  }
  if (volume.claim.empty()) volume.labels_while_free = std::move(meta.labels);
  PS_ASSIGN_OR_RETURN(volume.block, BlockModeAt(*spec, at));
  if (const Value* csi = Member(*spec, "csi")) {
    PS_ASSIGN_OR_RETURN(volume.csi_driver,
                        StringAt(*csi, "driver", Join(at, "csi")));
    PS_ASSIGN_OR_RETURN(volume.csi_handle,
                        StringAt(*csi, "volumeHandle", Join(at, "csi")));
  }
  if (Status st = MigrateInTreeSource(*spec, at, &volume); !st.ok()) {
    return st;
  }
  const Value* affinity = Member(*spec, "nodeAffinity");
  const Value* required = affinity ? Member(*affinity, "required") : nullptr;
  if (required != nullptr) {
    PS_ASSIGN_OR_RETURN(
        volume.node_affinity,
        NodeSelectorTermsAt(*required, Join(at, "nodeAffinity.required")));
  }
  return volume;
}

Result<PersistentVolumeClaim> DecodePersistentVolumeClaim(
    const Value& item, const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  PersistentVolumeClaim claim;
  claim.namespace_ = meta.namespace_.empty() ? "default" : meta.namespace_;
  claim.name = std::move(meta.name);
  claim.deleting = meta.deleting;
  claim.owner_kind = std::move(meta.owner.kind);
  claim.owner_name = std::move(meta.owner.name);
  claim.bind_completed = meta.annotations.contains(kBindCompletedAnnotation);
  claim.selected_node =
      std::string(AnnotationOf(meta.annotations, kSelectedNodeAnnotation));
  const std::string at = Join(path, "spec");
  const Value* spec = SpecOf(item);
  if (spec != nullptr) {
    PS_ASSIGN_OR_RETURN(claim.volume_name, StringAt(*spec, "volumeName", at));
    PS_ASSIGN_OR_RETURN(claim.access_modes,
                        StringsAt(*spec, "accessModes", at));
    PS_ASSIGN_OR_RETURN(claim.storage_class,
                        StringAt(*spec, "storageClassName", at));
    PS_ASSIGN_OR_RETURN(claim.block, BlockModeAt(*spec, at));
    if (const Value* selector = Member(*spec, "selector")) {
      PS_ASSIGN_OR_RETURN(claim.selector,
                          LabelSelectorOf(*selector, Join(at, "selector")));
    }
    if (const Value* resources = Member(*spec, "resources")) {
      PS_ASSIGN_OR_RETURN(
          claim.request_bytes,
          StorageAt(*resources, "requests", Join(at, "resources")));
    }
  }
  if (spec == nullptr || Member(*spec, "storageClassName") == nullptr) {
    claim.storage_class = std::string(
        AnnotationOf(meta.annotations, kBetaStorageClassAnnotation));
  }
  if (const Value* status = Member(item, "status")) {
    std::string phase;
    PS_ASSIGN_OR_RETURN(phase,
                        StringAt(*status, "phase", Join(path, "status")));
    claim.lost = phase == "Lost";
  }
  return claim;
}

Result<StorageClass> DecodeStorageClass(const Value& item,
                                        const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  StorageClass storage_class;
  storage_class.name = std::move(meta.name);
  PS_ASSIGN_OR_RETURN(storage_class.provisioner,
                      StringAt(item, "provisioner", path));
  std::string mode;
  PS_ASSIGN_OR_RETURN(mode, StringAt(item, "volumeBindingMode", path));
  if (!mode.empty() && mode != "Immediate" && mode != "WaitForFirstConsumer") {
    return Status::Invalid(Join(path, "volumeBindingMode") + ": \"" + mode +
                           "\" is neither Immediate nor WaitForFirstConsumer");
  }
  storage_class.wait_for_first_consumer = mode == "WaitForFirstConsumer";
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(terms, ArrayAt(item, "allowedTopologies", path));
  for (size_t i = 0; terms != nullptr && i < terms->Size(); ++i) {
    const std::string at = Index(Join(path, "allowedTopologies"), i);
    const Value* expressions = nullptr;
    PS_ASSIGN_OR_RETURN(expressions,
                        ArrayAt((*terms)[i], "matchLabelExpressions", at));
    NodeSelectorTerm term;
    for (size_t j = 0; expressions != nullptr && j < expressions->Size(); ++j) {
      const std::string req_at = Index(Join(at, "matchLabelExpressions"), j);
      NodeSelectorRequirement req;
      PS_ASSIGN_OR_RETURN(req.key, StringAt((*expressions)[j], "key", req_at));
      PS_ASSIGN_OR_RETURN(req.values,
                          StringsAt((*expressions)[j], "values", req_at));
      term.requirements.push_back(std::move(req));
    }
    storage_class.allowed_topologies.push_back(std::move(term));
  }
  return storage_class;
}

Result<CsiNode> DecodeCsiNode(const Value& item, const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  CsiNode node;
  node.name = std::move(meta.name);
  const Value* spec = SpecOf(item);
  const Value* drivers = nullptr;
  const std::string at = Join(path, "spec");
  if (spec != nullptr) {
    PS_ASSIGN_OR_RETURN(drivers, ArrayAt(*spec, "drivers", at));
  }
  for (size_t i = 0; drivers != nullptr && i < drivers->Size(); ++i) {
    const std::string driver_at = Index(Join(at, "drivers"), i);
    const Value* allocatable = nullptr;
    PS_ASSIGN_OR_RETURN(allocatable,
                        ObjectAt((*drivers)[i], "allocatable", driver_at));
    if (allocatable == nullptr || Member(*allocatable, "count") == nullptr) {
      continue;
    }
    std::string name;
    int64_t count = 0;
    PS_ASSIGN_OR_RETURN(name, StringAt((*drivers)[i], "name", driver_at));
    PS_ASSIGN_OR_RETURN(count, IntegerAt(*allocatable, "count",
                                         Join(driver_at, "allocatable")));
    node.limits[name] = count;
  }
  return node;
}

Result<CsiDriver> DecodeCsiDriver(const Value& item, const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  CsiDriver driver;
  driver.name = std::move(meta.name);
  const Value* spec = SpecOf(item);
  const Value* checked =
      spec != nullptr ? Member(*spec, "storageCapacity") : nullptr;
  if (checked != nullptr) {
    if (!checked->IsBool()) {
      return WrongType(Join(Join(path, "spec"), "storageCapacity"), "a boolean",
                       *checked);
    }
    driver.storage_capacity = checked->GetBool();
  }
  return driver;
}

Result<CsiStorageCapacity> DecodeCsiStorageCapacity(const Value& item,
                                                    const std::string& path) {
  Meta meta;
  PS_ASSIGN_OR_RETURN(meta, MetaOf(item, path));
  CsiStorageCapacity capacity;
  capacity.namespace_ = std::move(meta.namespace_);
  capacity.name = std::move(meta.name);
  PS_ASSIGN_OR_RETURN(capacity.storage_class,
                      StringAt(item, "storageClassName", path));
  if (const Value* topology = Member(item, "nodeTopology")) {
    PS_ASSIGN_OR_RETURN(capacity.node_topology,
                        LabelSelectorOf(*topology, Join(path, "nodeTopology")));
  }
  PS_ASSIGN_OR_RETURN(capacity.capacity_bytes,
                      QuantityAt(item, "capacity", path));
  PS_ASSIGN_OR_RETURN(capacity.maximum_volume_size_bytes,
                      QuantityAt(item, "maximumVolumeSize", path));
  return capacity;
}

namespace {

template <typename T>
ListWatchCodec<T> CodecOf(JsonObjectDecoder<T> decode, const char* list,
                          const char* event) {
  return {[decode, list](std::string_view body) {
            return DecodeJsonList<T>(body, decode, list);
          },
          [decode, event](std::string_view line) {
            return DecodeJsonWatchEvent<T>(line, decode, event);
          },
          {},
          false};
}

// The object under the key `key_of` gives it.
template <typename T, typename KeyOf>
void Put(T object, KeyOf key_of, SharedObjects<T>* objects) {
  auto shared = std::make_shared<const T>(std::move(object));
  objects->insert_or_assign(key_of(*shared), std::move(shared));
}

// One item of a volume objects file into `out`, by its kind.
Status AddVolumeObject(const Value& item, const std::string& path,
                       VolumeObjects* out) {
  std::string kind;
  PS_ASSIGN_OR_RETURN(kind, StringAt(item, "kind", path));
  if (kind == "PersistentVolume") {
    PersistentVolume volume;
    PS_ASSIGN_OR_RETURN(volume, DecodePersistentVolume(item, path));
    Put(
        std::move(volume), [](const auto& v) { return v.name; }, &out->volumes);
  } else if (kind == "PersistentVolumeClaim") {
    PersistentVolumeClaim claim;
    PS_ASSIGN_OR_RETURN(claim, DecodePersistentVolumeClaim(item, path));
    Put(
        std::move(claim), [](const auto& c) { return c.Key(); }, &out->claims);
  } else if (kind == "StorageClass") {
    StorageClass storage_class;
    PS_ASSIGN_OR_RETURN(storage_class, DecodeStorageClass(item, path));
    Put(
        std::move(storage_class), [](const auto& c) { return c.name; },
        &out->classes);
  } else if (kind == "CSINode") {
    CsiNode node;
    PS_ASSIGN_OR_RETURN(node, DecodeCsiNode(item, path));
    if (!node.limits.empty()) {
      out->node_limits.insert_or_assign(node.name, std::move(node.limits));
    }
  } else if (kind == "CSIDriver") {
    CsiDriver driver;
    PS_ASSIGN_OR_RETURN(driver, DecodeCsiDriver(item, path));
    if (driver.storage_capacity) {
      out->capacity_checked_drivers.insert(std::move(driver.name));
    }
  } else if (kind == "CSIStorageCapacity") {
    CsiStorageCapacity capacity;
    PS_ASSIGN_OR_RETURN(capacity, DecodeCsiStorageCapacity(item, path));
    Put(
        std::move(capacity),
        [](const auto& c) { return c.namespace_ + "/" + c.name; },
        &out->capacities);
  } else if (kind.empty()) {
    return Status::Invalid(Join(path, "kind") +
                           ": missing (each item must say whether it is a "
                           "PersistentVolume, PersistentVolumeClaim, "
                           "StorageClass, CSINode, CSIDriver or "
                           "CSIStorageCapacity)");
  }
  return Status::Ok();
}

}  // namespace

ListWatchCodec<PersistentVolume> PersistentVolumeCodec() {
  return CodecOf<PersistentVolume>(&DecodePersistentVolume,
                                   "PersistentVolume list",
                                   "PersistentVolume watch event");
}

ListWatchCodec<PersistentVolumeClaim> PersistentVolumeClaimCodec() {
  return CodecOf<PersistentVolumeClaim>(&DecodePersistentVolumeClaim,
                                        "PersistentVolumeClaim list",
                                        "PersistentVolumeClaim watch event");
}

ListWatchCodec<StorageClass> StorageClassCodec() {
  return CodecOf<StorageClass>(&DecodeStorageClass, "StorageClass list",
                               "StorageClass watch event");
}

ListWatchCodec<CsiNode> CsiNodeCodec() {
  return CodecOf<CsiNode>(&DecodeCsiNode, "CSINode list",
                          "CSINode watch event");
}

ListWatchCodec<CsiDriver> CsiDriverCodec() {
  return CodecOf<CsiDriver>(&DecodeCsiDriver, "CSIDriver list",
                            "CSIDriver watch event");
}

ListWatchCodec<CsiStorageCapacity> CsiStorageCapacityCodec() {
  return CodecOf<CsiStorageCapacity>(&DecodeCsiStorageCapacity,
                                     "CSIStorageCapacity list",
                                     "CSIStorageCapacity watch event");
}

Result<VolumeObjects> DecodeVolumeObjectsJson(std::string_view text) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
  VolumeObjects out;
  const Value* items = nullptr;
  PS_ASSIGN_OR_RETURN(items, ArrayAt(doc, "items", ""));
  if (items == nullptr) {
    if (Status s = AddVolumeObject(doc, "", &out); !s.ok()) return s;
    return out;
  }
  for (size_t i = 0; i < items->Size(); ++i) {
    if (Status s = AddVolumeObject((*items)[i], Index("items", i), &out);
        !s.ok()) {
      return s;
    }
  }
  return out;
}

}  // namespace propscaler::kube
