#include "core/process_memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <memory>

namespace caliber {
namespace {

TEST(ProcessMemory, TouchedPagesShowInTheResidentSet) {
  std::optional<int64_t> before = resident_set_bytes();
  ASSERT_TRUE(before.has_value());
  constexpr size_t kBytes = 64u << 20;
  auto block = std::make_unique<char[]>(kBytes);
  std::memset(block.get(), 1, kBytes);
  std::optional<int64_t> after = resident_set_bytes(::getpid());
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(*after - *before, static_cast<int64_t>(kBytes) * 9 / 10);
  EXPECT_EQ(block[kBytes - 1], 1);
}

TEST(ProcessMemory, AProcessThatIsGoneHasNoResidentSet) {
  // Above the kernel's pid_max (at most 2^22), so no process can have it.
  EXPECT_FALSE(resident_set_bytes(1 << 23).has_value());
}

}  // namespace
}  // namespace caliber
