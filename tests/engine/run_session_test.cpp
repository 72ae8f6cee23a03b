#include "engine/run_session.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(RunSession, HandsTheCacheBackAfterTheLastDtypeAndBetweenDtypesOnlyWhenHalfIsHeld) {
  const DeviceMemory roomy{.free_bytes = 100 * kGiB, .total_bytes = 140 * kGiB};
  const DeviceMemory tight{.free_bytes = 60 * kGiB, .total_bytes = 140 * kGiB};
  EXPECT_FALSE(releases_cache_after_dtype(false, false, roomy));
  EXPECT_TRUE(releases_cache_after_dtype(false, false, tight));
  EXPECT_TRUE(releases_cache_after_dtype(true, false, roomy));  // the op's end
  EXPECT_TRUE(releases_cache_after_dtype(false, true, roomy));  // a fatal error stops the op
  EXPECT_TRUE(releases_cache_after_dtype(false, false, std::nullopt));  // memory unknown
}

}  // namespace
}  // namespace caliber
