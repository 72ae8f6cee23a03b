#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/result_row.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporaryBehind) {
  fs::path dir = fs::temp_directory_path() / "caliber_atomic_test";
  fs::remove_all(dir);
  write_file_atomic(dir / "a.txt", "one");
  write_file_atomic(dir / "a.txt", "two");
  EXPECT_EQ(read_file(dir / "a.txt"), "two");
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}

TEST(ResultsJsonl, TornLastLineIsSkippedButEarlierRowsKept) {
  fs::path path = fs::temp_directory_path() / "caliber_results_test.jsonl";
  fs::remove(path);
  ResultRow row;
  row.op = "mm";
  row.samples_ms = {1.0, 2.0};
  append_line_durable(path, to_jsonl_line(row));
  append_line_durable(path, "{\"op\": \"sof");  // a writer killed mid-line
  auto rows = read_results_jsonl(path.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].op, "mm");
  EXPECT_EQ(rows[0].samples_ms.size(), 2u);
  fs::remove(path);
}

}  // namespace
}  // namespace caliber

#include "core/run_directory.h"

namespace caliber {
namespace {

TEST(RunDirectory, LogHasNoEscapeBytes) {
  fs::path dir = fs::temp_directory_path() / "caliber_rundir_test";
  fs::remove_all(dir);
  RunDirectory run(dir);
  run.append_log("\x1b[32mSUCCESS\x1b[0m row");
  EXPECT_EQ(read_file(run.log_path()), "SUCCESS row\n");
  fs::remove_all(dir);
}

TEST(RunDirectory, DefaultPathIsUniqueAndNamesTheOp) {
  fs::path parent = fs::temp_directory_path() / "caliber_rundir_parent";
  fs::remove_all(parent);
  fs::path a = RunDirectory::default_path(parent, "mm");
  fs::create_directories(a);
  fs::path b = RunDirectory::default_path(parent, "mm");
  EXPECT_NE(a, b);
  EXPECT_NE(a.filename().string().find("-mm"), std::string::npos);
  fs::remove_all(parent);
}

}  // namespace
}  // namespace caliber
