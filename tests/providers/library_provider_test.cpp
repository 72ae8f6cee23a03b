#include "engine/provider/library_provider.h"

#include <ATen/ops/add.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/relu.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "engine/provider/dispatch_snapshot.h"
#include "engine/provider/file_digest.h"
#include "engine/provider/loaded_libraries.h"

namespace caliber {
namespace {

constexpr const char* kSpec = "library:" CALIBER_EXAMPLE_LIBRARY;

// examples/override_library: add.Tensor, relu and neg for CPU and CUDA, counting its calls.
long example_calls() {
  void* handle = dlopen(CALIBER_EXAMPLE_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return -1;
  const auto calls = reinterpret_cast<long (*)()>(dlsym(handle, "caliber_example_override_calls"));
  const long count = calls != nullptr ? calls() : -1;
  dlclose(handle);  // only drops the reference NOLOAD took
  return count;
}

ErrorKind kind_of_failure(const std::string& spec) {
  try {
    make_provider(spec);
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::kInternal;
}

const at::Tensor kA = at::arange(-3, 3);
const at::Tensor kB = at::arange(0, 6);

TEST(LibraryProvider, RunsTheOverrideInsideTheScopeOnly) {
  auto provider = make_provider(kSpec);
  const long before = example_calls();
  ASSERT_GE(before, 0);

  at::add(kA, kB);
  EXPECT_EQ(example_calls(), before);

  const at::Tensor sum = with_candidate(*provider, [&] { return at::add(kA, kB); });
  EXPECT_EQ(example_calls(), before + 1);
  EXPECT_TRUE(at::equal(sum, at::arange(-3, 9, 2)));
  with_candidate(*provider, [&] { at::neg(at::relu(kA)); });
  EXPECT_EQ(example_calls(), before + 3);

  at::relu(kA);
  EXPECT_EQ(example_calls(), before + 3);
}

TEST(LibraryProvider, CoversItsOperatorsOnCpuAndCudaButNotOthers) {
  auto provider = make_provider(kSpec);
  for (const char* device : {"cpu", "cuda"}) {
    const Coverage coverage =
        provider->covers({"aten::add.Tensor", "aten::relu", "aten::neg"}, device);
    EXPECT_EQ(coverage.overridden.size(), 3u) << device;
    EXPECT_TRUE(coverage.baseline_intact()) << device;
  }
  const Coverage other_op = provider->covers({"aten::mul.Tensor"}, "cpu");
  EXPECT_FALSE(other_op.covered());
  EXPECT_EQ(other_op.not_overridden, std::vector<std::string>{"aten::mul.Tensor"});
}

// An op's default aten name is bare ("aten::add", from the op "add"), and aten::add has no
// overload "": the name stands for all its overloads, so overriding add.Tensor covers it.
TEST(LibraryProvider, ABareNameIsCoveredThroughAnyOfItsOverloads) {
  ASSERT_TRUE(kernel_identity("aten::add", "cpu").has_value());
  auto provider = make_provider(kSpec);
  const Coverage coverage = provider->covers({"aten::add", "aten::mul"}, "cpu");
  EXPECT_EQ(coverage.overridden, std::vector<std::string>{"aten::add"});
  EXPECT_EQ(coverage.not_overridden, std::vector<std::string>{"aten::mul"});
  EXPECT_TRUE(coverage.unknown.empty());
  EXPECT_TRUE(coverage.baseline_intact());
  EXPECT_FALSE(kernel_identity("aten::no_such_op", "cpu").has_value());
}

TEST(LibraryProvider, UnregisterRestoresTheBaselineKernel) {
  const auto baseline = kernel_identity("aten::add.Tensor", "cpu");
  auto provider = make_provider(kSpec);
  {
    CandidateScope scope(*provider);
    EXPECT_NE(kernel_identity("aten::add.Tensor", "cpu"), baseline);
    scope.close();
  }
  EXPECT_EQ(kernel_identity("aten::add.Tensor", "cpu"), baseline);
}

TEST(LibraryProvider, VersionNamesPathHashAndOwnVersion) {
  auto provider = make_provider(kSpec);
  EXPECT_EQ(provider->version(), std::string(CALIBER_EXAMPLE_LIBRARY) + " sha256:" +
                                     sha256_of_file(CALIBER_EXAMPLE_LIBRARY) + " (example 1.0)");
}

TEST(LibraryProvider, MissingOrForeignLibraryIsAUsageError) {
  EXPECT_EQ(kind_of_failure("library:/nonexistent/libcandidate.so"), ErrorKind::kUsage);
  // A real shared library that is no provider: it lacks caliber_provider_register.
  const auto c10 = loaded_library_files("libc10");
  ASSERT_FALSE(c10.empty());
  EXPECT_EQ(kind_of_failure("library:" + c10.front()), ErrorKind::kUsage);
}

}  // namespace
}  // namespace caliber
