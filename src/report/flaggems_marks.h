#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// The marks of FlagGems' benchmark, read from its test files as text (no Python): every name a
// file makes a pytest mark of, pytest's own marks (skip, skipif, xfail, parametrize,
// usefixtures, filterwarnings) aside. A name counts once however many tests or files wear it.
struct FlaggemsMark {
  std::string name;
  std::vector<std::string> files;  // relative to the benchmark folder, sorted
};

// Marks written in one file's text, in order of first appearance: decorators
// (`@pytest.mark.abs`, stacked or not), marks inside `pytest.param(..., marks=...)` and
// `pytestmark = ...`, and names registered with `setattr(pytest.mark, "_name", ...)` (pytest
// refuses attribute access for names with a leading underscore, so FlagGems registers them).
// Comments and string literals are skipped: a comment that quotes `@pytest.mark.x` marks
// nothing.
std::vector<std::string> marks_in_test_source(std::string_view text);

// Every test_*.py under `dir` (subfolders too), marks sorted by name. A usage error when `dir`
// holds no test file.
std::vector<FlaggemsMark> read_flaggems_marks(const std::filesystem::path& dir);

bool is_builtin_pytest_mark(std::string_view name);

}  // namespace caliber
