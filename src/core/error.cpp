#include "core/error.h"

namespace caliber {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return 2;
    case ErrorKind::kOpFailure:
      return 1;
    case ErrorKind::kDeviceFatal:
      return 3;
    case ErrorKind::kInternal:
      return 4;
  }
  return 4;
}

}  // namespace caliber
