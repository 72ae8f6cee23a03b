// Issue 15: every FlagGems benchmark mark that names an ATen operator is covered by an op of the
// corpus or dismissed as a whole, so what `caliber ops --inventory` leaves missing are the marks
// without an ATen counterpart (fused LLM kernels and the like).

#include <ATen/core/dispatch/Dispatcher.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "batch/op_selection.h"
#include "core/op_list.h"
#include "ops/op_registry.h"
#include "report/flaggems_marks.h"

namespace caliber {
namespace {

// The overload names of every aten:: operator the dispatcher knows, by operator name.
std::map<std::string, std::set<std::string>> aten_operators() {
  std::map<std::string, std::set<std::string>> ops;
  for (const auto& n : c10::Dispatcher::singleton().getAllOpNames()) {
    if (n.name.rfind("aten::", 0) == 0) ops[n.name.substr(6)].insert(n.overload_name);
  }
  return ops;
}

// A mark names an ATen operator when aten::<mark> or aten::_<mark> exists, or when it is
// <op>_out and aten::<op> (or aten::_<op>) has an out= overload.
bool names_aten_operator(const std::string& mark,
                         const std::map<std::string, std::set<std::string>>& ops) {
  if (ops.count(mark) > 0 || ops.count("_" + mark) > 0) return true;
  const std::string suffix = "_out";
  if (mark.size() <= suffix.size() || mark.compare(mark.size() - 4, 4, suffix) != 0) return false;
  const std::string base = mark.substr(0, mark.size() - suffix.size());
  for (const std::string& name : {base, "_" + base}) {
    auto it = ops.find(name);
    if (it == ops.end()) continue;
    for (const auto& overload : it->second) {
      if (overload == "out" ||
          (overload.size() > 4 && overload.compare(overload.size() - 4, 4, suffix) == 0)) {
        return true;
      }
    }
  }
  return false;
}

TEST(InventoryAten, NamesAtenOperatorReadsOverloadsAndPrefixes) {
  auto ops = aten_operators();
  EXPECT_TRUE(names_aten_operator("abs", ops));
  EXPECT_TRUE(names_aten_operator("chunk_cat", ops));  // aten::_chunk_cat
  EXPECT_TRUE(names_aten_operator("abs_out", ops));    // aten::abs.out
  EXPECT_FALSE(names_aten_operator("amin_", ops));     // no in-place amin in ATen
  EXPECT_FALSE(names_aten_operator("fused_add_rms_norm", ops));
}

// The pinned FlagGems benchmark (fetched by bench/prepare_flaggems.sh; skipped where absent).
TEST(InventoryAten, PinnedFlagGemsLeavesNoAtenMarkMissing) {
  std::filesystem::path dir =
      std::filesystem::path(CALIBER_SOURCE_DIR) / "third_party_fetched/FlagGems/benchmark";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " absent";
  auto ops = aten_operators();
  OpList dismissed =
      OpList::load(std::filesystem::path(CALIBER_SOURCE_DIR) / "ops" / "dismiss.yaml");
  int missing = 0;
  for (const auto& mark : read_flaggems_marks(dir)) {
    if (find_op_answering(mark.name) != nullptr) continue;
    if (dismissed.dismissal(mark.name, "") != nullptr) continue;
    ++missing;
    EXPECT_FALSE(names_aten_operator(mark.name, ops))
        << mark.name << " names an ATen operator but is neither covered nor dismissed";
  }
  // Issue 16: the fused and non-ATen marks are covered or dismissed too, so none is left.
  EXPECT_EQ(missing, 0);
}

// bench/flaggems_candidate_screen.sh screens the ops of bench/screen_ops/flaggems-marked.txt:
// they must stay the corpus ops that answer the pinned benchmark's marks as the corpus changes.
TEST(InventoryAten, TheCandidateScreenListIsTheOpsAnsweringFlagGemsMarks) {
  const std::filesystem::path source(CALIBER_SOURCE_DIR);
  std::filesystem::path dir = source / "third_party_fetched/FlagGems/benchmark";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " absent";
  std::set<std::string> answering;
  for (const auto& mark : read_flaggems_marks(dir)) {
    if (const OpDef* op = find_op_answering(mark.name)) answering.insert(op->name());
  }
  const std::vector<std::string> ops =
      read_ops_file(source / "bench/screen_ops/flaggems-marked.txt");
  const std::set<std::string> listed(ops.begin(), ops.end());
  EXPECT_EQ(listed, answering);
  EXPECT_EQ(listed.size(), 1005u);
}

}  // namespace
}  // namespace caliber
