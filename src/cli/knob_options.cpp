#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flaggems_flags.h"

namespace caliber {

void add_knob_options(CLI::App* command, FlagValues& flags, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    const KnobDef& def = knob_def(name);
    std::string help = fmt::format("accepted: {}", def.accepted);
    if (!def.env.empty()) help += fmt::format(" (environment: {})", def.env);
    if (std::string note = flaggems_help_note(name); !note.empty()) help += "; " + note;
    command->add_option_function<std::string>(
        def.flag, [&flags, name](const std::string& value) { flags[name] = value; }, help);
  }
}

}  // namespace caliber
