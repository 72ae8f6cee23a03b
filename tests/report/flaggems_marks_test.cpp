#include "report/flaggems_marks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace caliber {
namespace {

using ::testing::ElementsAre;

TEST(FlaggemsMarks, DecoratorsStackedOrNotAndBuiltinsAside) {
  const char* source = R"(
import pytest

@pytest.mark.skip(reason="issue #2687")
@pytest.mark.isneginf_out
def test_isneginf_out():
    pass

@pytest.mark.tril
@pytest.mark.tril_out
@pytest.mark.parametrize("x", [1])
def test_tril(x):
    pass
)";
  EXPECT_THAT(marks_in_test_source(source), ElementsAre("isneginf_out", "tril", "tril_out"));
}

TEST(FlaggemsMarks, ParametrisedMarksAndModuleMarks) {
  const char* source = R"(
pytestmark = pytest.mark.skipif(True, reason="x")
@pytest.mark.parametrize(
    "op",
    [
        pytest.param("addmm", marks=pytest.mark.addmm),
        pytest.param("bmm", marks=[pytest.mark.bmm, pytest.mark.mm]),
    ],
)
def test_blas(op):
    pass
)";
  EXPECT_THAT(marks_in_test_source(source), ElementsAre("addmm", "bmm", "mm"));
}

TEST(FlaggemsMarks, CommentsAndStringsMarkNothingButRegistrationsDo) {
  const char* source = R"(
from _pytest.mark.structures import Mark, MarkDecorator
# Register it so ``@pytest.mark._reshape_alias`` works (a comment: no mark).
setattr(
    pytest.mark,
    "_registered_only",
    MarkDecorator(Mark("_registered_only", (), {}, _ispytest=True), _ispytest=True),
)
DOC = """@pytest.mark.in_a_docstring"""
text = "@pytest.mark.in_a_string"
@pytest.mark.real  # @pytest.mark.after_code
def test_x():
    pass
)";
  EXPECT_THAT(marks_in_test_source(source), ElementsAre("real", "_registered_only"));
}

TEST(FlaggemsMarks, ReadsEveryTestFileOfAFolderWithSubfolders) {
  auto dir = std::filesystem::temp_directory_path() / "caliber_marks_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "test_sub");
  std::ofstream(dir / "test_abs.py") << "@pytest.mark.abs\ndef test_abs(): pass\n";
  std::ofstream(dir / "test_absolute.py") << "@pytest.mark.absolute\n@pytest.mark.abs\n";
  std::ofstream(dir / "test_sub" / "test_fla.py") << "@pytest.mark.chunk\n";
  std::ofstream(dir / "conftest.py") << "@pytest.mark.not_a_test_file\n";
  auto marks = read_flaggems_marks(dir);
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_EQ(marks[0].name, "abs");
  EXPECT_THAT(marks[0].files, ElementsAre("test_abs.py", "test_absolute.py"));
  EXPECT_EQ(marks[2].name, "chunk");
  EXPECT_THAT(marks[2].files, ElementsAre("test_sub/test_fla.py"));
  std::filesystem::remove_all(dir);
  EXPECT_THROW(read_flaggems_marks(dir), Error);
}

// The pinned FlagGems benchmark (fetched by bench/prepare_flaggems.sh; skipped where absent):
// 1,058 names worn by tests, and `_batch_norm_with_update_functional`, which its file registers
// as a mark while its test wears `batch_norm_with_update_functional`.
TEST(FlaggemsMarks, PinnedFlagGemsBenchmarkHas1059Marks) {
  std::filesystem::path dir =
      std::filesystem::path(CALIBER_SOURCE_DIR) / "third_party_fetched/FlagGems/benchmark";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " absent";
  auto marks = read_flaggems_marks(dir);
  EXPECT_EQ(marks.size(), 1059u);
  auto has = [&](const std::string& name) {
    for (const auto& m : marks) {
      if (m.name == name) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("_reshape_alias"));
  EXPECT_TRUE(has("_batch_norm_with_update_functional"));
  EXPECT_TRUE(has("chunk_gated_delta_rule_fwd"));  // test_FLA/
  EXPECT_FALSE(has("skipif"));
  EXPECT_FALSE(has("structures"));
}

}  // namespace
}  // namespace caliber
