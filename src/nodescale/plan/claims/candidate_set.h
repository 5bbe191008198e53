// A set of a NodePool's candidates (instance type x offering) as one bit
// each: what a planned node claim could still be. Intersections are a few
// dozen word operations for a catalogue of thousands, which is what lets a
// claim narrow per pod. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_CANDIDATE_SET_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_CANDIDATE_SET_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace propscaler::nodescale {

class CandidateSet {
 public:
  CandidateSet() = default;
  // `size` candidates, all in or all out.
  CandidateSet(size_t size, bool all) : size_(size), words_((size + 63) / 64) {
    if (!all) return;
    for (uint64_t& w : words_) w = ~uint64_t{0};
    if (size % 64 != 0) words_.back() = (uint64_t{1} << (size % 64)) - 1;
  }

  size_t size() const { return size_; }
  bool Has(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void Add(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void Remove(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }

  bool Empty() const {
    for (uint64_t w : words_) {
      if (w != 0) return false;
    }
    return true;
  }
  size_t Count() const {
    size_t n = 0;
    for (uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  // Keeps only what `other` (of the same size) has too.
  void Intersect(const CandidateSet& other) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] &= other.words_[i];
  }
  bool Intersects(const CandidateSet& other) const {
    for (size_t i = 0; i < words_.size(); ++i) {
      if ((words_[i] & other.words_[i]) != 0) return true;
    }
    return false;
  }
  // Calls `f(i)` for each member, ascending.
  template <typename F>
  void ForEach(const F& f) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        f(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
      }
    }
  }
  bool operator==(const CandidateSet&) const = default;

 private:
  size_t size_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_CANDIDATE_SET_H_
