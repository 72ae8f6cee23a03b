#include "core/worker_protocol.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

TEST(WorkerProtocol, RequestRoundTripsWithoutOpAndOutAmongTheKnobs) {
  WorkerRequest sent{"mm",
                     "/b/ops/mm",
                     "/b/ops/mm/attempt-1.log",
                     {{"level", "core"}, {"op", "mm"}, {"out_dir", "/x"}}};
  std::string line = worker_request_line(sent);
  ASSERT_EQ(line.back(), '\n');
  ASSERT_EQ(line.find('\n'), line.size() - 1);
  WorkerRequest got = parse_worker_request(line);
  EXPECT_EQ(got.op, "mm");
  EXPECT_EQ(got.out_dir, "/b/ops/mm");
  EXPECT_EQ(got.log, "/b/ops/mm/attempt-1.log");
  EXPECT_EQ(got.flags, (FlagValues{{"level", "core"}}));
}

TEST(WorkerProtocol, AMalformedRequestIsAUsageError) {
  for (const char* line : {"not json", "{\"op\": \"mm\"}", "{\"op\": 1, \"out\": \"/o\"}",
                           "{\"op\": \"mm\", \"out\": \"/o\", \"flags\": []}"}) {
    try {
      parse_worker_request(line);
      FAIL() << line;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage) << line;
    }
  }
}

TEST(WorkerProtocol, ReplyRoundTripsAndStrayOutputIsNoReply) {
  auto got = parse_worker_reply(worker_reply_line({"mm", 3, "device lost"}));
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->op, "mm");
  EXPECT_EQ(got->exit_code, 3);
  EXPECT_EQ(got->error, "device lost");
  EXPECT_FALSE(parse_worker_reply("caliber run end: 3 rows").has_value());
  EXPECT_FALSE(parse_worker_reply("{\"op\": \"mm\"}").has_value());
}

}  // namespace
}  // namespace caliber
