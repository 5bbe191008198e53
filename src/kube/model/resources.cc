#include "kube/model/resources.h"

#include <algorithm>

#include "common/quantity.h"

namespace propscaler::kube {
namespace {

template <typename Combine>
void CombineExtended(const Resources& other, Resources* into, Combine combine) {
  for (const auto& [name, amount] : other.extended) {
    into->SetExtended(name, combine(into->Extended(name), amount));
  }
}

}  // namespace

int64_t Resources::Extended(const std::string& name) const {
  for (const auto& [key, amount] : extended) {
    if (key == name) return amount;
  }
  return 0;
}

void Resources::SetExtended(const std::string& name, int64_t amount) {
  auto it = std::lower_bound(extended.begin(), extended.end(), name,
                             [](const auto& entry, const std::string& key) {
                               return entry.first < key;
                             });
  if (it != extended.end() && it->first == name) {
    it->second = amount;
  } else {
    extended.insert(it, {name, amount});
  }
}

Resources& Resources::operator+=(const Resources& other) {
  cpu_millis += other.cpu_millis;
  memory_bytes += other.memory_bytes;
  ephemeral_storage_bytes += other.ephemeral_storage_bytes;
  pods += other.pods;
  CombineExtended(other, this, [](int64_t a, int64_t b) { return a + b; });
  return *this;
}

Resources& Resources::operator-=(const Resources& other) {
  cpu_millis -= other.cpu_millis;
  memory_bytes -= other.memory_bytes;
  ephemeral_storage_bytes -= other.ephemeral_storage_bytes;
  pods -= other.pods;
  CombineExtended(other, this, [](int64_t a, int64_t b) { return a - b; });
  return *this;
}

Resources operator+(Resources a, const Resources& b) { return a += b; }
Resources operator-(Resources a, const Resources& b) { return a -= b; }

std::string FirstShortResource(const Resources& request,
                               const Resources& free) {
  if (request.cpu_millis > free.cpu_millis) return "cpu";
  if (request.memory_bytes > free.memory_bytes) return "memory";
  if (request.pods > free.pods) return "pods";
  if (request.ephemeral_storage_bytes > free.ephemeral_storage_bytes) {
    return "ephemeral-storage";
  }
  for (const auto& [name, amount] : request.extended) {
    if (amount > free.Extended(name)) return name;
  }
  return "";
}

bool FitsExtended(const Resources& request, const Resources& free) {
  for (const auto& [name, amount] : request.extended) {
    if (amount > free.Extended(name)) return false;
  }
  return true;
}

int64_t MaxCopies(const Resources& request, const Resources& free) {
  int64_t copies = INT64_MAX;
  auto limit = [&](int64_t want, int64_t have) {
    if (want > 0) copies = std::min(copies, have < 0 ? 0 : have / want);
  };
  limit(request.cpu_millis, free.cpu_millis);
  limit(request.memory_bytes, free.memory_bytes);
  limit(request.ephemeral_storage_bytes, free.ephemeral_storage_bytes);
  limit(request.pods, free.pods);
  for (const auto& [name, amount] : request.extended) {
    limit(amount, free.Extended(name));
  }
  return copies;
}

Resources Times(Resources r, int64_t k) {
  r.cpu_millis *= k;
  r.memory_bytes *= k;
  r.ephemeral_storage_bytes *= k;
  r.pods *= k;
  for (auto& [name, amount] : r.extended) amount *= k;
  return r;
}

void SubtractTimes(const Resources& request, int64_t k, Resources* free) {
  free->cpu_millis -= request.cpu_millis * k;
  free->memory_bytes -= request.memory_bytes * k;
  free->ephemeral_storage_bytes -= request.ephemeral_storage_bytes * k;
  free->pods -= request.pods * k;
  for (const auto& [name, amount] : request.extended) {
    free->SetExtended(name, free->Extended(name) - amount * k);
  }
}

Resources Max(const Resources& a, const Resources& b) {
  Resources out = a;
  out.cpu_millis = std::max(a.cpu_millis, b.cpu_millis);
  out.memory_bytes = std::max(a.memory_bytes, b.memory_bytes);
  out.ephemeral_storage_bytes =
      std::max(a.ephemeral_storage_bytes, b.ephemeral_storage_bytes);
  out.pods = std::max(a.pods, b.pods);
  CombineExtended(b, &out, [](int64_t x, int64_t y) { return std::max(x, y); });
  return out;
}

Status SetResourceAmount(std::string_view name, std::string_view text,
                         Resources* out) {
  Result<int64_t> amount =
      name == "cpu" ? ParseMilliQuantity(text) : ParseQuantity(text);
  if (!amount.ok()) return amount.status();
  if (name == "cpu") {
    out->cpu_millis = *amount;
  } else if (name == "memory") {
    out->memory_bytes = *amount;
  } else if (name == "ephemeral-storage") {
    out->ephemeral_storage_bytes = *amount;
  } else if (name == "pods") {
    out->pods = *amount;
  } else {
    out->SetExtended(std::string(name), *amount);
  }
  return Status::Ok();
}

Resources EffectivePodRequests(const std::vector<Resources>& containers,
                               const std::vector<Resources>& init_containers,
                               const Resources& overhead) {
  Resources running;
  for (const Resources& c : containers) running += c;
  Resources needed = running;
  for (const Resources& init : init_containers) needed = Max(needed, init);
  needed += overhead;
  needed.pods = 1;
  return needed;
}

Resources EffectivePodLimits(const std::vector<Resources>& containers,
                             const std::vector<Resources>& init_containers,
                             const Resources& overhead) {
  Resources limits = EffectivePodRequests(containers, init_containers, {});
  limits.pods = 0;
  auto add = [](int64_t extra, int64_t* limit) {
    if (*limit > 0) *limit += extra;
  };
  add(overhead.cpu_millis, &limits.cpu_millis);
  add(overhead.memory_bytes, &limits.memory_bytes);
  add(overhead.ephemeral_storage_bytes, &limits.ephemeral_storage_bytes);
  for (auto& [name, amount] : limits.extended) {
    add(overhead.Extended(name), &amount);
  }
  return limits;
}

}  // namespace propscaler::kube
