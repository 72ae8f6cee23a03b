#include "engine/provider/library_provider.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>

#include "core/error.h"
#include "engine/provider/dispatch_snapshot.h"
#include "engine/provider/file_digest.h"

namespace caliber {
namespace {

constexpr const char* kRequired = "caliber_provider_register and caliber_provider_unregister";

template <typename Fn>
Fn find_function(void* handle, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

}  // namespace

LibraryProvider::LibraryProvider(ProviderSpec spec, std::unique_ptr<DispatchSnapshot> pristine)
    : Provider(spec.text, std::move(pristine)), spec_(std::move(spec)) {
  std::error_code error;
  const auto path = std::filesystem::absolute(spec_.path, error);
  if (error || !std::filesystem::is_regular_file(path)) {
    throw_usage("--candidate {}: '{}' is not a file (accepted: library:PATH.so)", spec_.text,
                spec_.path);
  }
  // RTLD_LOCAL: the library's own symbols must not interpose on caliber's or torch's.
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    throw_usage("--candidate {}: cannot load '{}': {}", spec_.text, path.string(), dlerror());
  }
  register_ = find_function<RegisterFn>(handle_, "caliber_provider_register");
  unregister_ = find_function<UnregisterFn>(handle_, "caliber_provider_unregister");
  error_ = find_function<TextFn>(handle_, "caliber_provider_error");
  if (register_ == nullptr || unregister_ == nullptr) {
    throw_usage("--candidate {}: '{}' does not export {} (see include/caliber/provider.h)",
                spec_.text, path.string(), kRequired);
  }
  version_ = fmt::format("{} sha256:{}", path.string(), sha256_of_file(path.string()));
  if (const auto own = find_function<TextFn>(handle_, "caliber_provider_version")) {
    if (const char* text = own(); text != nullptr && *text != 0)
      version_ += fmt::format(" ({})", text);
  }
}

LibraryProvider::~LibraryProvider() = default;

std::string LibraryProvider::version() const { return version_; }

void LibraryProvider::enter() {
  if (register_() == 0) return;
  const char* why = error_ != nullptr ? error_() : nullptr;
  // A failed register may have made some registrations; the scope is not entered, so drop them.
  unregister_();
  throw Error(ErrorKind::kOpFailure,
              fmt::format("{}: caliber_provider_register failed: {}", spec_.text,
                          why != nullptr && *why != 0 ? why : "no reason given"));
}

void LibraryProvider::exit(bool /*unwinding*/) { unregister_(); }

}  // namespace caliber
