#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "core/error.h"
#include "engine/op_instance.h"
#include "ops/families.h"

namespace caliber {
namespace {

const std::vector<OpDef>& faults() {
  static const std::vector<OpDef> ops = selftest_ops();
  return ops;
}

const OpDef& fault(const std::string& name) {
  for (const auto& op : faults()) {
    if (op.name() == name) return op;
  }
  throw std::runtime_error("no " + name);
}

ErrorKind kind_of(const std::string& name, DType dtype) {
  try {
    instantiate(fault(name), {Shape{4, 4}, false}, dtype, {});
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::kInternal;  // stands for "no error"
}

TEST(SelftestOps, FailDeterministically) {
  EXPECT_EQ(kind_of("selftest_fail", DType::kFloat32), ErrorKind::kOpFailure);
  EXPECT_EQ(kind_of("selftest_fail", DType::kFloat32), ErrorKind::kOpFailure);
}

TEST(SelftestOps, DtypeFailFailsForFloat16Only) {
  EXPECT_EQ(kind_of("selftest_dtype_fail", DType::kFloat16), ErrorKind::kOpFailure);
  EXPECT_EQ(kind_of("selftest_dtype_fail", DType::kFloat32), ErrorKind::kInternal);
}

TEST(SelftestOps, DeviceFatalThrowsADeviceFatalError) {
  EXPECT_EQ(kind_of("selftest_device_fatal", DType::kFloat32), ErrorKind::kDeviceFatal);
}

TEST(SelftestOps, FlakyFailsOnlyOnTheFirstAttempt) {
  // POSIX calls: libtorch.so's exported std::filesystem::remove_all crashes in this binary.
  std::string dir = "/tmp/caliber_flaky_state_" + std::to_string(::getpid());
  ::setenv("CALIBER_SELFTEST_STATE", dir.c_str(), 1);
  EXPECT_EQ(kind_of("selftest_flaky", DType::kFloat32), ErrorKind::kOpFailure);
  EXPECT_EQ(kind_of("selftest_flaky", DType::kFloat32), ErrorKind::kInternal);
  ::unsetenv("CALIBER_SELFTEST_STATE");
  ::unlink((dir + "/selftest_flaky.attempted").c_str());
  ::rmdir(dir.c_str());
}

TEST(SelftestOps, SegfaultRaisesSigsegv) {
  EXPECT_EXIT(instantiate(fault("selftest_segfault"), {Shape{4, 4}, false}, DType::kFloat32, {}),
              ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(SelftestOps, OrphanLeavesAChildInItsProcessGroup) {
  pid_t pid = ::fork();
  if (pid == 0) {  // a process of our own, so the grandchild can be found by its group
    ::setpgid(0, 0);
    instantiate(fault("selftest_orphan"), {Shape{4, 4}, false}, DType::kFloat32, {});
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status));
  // The grandchild still sleeps in the group the op ran in.
  EXPECT_EQ(::kill(-pid, 0), 0);
  ::kill(-pid, SIGKILL);
}

}  // namespace
}  // namespace caliber
