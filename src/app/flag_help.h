// `propscaler --help`: propscaler's own flags grouped by the mode that reads
// them (every mode, replica, vertical, node-scale), each with its default,
// spelled with dashes as CPA's and Cluster Autoscaler's users write them;
// glog's and gflags' own flags are left to --helpfull. Pure.
#ifndef PROPSCALER_APP_FLAG_HELP_H_
#define PROPSCALER_APP_FLAG_HELP_H_

#include <string>
#include <vector>

namespace propscaler {

struct FlagDescription {
  std::string name;  // as defined: underscores
  std::string type;  // gflags': "bool", "string", "int32", ...
  std::string default_value;
  std::string description;
  std::string file;  // the defining source file (__FILE__)
};

// `usage` first, then a section per mode; flags defined outside
// propscaler's app/ flag files are not listed.
std::string FlagsHelp(const std::string& usage,
                      const std::vector<FlagDescription>& flags);

}  // namespace propscaler

#endif  // PROPSCALER_APP_FLAG_HELP_H_
