#include "engine/provider/provider_spec.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

ErrorKind kind_of_failure(const std::string& spec) {
  try {
    parse_provider_spec(spec);
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::kInternal;
}

TEST(ProviderSpec, ParsesPythonModuleWithoutContext) {
  const auto spec = parse_provider_spec("python:flag_gems");
  EXPECT_EQ(spec.kind, ProviderSpec::Kind::kPython);
  EXPECT_EQ(spec.module, "flag_gems");
  EXPECT_EQ(spec.context, "");
  EXPECT_EQ(spec.text, "python:flag_gems");
}

TEST(ProviderSpec, ParsesPythonDottedModuleAndContext) {
  const auto spec = parse_provider_spec("python:pkg.sub:make.context");
  EXPECT_EQ(spec.module, "pkg.sub");
  EXPECT_EQ(spec.context, "make.context");
}

TEST(ProviderSpec, ParsesLibraryPathWithColons) {
  const auto spec = parse_provider_spec("library:/opt/a:b/libx.so");
  EXPECT_EQ(spec.kind, ProviderSpec::Kind::kLibrary);
  EXPECT_EQ(spec.path, "/opt/a:b/libx.so");
}

TEST(ProviderSpec, RejectsMalformedSpecsAsUsageErrors) {
  for (const char* bad : {"flag_gems", "pip:flag_gems", "python:", "python:1gems", "python:a b",
                          "python:flag_gems:", "python:flag_gems:use-gems", "library:"}) {
    EXPECT_EQ(kind_of_failure(bad), ErrorKind::kUsage) << bad;
  }
}

TEST(ProviderSpec, UsageMessageNamesAcceptedForms) {
  try {
    parse_provider_spec("pip:flag_gems");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'pip'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("python:MODULE[:CONTEXT] or library:PATH.so"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace caliber
