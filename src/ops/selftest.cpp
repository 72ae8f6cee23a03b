// Fault-injection ops for the batch driver's tests, registered only when CALIBER_SELFTEST=1:
// each fails in one of the ways a real op can, on the CPU, at one tiny shape.
#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

OpDef selftest(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kSelftest)
      .shape_keys({"SelftestBenchmark"})
      .builtin_shapes({{4, 4}})
      .inputs(ops::tensors(1))
      .call(std::move(call))
      .aten({});
}

at::Tensor harmless(const Args& a) { return a.t[0].add(1); }

// The flaky op remembers its first attempt in a file, so the failure happens once across the
// processes of a batch's retries. POSIX calls, not std::filesystem: libtorch.so exports its own
// copies of some std::filesystem functions, and those win (and crash) in torch-linked binaries.
std::string flaky_marker(const std::string& fallback_dir) {
  const char* dir = std::getenv("CALIBER_SELFTEST_STATE");
  std::string base = dir != nullptr && *dir != '\0' ? dir : fallback_dir;
  if (base.empty()) base = ".";
  ::mkdir(base.c_str(), 0755);  // the parent is expected to exist; EEXIST is fine
  return base + "/selftest_flaky.attempted";
}

}  // namespace

std::vector<OpDef> selftest_ops() {
  using A = Args;
  std::vector<OpDef> ops = {
      selftest("selftest_segfault",
               [](A& a) {
                 ::raise(SIGSEGV);
                 return harmless(a);
               }),
      selftest("selftest_hang",
               [](A& a) {
                 for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
                 return harmless(a);
               }),
      selftest("selftest_fail",
               [](A&) -> at::Tensor {
                 throw Error(ErrorKind::kOpFailure, "selftest_fail: deterministic op failure");
               }),
      selftest("selftest_flaky",
               [](A& a) {
                 std::filesystem::path marker = flaky_marker(a.state_dir);
                 if (!std::filesystem::exists(marker)) {
                   std::filesystem::create_directories(marker.parent_path());
                   std::ofstream(marker) << "first attempt failed\n";
                   throw Error(
                       ErrorKind::kOpFailure,
                       "selftest_flaky: first attempt fails (marker " + marker.string() + ")");
                 }
                 return harmless(a);
               }),
      selftest("selftest_dtype_fail",
               [](A& a) {
                 if (a.t[0].scalar_type() == at::kHalf) {
                   throw Error(ErrorKind::kOpFailure, "selftest_dtype_fail: float16 fails");
                 }
                 return harmless(a);
               }),
      selftest("selftest_device_fatal",
               [](A&) -> at::Tensor {
                 throw Error(ErrorKind::kDeviceFatal,
                             "selftest_device_fatal: the device reported an unrecoverable error");
               }),
      selftest("selftest_orphan",
               [](A& a) {
                 // Once per process: a child that outlives the op unless its group is killed.
                 static const bool forked = [] {
                   if (::fork() == 0) {
                     ::sleep(600);
                     ::_exit(0);
                   }
                   return true;
                 }();
                 (void)forked;
                 return harmless(a);
               }),
  };
  return ops;
}

}  // namespace caliber
