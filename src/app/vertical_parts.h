// Vertical mode's parts (app/mode_parts.h): the watches of the nodes, the
// target and the config's ConfigMap or file; the reporter; the autoscaler.
#ifndef PROPSCALER_APP_VERTICAL_PARTS_H_
#define PROPSCALER_APP_VERTICAL_PARTS_H_

#include "app/mode_parts.h"
#include "vertical/vertical_autoscaler.h"
#include "vertical/vertical_autoscaler_options.h"
#include "vertical/vertical_reporter.h"
#include "vertical/vertical_watches.h"

namespace propscaler {

using VerticalParts = ModeParts<VerticalOptions, VerticalWatches,
                                VerticalReporter, VerticalAutoscaler>;

}  // namespace propscaler

#endif  // PROPSCALER_APP_VERTICAL_PARTS_H_
