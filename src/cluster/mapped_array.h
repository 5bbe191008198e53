// A growable array of trivially copyable values in its own anonymous memory
// mapping. Growing remaps it (mremap: the kernel moves page tables, never
// the bytes), so the array never exists twice, even for a moment, and only
// the pages written count towards the resident size: a store of 65,000
// 16-byte entries costs about 1 MiB at its peak, not the 2-3 MiB a vector's
// copy on growth or a hash table's rehash would. Not thread-safe.
#ifndef PROPSCALER_CLUSTER_MAPPED_ARRAY_H_
#define PROPSCALER_CLUSTER_MAPPED_ARRAY_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace propscaler {

template <typename T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  MappedArray() = default;
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  MappedArray(MappedArray&& other) noexcept { swap(other); }
  MappedArray& operator=(MappedArray&& other) noexcept {
    MappedArray(std::move(other)).swap(*this);
    return *this;
  }
  ~MappedArray() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }

  void swap(MappedArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(bytes_, other.bytes_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

  void push_back(const T& value) { insert(size_, value); }

  void insert(size_t at, const T& value) {
    if (size_ == capacity_) Grow();
    std::memmove(data_ + at + 1, data_ + at, (size_ - at) * sizeof(T));
    data_[at] = value;
    ++size_;
  }

  void erase(size_t at) {
    std::memmove(data_ + at, data_ + at + 1, (size_ - at - 1) * sizeof(T));
    --size_;
  }

  // Drops values from `new_size` on (their pages stay mapped).
  void truncate(size_t new_size) { size_ = new_size; }

 private:
  static constexpr size_t kPage = 4096;

  void Grow() {
    const size_t new_bytes = bytes_ == 0 ? kPage : bytes_ * 2;
    void* grown = data_ == nullptr
                      ? mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                      : mremap(data_, bytes_, new_bytes, MREMAP_MAYMOVE);
    if (grown == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    bytes_ = new_bytes;
    capacity_ = new_bytes / sizeof(T);
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t bytes_ = 0;  // mapped
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_MAPPED_ARRAY_H_
