#include "nodescale/provider/clusterapi_pools.h"

#include <charconv>

#include "kube/wire/snapshot_json.h"
#include "nodescale/domain/node_groups_json.h"

namespace propscaler::nodescale {
namespace {

constexpr char kPool[] = "propscaler.io/pool";
constexpr char kPrice[] = "propscaler.io/price";
constexpr char kCapacityType[] = "propscaler.io/capacity-type";
constexpr char kPoolSettings[] = "propscaler.io/pool-settings";

std::string Named(const std::string& group, const char* key,
                  std::string_view value) {
  return group + ": annotation " + key + "=\"" + std::string(value) + "\"";
}

Result<std::optional<double>> PriceOf(const Labels& annotations,
                                      const std::string& group) {
  const std::string_view text = AnnotationOf(annotations, kPrice);
  if (text.empty()) return std::optional<double>();
  double price = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), price);
  if (error != std::errc() || end != text.data() + text.size() || price < 0) {
    return Status::Invalid(Named(group, kPrice, text) +
                           ": want a non-negative number");
  }
  return std::optional<double>(price);
}

}  // namespace

Status ClusterApiPools::Add(const Labels& annotations, NodeGroup* group) {
  Result<std::optional<double>> price = PriceOf(annotations, group->name);
  if (!price.ok()) return price.status();
  group->price = *price;
  const std::string_view capacity = AnnotationOf(annotations, kCapacityType);
  if (!capacity.empty()) {
    if (capacity != "on-demand" && capacity != "spot") {
      return Status::Invalid(Named(group->name, kCapacityType, capacity) +
                             ": want on-demand or spot");
    }
    group->capacity_type = std::string(capacity);
  }
  const std::string_view settings = AnnotationOf(annotations, kPoolSettings);
  group->pool = std::string(AnnotationOf(annotations, kPool));
  if (group->pool.empty()) {
    if (!settings.empty()) {
      return Status::Invalid(group->name + ": annotation " + kPoolSettings +
                             " without " + kPool);
    }
    return Status::Ok();
  }
  Declared& pool = pools_[group->pool];
  if (settings.empty()) return Status::Ok();
  if (!pool.settings.empty() && pool.settings != settings) {
    return Status::Invalid("pool " + group->pool + ": " + pool.declared_by +
                           " and " + group->name + " annotate different " +
                           kPoolSettings);
  }
  if (Result<NodePool> decoded =
          nodescale::DecodePoolSettingsJson(group->pool, settings);
      !decoded.ok()) {
    return decoded.status().WithContext(group->name + ": annotation " +
                                        kPoolSettings);
  }
  pool = {std::string(settings), group->name};
  return Status::Ok();
}

Result<std::vector<NodePool>> ClusterApiPools::Pools() const {
  std::vector<NodePool> out;
  for (const auto& [name, declared] : pools_) {
    if (declared.settings.empty()) {
      out.push_back(NodePool{name});
      continue;
    }
    Result<NodePool> pool =
        nodescale::DecodePoolSettingsJson(name, declared.settings);
    if (!pool.ok()) return pool.status();
    out.push_back(*std::move(pool));
  }
  return out;
}

}  // namespace propscaler::nodescale
