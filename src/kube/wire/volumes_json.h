// PersistentVolumes, PersistentVolumeClaims, StorageClasses, CSINodes,
// CSIDrivers and CSIStorageCapacities decoded from JSON into their compact
// form (kube/model/volumes.h): for the watches (codecs) and for `propscaler
// simulate --volumes` (any `kubectl get
// pv,pvc,storageclass,csinode,csidriver,csistoragecapacity -A -o json`
// output). Errors name the field and the bad value.
#ifndef PROPSCALER_KUBE_WIRE_VOLUMES_JSON_H_
#define PROPSCALER_KUBE_WIRE_VOLUMES_JSON_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/volumes.h"

namespace propscaler::kube {

Result<PersistentVolume> DecodePersistentVolume(const rapidjson::Value& item,
                                                const std::string& path);
Result<PersistentVolumeClaim> DecodePersistentVolumeClaim(
    const rapidjson::Value& item, const std::string& path);
Result<StorageClass> DecodeStorageClass(const rapidjson::Value& item,
                                        const std::string& path);
// Drivers without allocatable.count are left out (no limit).
Result<CsiNode> DecodeCsiNode(const rapidjson::Value& item,
                              const std::string& path);

Result<CsiDriver> DecodeCsiDriver(const rapidjson::Value& item,
                                  const std::string& path);
Result<CsiStorageCapacity> DecodeCsiStorageCapacity(
    const rapidjson::Value& item, const std::string& path);

ListWatchCodec<PersistentVolume> PersistentVolumeCodec();
ListWatchCodec<PersistentVolumeClaim> PersistentVolumeClaimCodec();
ListWatchCodec<StorageClass> StorageClassCodec();
ListWatchCodec<CsiNode> CsiNodeCodec();
ListWatchCodec<CsiDriver> CsiDriverCodec();
ListWatchCodec<CsiStorageCapacity> CsiStorageCapacityCodec();

// A List (or one object) of PersistentVolumes, PersistentVolumeClaims,
// StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities, told apart by
// each item's kind; items of other kinds are skipped.
Result<VolumeObjects> DecodeVolumeObjectsJson(std::string_view text);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_VOLUMES_JSON_H_
