// A ProvisioningRequest's spec checked as the API's schema checks it (the
// CRD's OpenAPI and CEL rules: ../shared/reference/provisioning-request.md,
// section 1), so that one a server let through (an older CRD, a hand-made
// object) is reported in its conditions instead of half-served. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_VALIDATION_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_VALIDATION_H_

#include "common/status.h"
#include "kube/model/provisioning_request.h"

namespace propscaler::nodescale {

// OK, or the first rule broken: the field, the bad value and the rule
// ("spec.podSets[2].count: 0: must be at least 1").
Status ValidateProvisioningRequest(const kube::ProvisioningRequest& request);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_VALIDATION_H_
