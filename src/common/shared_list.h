// A list of shared, immutable objects read as a vector of values: the
// node-scale loop hands the live store's pods to the planner through one
// without copying them (30,000 realistic pods are tens of MiB a copy).
// Reading is by const reference; the few writers (tests, `simulate`) edit
// through Mutable(), MutableBack() and emplace_back, which copy an object first
// when anyone else may see it (copy on write).
#ifndef PROPSCALER_COMMON_SHARED_LIST_H_
#define PROPSCALER_COMMON_SHARED_LIST_H_

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace propscaler {

template <typename T>
class SharedList {
 public:
  using Shared = std::shared_ptr<const T>;

  class Iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    Iterator() = default;
    explicit Iterator(typename std::vector<Shared>::const_iterator at)
        : at_(at) {}
    reference operator*() const { return **at_; }
    pointer operator->() const { return at_->get(); }
    reference operator[](difference_type n) const { return *at_[n]; }
    Iterator& operator++() { return ++at_, *this; }
    Iterator operator++(int) { return Iterator(at_++); }
    Iterator& operator--() { return --at_, *this; }
    Iterator operator--(int) { return Iterator(at_--); }
    Iterator& operator+=(difference_type n) { return at_ += n, *this; }
    Iterator& operator-=(difference_type n) { return at_ -= n, *this; }
    Iterator operator+(difference_type n) const { return Iterator(at_ + n); }
    Iterator operator-(difference_type n) const { return Iterator(at_ - n); }
    friend Iterator operator+(difference_type n, Iterator it) { return it + n; }
    difference_type operator-(const Iterator& other) const {
      return at_ - other.at_;
    }
    bool operator==(const Iterator&) const = default;
    auto operator<=>(const Iterator&) const = default;

   private:
    typename std::vector<Shared>::const_iterator at_;
  };

  SharedList() = default;
  SharedList(std::initializer_list<T> items) {
    reserve(items.size());
    for (const T& item : items) push_back(item);
  }
  // Explicit: a temporary list made to pass a vector would take pointers
  // into it with it when it goes.
  explicit SharedList(std::vector<T> items) {
    reserve(items.size());
    for (T& item : items) push_back(std::move(item));
  }

  // Shares `item`: nothing is copied.
  void Share(Shared item) {
    items_.push_back(std::move(item));
    owned_.push_back(false);
  }
  void push_back(T item) {
    items_.push_back(std::make_shared<T>(std::move(item)));
    owned_.push_back(true);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return MutableBack();
  }

  Iterator begin() const { return Iterator(items_.begin()); }
  Iterator end() const { return Iterator(items_.end()); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() {
    items_.clear();
    owned_.clear();
  }
  void reserve(size_t n) {
    items_.reserve(n);
    owned_.reserve(n);
  }
  // Drops the items `drop` is true of, keeping the others' order.
  template <typename Predicate>
  void EraseIf(Predicate drop) {
    size_t kept = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (drop(*items_[i])) continue;
      items_[kept] = std::move(items_[i]);
      owned_[kept] = owned_[i];
      ++kept;
    }
    items_.resize(kept);
    owned_.resize(kept);
  }

  const T& operator[](size_t i) const { return *items_[i]; }
  const Shared& SharedAt(size_t i) const { return items_[i]; }
  const T& back() const { return *items_.back(); }
  // Shares `item` in place of item i: nothing is copied.
  void ShareAt(size_t i, Shared item) {
    items_[i] = std::move(item);
    owned_[i] = false;
  }
  // The item to edit, this list's own: copied first if anyone else may see
  // it. (Not operator[]: a read would then copy.)
  T& Mutable(size_t i) { return Own(i); }
  T& MutableBack() { return Own(items_.size() - 1); }

 private:
  T& Own(size_t i) {
    // A copy of this list shares even the items this one made.
    if (!owned_[i] || items_[i].use_count() > 1) {
      items_[i] = std::make_shared<T>(*items_[i]);
      owned_[i] = true;
    }
    // Made non-const by this list (here or in push_back) and seen by no
    // one else: editable.
    return const_cast<T&>(*items_[i]);
  }

  std::vector<Shared> items_;
  std::vector<bool> owned_;  // made by this list
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_SHARED_LIST_H_
