#include "engine/missing_kernel.h"

#include <fmt/format.h>

namespace caliber {
namespace {

// Quoted text after `prefix` in `text`, from position `from`; empty when absent.
std::string quoted_after(std::string_view text, std::string_view prefix, size_t& from) {
  size_t at = text.find(prefix, from);
  if (at == std::string_view::npos) return "";
  size_t start = at + prefix.size();
  size_t end = text.find('\'', start);
  if (end == std::string_view::npos) return "";
  from = end + 1;
  return std::string(text.substr(start, end - start));
}

}  // namespace

std::optional<MissingKernel> missing_kernel(std::string_view error) {
  size_t from = 0;
  std::string op = quoted_after(error, "Could not run '", from);
  if (op.empty()) return std::nullopt;
  std::string backend = quoted_after(error, "with arguments from the '", from);
  if (backend.empty()) return std::nullopt;
  return MissingKernel{op, backend};
}

std::string not_implemented_marker(const MissingKernel& missing) {
  return fmt::format("NOT_IMPLEMENTED[{}]", missing.op);
}

std::string not_implemented_text(const MissingKernel& missing) {
  return fmt::format("not implemented on the {} backend: torch has no {} kernel for it",
                     missing.backend, missing.op);
}

}  // namespace caliber
