// The check the view-decoder tests share: a view decoder (record_views.h,
// checkpoint_record_view.h) agrees with the reference decoder (records.h).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::serde::testing {

// Decodes `bytes` with the reference decoder and with the view decoder and
// checks that they agree: same success, and the same record (the view's
// ToOwned()) or the same error message. Then checks that the view's direct
// reader alone accepts only what the reference accepts, decoding the same.
template <typename View, typename Reference, typename ViewDecode,
          typename DirectDecode>
void ViewAgrees(std::string_view bytes, const Reference& reference_decode,
                const ViewDecode& view_decode,
                const DirectDecode& direct_decode) {
  const auto reference = reference_decode(bytes);
  View view;
  const Status status = view_decode(bytes, &view);
  REQUIRE(status.ok() == reference.ok());
  if (reference.ok()) {
    CHECK(view.ToOwned() == *reference);
  } else {
    CHECK(status.ToString() == reference.status().ToString());
  }
  View direct;
  if (direct_decode(bytes, &direct)) {
    REQUIRE(reference.ok());
    CHECK(direct.ToOwned() == *reference);
  }
}

}  // namespace rockpoint::serde::testing
