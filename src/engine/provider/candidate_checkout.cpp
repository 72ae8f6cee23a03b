#include "engine/provider/candidate_checkout.h"

#include <pybind11/embed.h>
#include <pybind11/pybind11.h>

#include "core/error.h"
#include "engine/provider/embedded_python.h"
#include "engine/provider/provider_spec.h"
#include "engine/provider/python_error_text.h"

namespace py = pybind11;

namespace caliber {
namespace {

constexpr const char* kCoreShapes = "benchmark/core_shapes.yaml";

// Where `module` would be imported from, without running it: importlib's spec of its top-level
// package (a dotted name's parents would be imported to find it).
std::filesystem::path module_location(const ProviderSpec& spec) {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  std::string top = spec.module.substr(0, spec.module.find('.'));
  try {
    py::object found = py::module_::import("importlib.util").attr("find_spec")(top);
    if (found.is_none()) {
      throw_usage("--candidate {}: no module {} on PYTHONPATH or {}'s paths", spec.text, top,
                  embedded_python_executable());
    }
    py::object origin = found.attr("origin");
    if (!origin.is_none()) return origin.cast<std::string>();
    py::object locations = found.attr("submodule_search_locations");
    if (!locations.is_none() && py::len(locations) > 0) {
      return py::str(locations[py::int_(0)]).cast<std::string>();
    }
  } catch (const py::error_already_set& e) {
    throw_usage("--candidate {}: cannot locate {}: {}", spec.text, top, last_traceback_line(e));
  }
  throw_usage("--candidate {}: module {} has no location on disk", spec.text, top);
}

}  // namespace

std::filesystem::path checkout_above(const std::filesystem::path& start) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::weakly_canonical(start, ec);
  if (ec) dir = start;
  if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_regular_file(dir / kCoreShapes, ec)) return dir;
    if (dir == dir.root_path()) break;
  }
  return {};
}

std::filesystem::path candidate_checkout(const std::string& candidate_spec) {
  if (candidate_spec.empty()) {
    throw_usage(
        "SHAPE_MODE: 'upstream' takes the shapes from the candidate's checkout, and no "
        "--candidate is given (accepted: upstream with --candidate, file, builtin)");
  }
  ProviderSpec spec = parse_provider_spec(candidate_spec);
  std::filesystem::path location = spec.kind == ProviderSpec::Kind::kPython
                                       ? module_location(spec)
                                       : std::filesystem::path(spec.path);
  std::filesystem::path checkout = checkout_above(location);
  if (checkout.empty()) {
    throw_usage(
        "SHAPE_MODE: 'upstream' needs the candidate's source checkout, and no folder above {} "
        "(where --candidate {} comes from) holds {} (accepted: a candidate run from a source "
        "checkout, e.g. PYTHONPATH=FlagGems/src; or --shape-file)",
        location.string(), candidate_spec, kCoreShapes);
  }
  return checkout;
}

}  // namespace caliber
