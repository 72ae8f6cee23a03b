#include "engine/op_instance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "ops/args.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

InstanceOptions cpu() { return InstanceOptions{}; }

TEST(OpInstance, MmReportsFlagGemsSizeDetailBytesAndFlops) {
  OpInstance mm = instantiate(find_op("mm"), {Shape{2, 32, 48, 64}, false}, DType::kFloat32, cpu());
  EXPECT_EQ(mm.size_detail(), "[torch.Size([32, 64]), torch.Size([64, 48])]");
  EXPECT_EQ(mm.input_shapes(), (std::vector<std::vector<int64_t>>{{32, 64}, {64, 48}}));
  EXPECT_DOUBLE_EQ(mm.flops(), 2.0 * 32 * 48 * 64);
  EXPECT_DOUBLE_EQ(mm.bytes(), 4.0 * (32 * 64 + 64 * 48 + 32 * 48));
  EXPECT_FALSE(mm.reset());
  mm.call()();
  EXPECT_TRUE(mm.verify().ok);
}

TEST(OpInstance, ColumnMajorPassKeepsTheLogicalShape) {
  OpInstance mm = instantiate(find_op("mm"), {Shape{2, 32, 48, 64}, true}, DType::kFloat16, cpu());
  EXPECT_EQ(mm.size_detail(), "[torch.Size([32, 64]), torch.Size([64, 48])]");
  EXPECT_TRUE(mm.verify().ok) << mm.verify().detail;
}

TEST(OpInstance, InplaceOpResetsItsInputOutsideTheTimedCall) {
  OpInstance add = instantiate(find_op("add_"), {Shape{8, 8}, false}, DType::kFloat32, cpu());
  ASSERT_TRUE(add.reset());
  for (int i = 0; i < 5; ++i) add.call()();  // drifts away from the reference
  Verification v = add.verify();             // resets first
  EXPECT_TRUE(v.ok) << v.detail;
}

TEST(OpInstance, BackwardOpTimesTheGradient) {
  OpInstance bw =
      instantiate(find_op("softmax_backward"), {Shape{16, 32}, false}, DType::kFloat32, cpu());
  bw.call()();
  bw.call()();  // the graph is retained between calls
  EXPECT_TRUE(bw.verify().ok);
}

TEST(OpInstance, VerificationCatchesAWrongResult) {
  // Right on the float64 reference, off by 0.5 on the device dtype.
  OpDef wrong = OpDef("wrong_exp").inputs(find_op("exp").inputs()).call([](Args& a) {
    at::Tensor e = a.t[0].exp();
    return a.t[0].scalar_type() == at::kDouble ? e : e.add(0.5);
  });
  Verification v = instantiate(wrong, {Shape{8, 8}, false}, DType::kFloat32, cpu()).verify();
  EXPECT_FALSE(v.ok);
  EXPECT_THAT(v.detail, ::testing::HasSubstr("outside"));
}

TEST(OpInstance, RngOpIsCheckedByItsRange) {
  Verification v =
      instantiate(find_op("rand"), {Shape{64, 64}, false}, DType::kFloat16, cpu()).verify();
  EXPECT_TRUE(v.ok) << v.detail;
  EXPECT_FALSE(v.has_reference);
}

TEST(OpInstance, AtenErrorBecomesAnOpFailure) {
  try {
    instantiate(find_op("mm"), {Shape{64, 64}, false}, DType::kFloat32, cpu());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);  // not (B, M, N, K): a bad shape file
  }
  try {
    instantiate(find_op("conv2d"), {Shape{2, 8, 12, 12, 8, 30, 30, 1, 0, 1}, false},
                DType::kFloat32, cpu());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("conv2d float32"));
  }
}

}  // namespace
}  // namespace caliber
