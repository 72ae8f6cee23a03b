#include "core/op_run_dirs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace caliber {
namespace {

namespace fs = std::filesystem;

TEST(OpRunDirs, AnOpWithoutDtypeRerunsIsItsOwnRun) {
  fs::path op = fs::temp_directory_path() / ("caliber_op_run_dirs_" + std::to_string(getpid()));
  fs::remove_all(op);
  fs::create_directories(op);
  EXPECT_EQ(final_run_dirs(op), std::vector<fs::path>{op});
  fs::remove_all(op);
}

TEST(OpRunDirs, DtypeRerunsStandInForTheOpsRunInNameOrder) {
  fs::path op = fs::temp_directory_path() / ("caliber_op_run_dirs_r" + std::to_string(getpid()));
  fs::remove_all(op);
  for (const char* dtype : {"float32", "bfloat16", "float16"}) {
    fs::create_directories(dtype_rerun_dir(op, dtype));
  }
  EXPECT_EQ(dtype_rerun_dir(op, "float16"), op / "dtypes" / "float16");
  EXPECT_EQ(final_run_dirs(op),
            (std::vector<fs::path>{op / "dtypes" / "bfloat16", op / "dtypes" / "float16",
                                   op / "dtypes" / "float32"}));
  fs::remove_all(op);
}

}  // namespace
}  // namespace caliber
