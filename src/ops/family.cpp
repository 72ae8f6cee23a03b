#include "ops/family.h"

namespace caliber {

const Choice<Family>& family_choice() {
  static const Choice<Family> choice = {
#define CALIBER_FAMILY_NAME(value, name, table) {name, Family::value},
      CALIBER_FAMILIES(CALIBER_FAMILY_NAME)
#undef CALIBER_FAMILY_NAME
  };
  return choice;
}

}  // namespace caliber
