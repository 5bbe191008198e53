#include "kube/wire/node_fields.h"

#include "common/quantity.h"

namespace propscaler::kube {
namespace {

const char* CpuFieldName(CountedCpu cpu) {
  return cpu == CountedCpu::kCapacity ? " status.capacity.cpu"
                                      : " status.allocatable.cpu";
}

}  // namespace

Result<NodeInfo> ToNodeInfo(NodeFields& fields, CountedCpu cpu) {
  if (fields.name.empty()) {
    return Status::Internal("node without metadata.name");
  }
  NodeInfo info{std::move(fields.name), 0, fields.unschedulable, fields.ready,
                fields.excluded_by_taint};
  if (fields.cpu.empty()) return info;
  Result<int64_t> millis = ParseMilliQuantity(fields.cpu);
  if (!millis.ok()) {
    return millis.status().WithContext("node " + info.name + CpuFieldName(cpu));
  }
  info.cpu_millis = *millis;
  return info;
}

void AddNodeItem(NodeFields& fields, CountedCpu cpu,
                 const ItemBatches<NodeInfo>& on_items,
                 ListPage<NodeInfo>* page) {
  Result<NodeInfo> node = ToNodeInfo(fields, cpu);
  if (node.ok()) {
    page->items.push_back(std::move(node).value());
  } else {
    page->item_errors.push_back(node.status().message());
  }
  if (page->items.size() >= kNodeBatch) HandOverItems(on_items, page);
}

}  // namespace propscaler::kube
