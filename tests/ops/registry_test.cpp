#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "core/error.h"
#include "ops/op_def.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

TEST(OpDef, AnswersToItsNameAndItsAliasesOnly) {
  OpDef op("abs");
  op.aliases({"absolute_value"});
  EXPECT_TRUE(op.answers_to("abs"));
  EXPECT_TRUE(op.answers_to("absolute_value"));
  EXPECT_FALSE(op.answers_to("absolute"));
}

TEST(OpRegistry, HasAtLeast150OpsInAtLeast12Families) {
  EXPECT_GE(all_ops().size(), 150u);
  EXPECT_GE(families_present().size(), 12u);
}

TEST(OpRegistry, CoversTheOpsThatMatterForCapture) {
  for (const char* name :
       {"sort", "dropout", "rand", "randn", "uniform_", "normal_", "bernoulli_", "exponential_",
        "nonzero", "masked_select", "topk", "mm", "softmax", "add", "add_"}) {
    EXPECT_NE(find_op_or_null(name), nullptr) << name;
  }
}

TEST(OpRegistry, FlagsHostSyncAndRngOps) {
  EXPECT_TRUE(find_op("nonzero").host_sync());
  EXPECT_TRUE(find_op("masked_select").host_sync());
  EXPECT_FALSE(find_op("sort").host_sync());
  EXPECT_TRUE(find_op("dropout").rng());
  EXPECT_TRUE(find_op("exponential_").rng());
  EXPECT_TRUE(find_op("exponential_").inplace());
  EXPECT_TRUE(find_op("softmax_backward").backward());
}

TEST(OpRegistry, EveryOpIsComplete) {
  for (const auto& op : all_ops()) {
    EXPECT_TRUE(op.inputs()) << op.name();
    EXPECT_TRUE(op.call()) << op.name();
    EXPECT_FALSE(op.dtypes().empty()) << op.name();
    EXPECT_FALSE(op.builtin_shapes().empty()) << op.name();
  }
}

TEST(OpRegistry, NamesTheAtenOperatorsAnOpDispatchesTo) {
  EXPECT_EQ(find_op("mm").aten(), std::vector<std::string>{"aten::mm"});
  EXPECT_THAT(find_op("softmax").aten(), ::testing::Contains("aten::_softmax"));
}

TEST(OpRegistry, UnknownOpIsAUsageErrorWithSuggestions) {
  try {
    find_op("softmx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("softmax"));
  }
}

TEST(OpRegistry, SelftestOpsAbsentWithoutTheEnvironmentSwitch) {
  // This process runs without CALIBER_SELFTEST=1 (the cli tests cover the switch on).
  if (std::getenv("CALIBER_SELFTEST") != nullptr) GTEST_SKIP();
  EXPECT_TRUE(ops_in_family(Family::kSelftest).empty());
}

}  // namespace
}  // namespace caliber
