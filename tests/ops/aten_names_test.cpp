#include <ATen/core/dispatch/Dispatcher.h>
#include <gtest/gtest.h>

#include <set>

#include "ops/op_registry.h"

namespace caliber {
namespace {

// The provider layer asks the dispatcher whether a candidate overrides these names, so a name
// the dispatcher does not know would make an op look "not covered" for the wrong reason.
TEST(AtenNames, EveryNameAnOpListsIsRegisteredWithTheDispatcher) {
  std::set<std::string> names;
  std::set<std::string> qualified;
  for (const auto& n : c10::Dispatcher::singleton().getAllOpNames()) {
    names.insert(n.name);
    qualified.insert(n.overload_name.empty() ? n.name : n.name + "." + n.overload_name);
  }
  for (const auto& op : all_ops()) {
    for (const auto& name : op.aten()) {
      bool known =
          name.find('.') == std::string::npos ? names.count(name) > 0 : qualified.count(name) > 0;
      EXPECT_TRUE(known) << op.name() << ": " << name;
    }
  }
}

}  // namespace
}  // namespace caliber
