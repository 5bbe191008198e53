#include "checks/target_check.h"

#include <cstdio>

namespace propscaler::bench {
namespace {

std::string Figure(double value, const char* unit) {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f %s", value, unit);
  return text;
}

}  // namespace

void CheckTarget(const char* what, double figure, double target,
                 const char* unit, const std::string& source, Failures* out) {
  if (target <= 0 || figure <= target) return;
  out->push_back(std::string(what) + " " + Figure(figure, unit) +
                 ", over the target of " + Figure(target, unit) + " (" +
                 source + ")");
}

}  // namespace propscaler::bench
