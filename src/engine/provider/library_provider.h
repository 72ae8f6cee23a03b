#pragma once

#include <memory>
#include <string>

#include "engine/provider/provider.h"
#include "engine/provider/provider_spec.h"

namespace caliber {

// `library:PATH.so`: a shared library exporting the C functions of include/caliber/provider.h.
// Its scope is caliber_provider_register() ... caliber_provider_unregister(). The library stays
// loaded until the process ends: code it registered may still be referenced by torch (warning
// handlers, kernel caches), so unloading it is never worth the risk.
class LibraryProvider final : public Provider {
 public:
  // Throws a usage Error when the file is missing, cannot be loaded or lacks a required function.
  LibraryProvider(ProviderSpec spec, std::unique_ptr<DispatchSnapshot> pristine);
  ~LibraryProvider() override;

  // "PATH sha256:HEX" and the library's own version when it exports one.
  std::string version() const override;

 protected:
  void enter() override;
  void exit(bool unwinding) override;

 private:
  using RegisterFn = int (*)();
  using UnregisterFn = void (*)();
  using TextFn = const char* (*)();

  ProviderSpec spec_;
  void* handle_ = nullptr;
  RegisterFn register_ = nullptr;
  UnregisterFn unregister_ = nullptr;
  TextFn error_ = nullptr;
  std::string version_;
};

}  // namespace caliber
