#include "batch/tuner_records.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(TunerRecords, KeepsValidatorLinesOnceAndDeduplicatesResults) {
  std::string shard0 =
      "Validator,PT_VERSION,2.11\nValidator,GCN_ARCH_NAME,sm90\n"
      "GemmTunableOp_half_NN,nn_8_8_8,Gemm_A,0.1\nGemmTunableOp_half_NN,nn_16_16_16,Gemm_B,0.2\n";
  std::string shard1 =
      "Validator,PT_VERSION,2.11\nValidator,GCN_ARCH_NAME,sm90\n"
      "GemmTunableOp_half_NN,nn_8_8_8,Gemm_C,0.3\nGemmTunableOp_half_TN,tn_4_4_4,Gemm_D,0.4\n";
  EXPECT_EQ(merge_tunableop_records({shard0, shard1}),
            "Validator,PT_VERSION,2.11\nValidator,GCN_ARCH_NAME,sm90\n"
            "GemmTunableOp_half_NN,nn_8_8_8,Gemm_A,0.1\n"
            "GemmTunableOp_half_NN,nn_16_16_16,Gemm_B,0.2\n"
            "GemmTunableOp_half_TN,tn_4_4_4,Gemm_D,0.4\n");
}

TEST(TunerRecords, ValidatorLinesComeFirstEvenWhenAShardHasNoHeader) {
  EXPECT_EQ(merge_tunableop_records({"Gemm,nn_1,A,0.1\n", "Validator,PT_VERSION,2.11\n"}),
            "Validator,PT_VERSION,2.11\nGemm,nn_1,A,0.1\n");
}

}  // namespace
}  // namespace caliber
