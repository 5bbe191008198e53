// libFuzzer's entry point for one target; PROPSCALER_FUZZ_TARGET names its
// function in fuzz_targets.h (set by tests/fuzz/CMakeLists.txt).
#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  propscaler::fuzz::PROPSCALER_FUZZ_TARGET(data, size);
  return 0;
}
