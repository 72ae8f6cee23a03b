#include "core/fnv1a.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(Fnv1a, GivesTheReferenceValues) {
  EXPECT_EQ(fnv1a(""), 14695981039346656037ull);
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a("mm"), 0x08a95707b550430full);
}

TEST(Fnv1a, AnotherBasisGivesAnotherHash) {
  EXPECT_EQ(fnv1a("", 42), 42u);
  EXPECT_NE(fnv1a("mm", 1469598103934665603ull), fnv1a("mm"));
}

}  // namespace
}  // namespace caliber
