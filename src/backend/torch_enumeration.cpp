#include "backend/torch_enumeration.h"

#include <mutex>
#include <utility>

namespace caliber {
namespace {

struct EnumeratorSlot {
  std::mutex mutex;
  TorchEnumerator enumerator;
};

EnumeratorSlot& slot() {
  static EnumeratorSlot the_slot;
  return the_slot;
}

}  // namespace

void set_torch_enumerator(TorchEnumerator enumerator) {
  std::lock_guard lock(slot().mutex);
  slot().enumerator = std::move(enumerator);
}

std::vector<DeviceInfo> enumerate_through_torch(const std::string& backend_name) {
  TorchEnumerator enumerator;
  {
    std::lock_guard lock(slot().mutex);
    enumerator = slot().enumerator;
  }
  if (!enumerator) return {};
  return enumerator(backend_name);
}

}  // namespace caliber
