#include "core/csv.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(Csv, QuotesOnlyFieldsThatNeedIt) {
  EXPECT_EQ(csv_line({"mm", "[torch.Size([2, 3])]", "say \"hi\"", ""}),
            "mm,\"[torch.Size([2, 3])]\",\"say \"\"hi\"\"\",\n");
}

TEST(Csv, ParsesWhatItWrites) {
  std::vector<std::string> fields = {"a,b", "line\nbreak", "\"q\"", "", "plain"};
  auto records = parse_csv(csv_line(fields) + csv_line({"x"}));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], fields);
  EXPECT_EQ(records[1], std::vector<std::string>{"x"});
}

TEST(Csv, TableReadsByColumnNameAndToleratesShortRows) {
  CsvTable table(parse_csv("op,status,error\r\nmm,OK\r\nsort,DISMISSED,\"hangs, see #12\"\r\n"));
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.at(0, "status"), "OK");
  EXPECT_EQ(table.at(0, "error"), "");
  EXPECT_EQ(table.at(1, "error"), "hangs, see #12");
  EXPECT_EQ(table.at(1, "no_such_column"), "");
}

}  // namespace
}  // namespace caliber
