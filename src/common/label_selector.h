// Kubernetes label selectors in their string form, as sent in the
// labelSelector query parameter: "a=b,c==d,e!=f,g in (x,y),h notin (z),i,!j".
//
// Requirements are ANDed. Pure; no I/O.
#ifndef PROPSCALER_COMMON_LABEL_SELECTOR_H_
#define PROPSCALER_COMMON_LABEL_SELECTOR_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler {

using Labels = std::map<std::string, std::string, std::less<>>;

struct LabelRequirement {
  enum class Op { kEquals, kNotEquals, kIn, kNotIn, kExists, kDoesNotExist };
  std::string key;
  Op op = Op::kExists;
  std::vector<std::string>
      values;  // one for = and !=; one or more for in/notin

  bool Matches(const Labels& labels) const;
  // The string form: "a=b", "g in (x,y)", "!j".
  std::string ToString() const;
  auto operator<=>(const LabelRequirement&) const = default;
};

// Empty when `key` is a valid label key (Kubernetes' qualified name: an
// optional DNS-subdomain prefix and '/', then a name of at most 63
// characters); else why not. Taint keys follow the same rule.
std::string LabelKeyProblem(std::string_view key);

class LabelSelector {
 public:
  // The empty selector matches everything.
  LabelSelector() = default;
  explicit LabelSelector(std::vector<LabelRequirement> requirements)
      : requirements_(std::move(requirements)) {}

  // Parses the string form. Errors name the selector and the offending part
  // ("label selector \"a in (b\": missing ')' after values").
  static Result<LabelSelector> Parse(std::string_view text);

  bool Matches(const Labels& labels) const;
  // The string form, which Parse reads back ("" for the empty selector).
  std::string ToString() const;
  bool empty() const { return requirements_.empty(); }
  const std::vector<LabelRequirement>& requirements() const {
    return requirements_;
  }
  auto operator<=>(const LabelSelector&) const = default;
  bool operator==(const LabelSelector&) const = default;

 private:
  std::vector<LabelRequirement> requirements_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_LABEL_SELECTOR_H_
