// The in-tree volume plugins and the CSI drivers they migrate to
// (csi-translation-lib's names). Migration is on by default since
// Kubernetes 1.25-1.26 and the in-tree limit plugins are gone since 1.32,
// so an in-tree PersistentVolume is counted as its CSI driver's volume and
// an in-tree provisioner as its CSI driver, as the scheduler does on a node
// that migrated the plugin.
#ifndef PROPSCALER_KUBE_MODEL_IN_TREE_VOLUMES_H_
#define PROPSCALER_KUBE_MODEL_IN_TREE_VOLUMES_H_

#include <optional>
#include <string_view>

namespace propscaler::kube {

struct InTreePlugin {
  std::string_view plugin;   // "kubernetes.io/aws-ebs"
  const char* pv_source;     // the PV's spec field
  const char* handle_field;  // the source's field naming the volume
  std::string_view csi_driver;
  // The node allocatable key of its attach limit before migration; "": none.
  std::string_view limit_key;
};

inline constexpr InTreePlugin kInTreePlugins[] = {
    {"kubernetes.io/aws-ebs", "awsElasticBlockStore", "volumeID",
     "ebs.csi.aws.com", "attachable-volumes-aws-ebs"},
    {"kubernetes.io/gce-pd", "gcePersistentDisk", "pdName",
     "pd.csi.storage.gke.io", "attachable-volumes-gce-pd"},
    {"kubernetes.io/azure-disk", "azureDisk", "diskURI", "disk.csi.azure.com",
     "attachable-volumes-azure-disk"},
    {"kubernetes.io/azure-file", "azureFile", "shareName", "file.csi.azure.com",
     ""},
    {"kubernetes.io/cinder", "cinder", "volumeID", "cinder.csi.openstack.org",
     "attachable-volumes-cinder"},
    {"kubernetes.io/vsphere-volume", "vsphereVolume", "volumePath",
     "csi.vsphere.vmware.com", ""},
    {"kubernetes.io/portworx-volume", "portworxVolume", "volumeID",
     "pxd.portworx.com", ""},
};

// The CSI driver an in-tree provisioner or plugin name migrates to; any
// other name (a CSI driver already) as it is.
std::string_view MigratedDriverName(std::string_view name);

// The CSI driver whose limit a node allocatable key gives:
// "attachable-volumes-csi-<driver>" (names shorter than 63 characters; a
// longer one is hashed and not read back), or an in-tree plugin's key
// (counted for its migrated driver). nullopt: not an attach limit key.
std::optional<std::string_view> DriverOfLimitKey(std::string_view key);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_IN_TREE_VOLUMES_H_
