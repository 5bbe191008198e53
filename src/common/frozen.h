// Frozen<T>: an immutable container value held by a shared pointer, so that
// objects with equal values can share one copy (see cluster/pod_interner.h:
// 30,000 pods of 1,500 Deployments have 1,500 label sets). Reads as a
// `const T&`; assigned as a T. An empty value allocates nothing.
#ifndef PROPSCALER_COMMON_FROZEN_H_
#define PROPSCALER_COMMON_FROZEN_H_

#include <cstddef>
#include <memory>
#include <utility>

namespace propscaler {

template <typename T>
class Frozen {
 public:
  Frozen() = default;
  // Not a constructor from T: `frozen = {...}` would then be ambiguous.
  static Frozen Of(T value) {
    return Frozen(value.empty() ? nullptr
                                : std::make_shared<const T>(std::move(value)));
  }
  Frozen& operator=(T value) { return *this = Of(std::move(value)); }
  void clear() { value_.reset(); }  // (`= {}` is ambiguous)
  explicit Frozen(std::shared_ptr<const T> value) : value_(std::move(value)) {}

  const T& get() const { return value_ ? *value_ : Empty(); }
  operator const T&() const { return get(); }  // NOLINT: reads as a T
  const T& operator*() const { return get(); }
  const T* operator->() const { return &get(); }
  // The shared copy; null when empty.
  const std::shared_ptr<const T>& shared() const { return value_; }

  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  bool empty() const { return !value_ || value_->empty(); }
  size_t size() const { return value_ ? value_->size() : 0; }
  decltype(auto) operator[](size_t i) const { return get()[i]; }
  template <typename K>
  auto find(const K& key) const {
    return get().find(key);
  }
  template <typename K>
  auto count(const K& key) const {
    return get().count(key);
  }
  template <typename K>
  bool contains(const K& key) const {
    return get().contains(key);
  }
  template <typename K>
  decltype(auto) at(const K& key) const {
    return get().at(key);
  }

  friend bool operator==(const Frozen& a, const Frozen& b) {
    return a.value_ == b.value_ || a.get() == b.get();
  }
  friend bool operator==(const Frozen& a, const T& b) { return a.get() == b; }

 private:
  static const T& Empty() {
    static const T* const kEmpty = new T();
    return *kEmpty;
  }

  std::shared_ptr<const T> value_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FROZEN_H_
