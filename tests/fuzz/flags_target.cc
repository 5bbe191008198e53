#include <random>
#include <string_view>

#include "app/subcommand_flags.h"
#include "common/duration.h"
#include "common/label_selector.h"
#include "common/object_names.h"
#include "common/taint_filter.h"
#include "fuzz/fuzz_targets.h"
#include "kube/model/scale_target.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/simulation/limits.h"

namespace propscaler::fuzz {

// The first byte picks the parser; the rest is the flag's value.
void FuzzFlags(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1),
                              size - 1);
  switch (data[0] % 9) {
    case 0:
      (void)ParseDuration("scan-interval", text);
      break;
    case 1:
      (void)nodescale::ParseMinMax("cores-total", text);
      break;
    case 2:
      (void)LabelSelector::Parse(text);
      break;
    case 3:
      (void)TaintFilter::Parse(text);
      break;
    case 4: {
      std::mt19937_64 rng;
      (void)nodescale::MakeExpanderChain(text, {}, &rng);
      break;
    }
    case 5:
      (void)kube::ParseScaleTargets(text);
      break;
    case 6:
      (void)CheckDns1123Label("namespace", text);
      break;
    case 7:
      (void)CheckDns1123Subdomain("configmap", text);
      break;
    default:
      (void)ParseNonNegativeFlag("max-nodes", text);
      break;
  }
}

}  // namespace propscaler::fuzz
