// Frozen<T>: an immutable container value behind a reference count, so
// that objects with equal values can share one copy (see
// cluster/pod_interner.h: 30,000 pods of 1,500 Deployments have 1,500 label
// sets). Reads as a `const T&`; assigned as a T. An empty value allocates
// nothing. One pointer wide (a shared_ptr is two): a pod holds nine.
#ifndef PROPSCALER_COMMON_FROZEN_H_
#define PROPSCALER_COMMON_FROZEN_H_

#include <atomic>
#include <cstddef>
#include <utility>

namespace propscaler {

template <typename T>
class Frozen {
 public:
  Frozen() = default;
  // Not a constructor from T: `frozen = {...}` would then be ambiguous.
  static Frozen Of(T value) {
    return value.empty() ? Frozen() : Frozen(new Box{std::move(value)});
  }
  Frozen& operator=(T value) { return *this = Of(std::move(value)); }
  void clear() { Frozen().swap(*this); }  // (`= {}` is ambiguous)

  Frozen(const Frozen& other) : box_(other.box_) {
    if (box_ != nullptr) box_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Frozen(Frozen&& other) noexcept : box_(std::exchange(other.box_, nullptr)) {}
  Frozen& operator=(const Frozen& other) {
    Frozen(other).swap(*this);
    return *this;
  }
  Frozen& operator=(Frozen&& other) noexcept {
    Frozen(std::move(other)).swap(*this);
    return *this;
  }
  ~Frozen() {
    if (box_ != nullptr &&
        box_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete box_;
    }
  }
  void swap(Frozen& other) noexcept { std::swap(box_, other.box_); }

  const T& get() const { return box_ ? box_->value : Empty(); }
  operator const T&() const { return get(); }  // NOLINT: reads as a T
  const T& operator*() const { return get(); }
  const T* operator->() const { return &get(); }
  // Which copy this is: equal for handles sharing one; null when empty.
  const void* identity() const { return box_; }
  // Handles sharing this copy (0 when empty).
  long use_count() const {
    return box_ ? box_->refs.load(std::memory_order_relaxed) : 0;
  }

  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  bool empty() const { return !box_ || box_->value.empty(); }
  size_t size() const { return box_ ? box_->value.size() : 0; }
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
    return a.box_ == b.box_ || a.get() == b.get();
  }
  friend bool operator==(const Frozen& a, const T& b) { return a.get() == b; }

 private:
  struct Box {
    const T value;
    mutable std::atomic<long> refs{1};
  };
  explicit Frozen(const Box* box) : box_(box) {}

  static const T& Empty() {
    static const T* const kEmpty = new T();
    return *kEmpty;
  }

  const Box* box_ = nullptr;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FROZEN_H_
