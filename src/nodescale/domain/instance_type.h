// An instance type of a catalogue and the offerings it is sold as, as
// Karpenter's kwok provider describes them (its instance-types file): what
// a node of the type offers pods, the labels it carries, and where and at
// what price it can be had. Plain data.
#ifndef PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPE_H_
#define PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPE_H_

#include <string>
#include <vector>

#include "common/label_selector.h"
#include "kube/model/resources.h"

namespace propscaler::nodescale {

using kube::Resources;

// One way to buy the type: the labels it adds to the node (zone, capacity
// type), its price per hour, and whether it can be had now.
struct Offering {
  Labels labels;
  double price = 0;
  bool available = true;
  bool operator==(const Offering&) const = default;
};

struct InstanceType {
  std::string name;
  // Labels every node of the type has (instance type, architecture, the
  // kwok provider's size, family, cpu and memory).
  Labels labels;
  // Labels a node of the type may have one value of each: the operating
  // systems it runs (kubernetes.io/os).
  std::vector<std::pair<std::string, std::vector<std::string>>> choices;
  Resources capacity;
  Resources overhead;  // kube-reserved and the like: not for pods
  std::vector<Offering> offerings;

  Resources Allocatable() const { return capacity - overhead; }
  bool operator==(const InstanceType&) const = default;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPE_H_
